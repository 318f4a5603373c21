// The admin API with the operator token. Every failure becomes an ApiError carrying the
// problem's stable `code`, so the views say what went wrong in the server's own words.

const tokenKey = "logbook.operatorToken";

/** The operator token, kept for this tab only (sessionStorage): closing the tab forgets it. */
export const session = {
  get token() { return sessionStorage.getItem(tokenKey); },
  set(token) { sessionStorage.setItem(tokenKey, token); },
  clear() { sessionStorage.removeItem(tokenKey); },
};

export class ApiError extends Error {
  constructor(status, code, detail) {
    super(detail ? `${detail} (${code})` : code);
    this.status = status;
    this.code = code;
  }
}

/** `path` with the non-empty entries of `query` as its query string. */
export function url(path, query = {}) {
  const result = new URL(path, location.origin);
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && String(value).trim() !== "") result.searchParams.set(name, String(value).trim());
  }
  return result;
}

function headers(accept) {
  return { Authorization: `Bearer ${session.token ?? ""}`, Accept: accept };
}

/** The request's JSON body, or an ApiError from its problem+json. */
export async function api(path, { method = "GET", query = {}, signal } = {}) {
  const response = await fetch(url(path, query), { method, headers: headers("application/json"), signal });
  if (!response.ok) throw await problemOf(response);
  return response.status === 204 ? null : response.json();
}

/** An open `text/event-stream` response, or an ApiError. */
export async function openStream(path, { query = {}, signal } = {}) {
  const response = await fetch(url(path, query), { headers: headers("text/event-stream"), signal, cache: "no-store" });
  if (!response.ok) throw await problemOf(response);
  return response;
}

async function problemOf(response) {
  let body = {};
  try { body = await response.json(); } catch { /* not problem+json: the status says enough */ }
  return new ApiError(response.status, body.code ?? `http_${response.status}`, body.detail ?? body.title ?? response.statusText);
}
