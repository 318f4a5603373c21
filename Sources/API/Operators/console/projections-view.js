// Every projection's state and lag, with a rebuild button each.
import { api } from "./api.js";
import { renderTable } from "./table.js";

export const name = "projections";

let refresh;

export function init(ui) {
  const table = document.getElementById("projections-table");

  function rebuildButton(projection) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Rebuild";
    button.setAttribute("aria-label", `Rebuild ${projection.name}`);
    button.disabled = projection.rebuildCheckpoint !== undefined; // one is under way
    button.addEventListener("click", async () => {
      ui.clear();
      button.disabled = true;
      try {
        await api(`/v1/admin/projections/${encodeURIComponent(projection.name)}/rebuild`, { method: "POST" });
        ui.status(`Rebuild of ${projection.name} started.`);
      } catch (error) {
        ui.error(error);
      }
      await refresh();
    });
    return button;
  }

  function stateCell(projection) {
    const span = document.createElement("span");
    span.className = `state-${projection.state ?? "serving"}`;
    const details = [projection.failure, projection.lastRebuildError && `last rebuild failed: ${projection.lastRebuildError}`].filter(Boolean);
    span.textContent = [projection.state ?? "serving", ...details].join(" — ");
    return span;
  }

  refresh = async () => {
    try {
      const { projections } = await api("/v1/admin/projections");
      renderTable(table, [
        { label: "Projection", cell: (p) => p.name },
        { label: "Version", numeric: true, cell: (p) => String(p.version) },
        { label: "Generation", numeric: true, cell: (p) => String(p.generation) },
        { label: "Checkpoint", numeric: true, cell: (p) => String(p.checkpoint) },
        { label: "Lag", numeric: true, cell: (p) => String(p.lag) },
        { label: "Rebuild progress", numeric: true, cell: (p) => (p.rebuildCheckpoint === undefined ? "" : String(p.rebuildCheckpoint)) },
        { label: "State", cell: stateCell },
        { label: "Action", cell: rebuildButton },
      ], projections, { caption: "Read models: lag is events in the log not yet in the served copy" });
    } catch (error) {
      ui.error(error);
    }
  };
  document.getElementById("projections-refresh").addEventListener("click", () => { ui.clear(); refresh(); });
}

export function show() { refresh(); }
