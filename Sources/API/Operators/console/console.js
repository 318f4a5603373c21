// The operator console: sign in with the operator token, then one view at a time, chosen by
// the URL's fragment (`#events`, `#stream?id=house-…`, `#audit?actor=…`), so views link to
// each other and the browser's back button works.
import { api, session } from "./api.js";
import * as audit from "./audit-view.js";
import * as events from "./events-view.js";
import * as live from "./live-view.js";
import * as projections from "./projections-view.js";
import * as stats from "./stats-view.js";
import * as stream from "./stream-view.js";

const views = [live, events, stream, audit, projections, stats];
const statusLine = document.getElementById("status");
const errorLine = document.getElementById("error");

/** What every view reports through: one polite status line, one alert for errors. */
const ui = {
  status(text) { statusLine.textContent = text; },
  error(error) {
    errorLine.textContent = error?.message ?? String(error);
    if (error?.status === 401 || error?.status === 403) signOut("The operator token was refused; sign in again.");
  },
  clear() { errorLine.textContent = ""; },
};

function showSignedIn(signedIn) {
  document.getElementById("sign-in").hidden = signedIn;
  document.getElementById("views").hidden = !signedIn;
  document.getElementById("signed-in").hidden = !signedIn;
  if (!signedIn) for (const section of document.querySelectorAll("main section")) section.hidden = true;
}

function signOut(reason = "Signed out.") {
  live.stopFollowing();
  session.clear();
  showSignedIn(false);
  ui.status(reason);
  document.getElementById("token").focus();
}

/** Shows the view the fragment names (the live tail by default) and moves focus to its heading. */
function route({ focus = true } = {}) {
  if (!session.token) return;
  const [viewName, query = ""] = location.hash.slice(1).split("?");
  const view = views.find((candidate) => candidate.name === viewName) ?? live;
  // What the last view said is not about this one.
  ui.clear();
  ui.status("");
  for (const section of document.querySelectorAll("main section")) section.hidden = section.dataset.view !== view.name;
  for (const link of document.querySelectorAll("nav a")) {
    if (link.getAttribute("href") === `#${view.name}`) link.setAttribute("aria-current", "page"); else link.removeAttribute("aria-current");
  }
  const heading = document.querySelector(`#view-${view.name} h2`);
  heading.tabIndex = -1;
  if (focus) heading.focus();
  view.show(new URLSearchParams(query));
}

document.getElementById("sign-in").addEventListener("submit", async (submitted) => {
  submitted.preventDefault();
  ui.clear();
  const field = document.getElementById("token");
  session.set(field.value);
  try {
    await api("/v1/admin/head");
    field.value = "";
    showSignedIn(true);
    route();
    ui.status("Signed in.");
  } catch (error) {
    session.clear();
    ui.error(error);
    field.focus();
  }
});
document.getElementById("sign-out").addEventListener("click", () => signOut());
window.addEventListener("hashchange", () => route());

for (const view of views) view.init(ui);
showSignedIn(Boolean(session.token));
route({ focus: false });
