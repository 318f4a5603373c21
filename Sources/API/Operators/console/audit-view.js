// The audit trail: everything an actor did, or everything that happened to an entity.
import { pagedEvents } from "./paged-view.js";

export const name = "audit";

let view;

export function init(ui) {
  view = pagedEvents(ui, {
    form: document.getElementById("audit-form"),
    table: document.getElementById("audit-table"),
    more: document.getElementById("audit-more"),
    noun: "events of the trail",
    request: ({ subject, id }) => ({
      path: "/v1/admin/audit",
      query: { [subject]: id },
      caption: subject === "actor" ? `What ${id.trim()} did` : `What happened to ${id.trim()}`,
    }),
  });
}

/** `#audit?actor=U` or `#audit?entity=ID`. */
export function show(params) {
  const filled = new URLSearchParams();
  for (const subject of ["actor", "entity"]) {
    if (params.has(subject)) {
      filled.set("subject", subject);
      filled.set("id", params.get(subject));
    }
  }
  view.fill(filled);
}
