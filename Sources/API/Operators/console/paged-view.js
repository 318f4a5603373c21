// The shape the events, stream and audit views share: a form of filters, a table of events,
// and a "More" button that follows the page's `next` cursor.
import { api } from "./api.js";
import { eventColumns, renderTable } from "./table.js";

/**
 * Wires `form`, `table` and `more` to `request(values) → { path, query }`. `fill(params)` puts
 * a link's parameters into the form and searches; returns `{ search, fill }`.
 */
export function pagedEvents(ui, { form, table, more, request, noun }) {
  let current = null;
  let next = null;

  async function load(append) {
    ui.clear();
    ui.status(append ? `Loading more ${noun}…` : `Searching ${noun}…`);
    try {
      const page = await api(current.path, { query: { ...current.query, cursor: append ? next : undefined } });
      next = page.next ?? null;
      renderTable(table, eventColumns, page.items, { append, caption: current.caption });
      more.hidden = next === null;
      const shown = table.tBodies[0].querySelectorAll("tr:not(.empty)").length;
      ui.status(`${shown} ${noun} shown${next ? "; more available" : ""}.`);
    } catch (error) {
      // A refused search shows no stale results under its error.
      if (!append) {
        table.replaceChildren();
        more.hidden = true;
      }
      ui.error(error);
      ui.status("");
    }
  }

  form.addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    current = request(Object.fromEntries(new FormData(form)));
    if (current) load(false);
  });
  more.addEventListener("click", () => load(true));

  return {
    fill(params) {
      let any = false;
      for (const [name, value] of params) {
        const field = form.elements.namedItem(name);
        if (!field) continue;
        field.value = value; // a RadioNodeList too: it checks the radio of that value
        any = true;
      }
      if (any) form.requestSubmit();
    },
  };
}
