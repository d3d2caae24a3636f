/* Sumito: the one way the pages talk to the site over HTTP. Every fetch of every page goes
 * through this module.
 *
 *   call(method, url, body, { keepalive })  the JSON answer, or throws an ApiError;
 *   page(url, { headers })                  the text of a page (an HTML part to put in place),
 *                                           or throws an ApiError;
 *   ApiError  .status (0: unreachable), .code (the API's "error", else http_<n>),
 *             .message (the API's "detail", translated by the server),
 *             .retryAfter (seconds, from a 429's Retry-After);
 *   csrfToken()  the session's CSRF token (cookie, else the page's form field).
 */
import { format, gettext } from "sumito/i18n.js";

export function csrfToken() {
  const cookie = document.cookie.split(";").map((part) => part.trim())
    .find((part) => part.startsWith("csrftoken="));
  if (cookie) return decodeURIComponent(cookie.slice("csrftoken=".length));
  const field = document.querySelector("input[name=csrfmiddlewaretoken]");
  return field ? field.value : "";
}

export class ApiError extends Error {
  constructor(status, code, detail, retryAfter = null) {
    super(detail);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

/** The message of an error body: its "detail", else the first field error (a form's 400). */
function firstMessage(body) {
  if (!body || typeof body !== "object") return null;
  if (typeof body.detail === "string") return body.detail;
  for (const value of Object.values(body)) {
    if (typeof value === "string") return value;
    if (Array.isArray(value) && typeof value[0] === "string") return value[0];
  }
  return null;
}

/** A same-origin request; an unreachable server is an ApiError of status 0. */
async function send(url, options) {
  try {
    return await fetch(url, { credentials: "same-origin", ...options });
  } catch (networkError) {
    throw new ApiError(0, "network", gettext("The server cannot be reached. Check your connection."));
  }
}

function refusal(response, data) {
  const retryAfter = Number(response.headers.get("Retry-After")) || null;
  const detail = firstMessage(data)
    || format(gettext("The server answered %(status)s."), { status: response.status });
  return new ApiError(response.status, (data && data.error) || `http_${response.status}`, detail, retryAfter);
}

/** A call to the site's API at `url` (the session's CSRF token on writes); its JSON. `keepalive`
 * lets the request outlive the page (a click that navigates away). */
export async function call(method, url, body, { keepalive = false } = {}) {
  const options = { method, keepalive, headers: { Accept: "application/json" } };
  if (method !== "GET") {
    options.headers["Content-Type"] = "application/json";
    options.headers["X-CSRFToken"] = csrfToken();
    options.body = JSON.stringify(body || {});
  }
  const response = await send(url, options);
  let data = null;
  try {
    data = await response.json();
  } catch (parseError) {
    data = null;
  }
  if (!response.ok) throw refusal(response, data);
  return data;
}

/** A page of the site read again (all of it, or a part the server draws alone); its text. */
export async function page(url, { headers = {} } = {}) {
  const response = await send(url, { headers: { Accept: "text/html", ...headers } });
  if (!response.ok) throw refusal(response, null);
  return response.text();
}
