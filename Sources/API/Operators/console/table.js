// Tables built with DOM nodes and textContent only: event data is what users typed, and is
// never parsed as HTML.

/**
 * Fills `table` with a header row of `columns` and a row per item of `rows`; with `append`,
 * adds rows under those already there. A column is `{ label, cell(row) → string | Node, numeric }`.
 */
export function renderTable(table, columns, rows, { append = false, prepend = false, caption, emptyText = "Nothing found." } = {}) {
  if (!append && !prepend) {
    table.replaceChildren();
    if (caption) table.createCaption().textContent = caption;
    const head = table.createTHead().insertRow();
    for (const column of columns) {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = column.label;
      if (column.numeric) th.className = "num";
      head.append(th);
    }
    table.createTBody();
  }
  const body = table.tBodies[0];
  if (!append && !prepend && rows.length === 0) {
    const empty = body.insertRow();
    empty.className = "empty";
    const cell = empty.insertCell();
    cell.colSpan = columns.length;
    cell.textContent = emptyText;
    return;
  }
  body.querySelector("tr.empty")?.remove();
  for (const row of prepend ? [...rows].reverse() : rows) {
    const tr = prepend ? body.insertRow(0) : body.insertRow();
    for (const column of columns) {
      const td = tr.insertCell();
      if (column.numeric) td.className = "num";
      if (column.className) td.classList.add(column.className);
      const value = column.cell(row);
      if (value instanceof Node) td.append(value); else td.textContent = value ?? "";
    }
  }
}

/** A link to another view of the console (`#stream?id=…`), for ids worth following. */
export function viewLink(view, parameters, text) {
  const link = document.createElement("a");
  link.href = `#${view}?${new URLSearchParams(parameters)}`;
  link.textContent = text;
  return link;
}

/** The first `dataCharactersShown` of a payload, the rest behind a disclosure (keyboard-operable). */
const dataCharactersShown = 160;

function payload(text) {
  if (text.length <= dataCharactersShown) return code(text);
  const details = document.createElement("details");
  const summary = document.createElement("summary");
  summary.textContent = `${text.slice(0, dataCharactersShown)}…`;
  details.append(summary, code(text));
  return details;
}

export function code(text) {
  const element = document.createElement("code");
  element.textContent = text;
  return element;
}

/** The columns of an event as the admin routes show it (an AdminEvent). */
export const eventColumns = [
  { label: "Position", numeric: true, cell: (event) => String(event.position) },
  { label: "Recorded", className: "nowrap", cell: (event) => event.recordedAt.replace("T", " ").replace(/\.\d+Z$/, "Z") },
  { label: "Type", cell: (event) => event.type },
  { label: "Stream", cell: (event) => viewLink("stream", { id: event.streamId }, `${event.streamId} v${event.streamVersion}`) },
  { label: "Actor", cell: (event) => viewLink("audit", { actor: event.actor }, event.actor) },
  { label: "Command", cell: (event) => code(event.commandId) },
  { label: "Data", className: "data", cell: (event) => payload(event.data === undefined ? `(binary, base64) ${event.dataBase64 ?? ""}` : JSON.stringify(event.data)) },
];
