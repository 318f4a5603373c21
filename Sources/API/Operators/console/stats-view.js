// The log's size and shape: GET /v1/admin/stats and the chain head to publish.
import { api } from "./api.js";
import { renderTable } from "./table.js";

export const name = "stats";

let refresh;

function bytes(count) {
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
  let value = count;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) { value /= 1024; unit += 1; }
  return unit === 0 ? `${count} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}

export function init(ui) {
  const summary = document.getElementById("stats-summary");
  const counts = [
    { label: "Name", cell: (entry) => entry.name },
    { label: "Events", numeric: true, cell: (entry) => String(entry.count) },
  ];

  refresh = async () => {
    try {
      const [stats, head] = await Promise.all([api("/v1/admin/stats"), api("/v1/admin/head")]);
      const rows = [
        ["Events", String(stats.events)],
        ["Last position", String(stats.lastPosition)],
        ["Streams", String(stats.streams)],
        ["Chain head", `${head.position}:${head.hash}`],
        ["File size", bytes(stats.fileSizeBytes)],
        ["Used", `${bytes(stats.usedBytes)} of a ${bytes(stats.mapSizeBytes)} map`],
        ["Readers", `${stats.readersUsed} of ${stats.readersMax}`],
      ];
      summary.replaceChildren(...rows.flatMap(([term, value]) => {
        const dt = document.createElement("dt");
        dt.textContent = term;
        const dd = document.createElement("dd");
        dd.textContent = value;
        return [dt, dd];
      }));
      renderTable(document.getElementById("stats-types"), counts, stats.eventsByType);
      renderTable(document.getElementById("stats-categories"), counts, stats.eventsByCategory);
    } catch (error) {
      ui.error(error);
    }
  };
  document.getElementById("stats-refresh").addEventListener("click", () => { ui.clear(); refresh(); });
}

export function show() { refresh(); }
