// One stream's history, oldest or newest first.
import { pagedEvents } from "./paged-view.js";

export const name = "stream";

let view;

export function init(ui) {
  view = pagedEvents(ui, {
    form: document.getElementById("stream-form"),
    table: document.getElementById("stream-table"),
    more: document.getElementById("stream-more"),
    noun: "events of the stream",
    request: ({ streamId, direction }) => ({
      path: `/v1/admin/streams/${encodeURIComponent(streamId.trim())}`,
      query: { direction },
      caption: `Stream ${streamId.trim()}, ${direction === "backward" ? "newest" : "oldest"} first`,
    }),
  });
}

export function show(params) {
  const renamed = new URLSearchParams();
  for (const [key, value] of params) renamed.set(key === "id" ? "streamId" : key, value);
  view.fill(renamed);
}
