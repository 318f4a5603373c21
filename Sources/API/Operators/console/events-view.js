// Event search: every filter of GET /v1/admin/events, paged by position.
import { pagedEvents } from "./paged-view.js";

export const name = "events";

let view;

export function init(ui) {
  view = pagedEvents(ui, {
    form: document.getElementById("events-form"),
    table: document.getElementById("events-table"),
    more: document.getElementById("events-more"),
    noun: "events",
    request: (values) => ({ path: "/v1/admin/events", query: values, caption: "Events matching every filter given, oldest first" }),
  });
}

export function show(params) { view.fill(params); }
