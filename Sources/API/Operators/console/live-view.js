// The live tail: GET /v1/admin/events/live, newest event on top, at most `rowsMax` rows kept.
// A dropped connection resumes after the last event shown (Last-Event-ID), without gap or duplicate.
import { openStream } from "./api.js";
import { messages } from "./sse.js";
import { eventColumns, renderTable } from "./table.js";

export const name = "live";

const rowsMax = 200;
const retryDelayMs = 2000;

let controller = null;

export function init(ui) {
  const form = document.getElementById("live-form");
  const start = document.getElementById("live-start");
  const stop = document.getElementById("live-stop");
  const state = document.getElementById("live-state");
  const table = document.getElementById("live-table");

  function setRunning(running, text) {
    start.disabled = running;
    stop.disabled = !running;
    state.textContent = text;
  }

  async function follow(filters, signal) {
    let lastEventId;
    let received = 0;
    while (!signal.aborted) {
      try {
        const response = await openStream("/v1/admin/events/live", { query: { ...filters, lastEventId }, signal });
        setRunning(true, `Following${received ? ` (${received} received)` : ""}: waiting for events…`);
        for await (const message of messages(response)) {
          const closing = message.comments.find((comment) => comment.startsWith("closed:"));
          if (closing) throw new Error(`the server closed the stream (${closing.slice(7).trim()})`);
          if (!message.data) continue;
          lastEventId = message.id ?? lastEventId;
          received += 1;
          renderTable(table, eventColumns, [JSON.parse(message.data)], { prepend: true });
          const rows = table.tBodies[0].rows;
          while (rows.length > rowsMax) rows[rows.length - 1].remove();
          state.textContent = `Following: ${received} received, last at position ${lastEventId}.`;
        }
        throw new Error("the stream ended");
      } catch (error) {
        if (signal.aborted) break;
        if (error.status === 401 || error.status === 403 || error.status === 404) {
          ui.error(error);
          break;
        }
        state.textContent = `Reconnecting after ${lastEventId ?? "the start"}: ${error.message}`;
        await new Promise((resume) => setTimeout(resume, retryDelayMs));
      }
    }
    setRunning(false, `Stopped after ${received} events.`);
  }

  form.addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    stopFollowing();
    ui.clear();
    renderTable(table, eventColumns, [], { caption: "Events as they are appended, newest first", emptyText: "No event yet." });
    controller = new AbortController();
    setRunning(true, "Connecting…");
    follow(Object.fromEntries(new FormData(form)), controller.signal);
  });
  stop.addEventListener("click", stopFollowing);
}

export function stopFollowing() {
  controller?.abort();
  controller = null;
}

export function show() {}
