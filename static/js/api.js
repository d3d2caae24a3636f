/* Sumito: the one way the pages call the site's API. Plain ES2019, no build step.
 *
 * Loaded by base.html on every page, after the JavaScript catalog (/jsi18n/) and before the
 * page's own scripts, as window.SumitoApi:
 *   call(method, url, body)  the JSON answer, or throws an ApiError;
 *   ApiError                 .status (0: unreachable), .code (the API's "error", else http_<n>),
 *                            .message (the API's "detail", translated by the server),
 *                            .retryAfter (seconds, from a 429's Retry-After);
 *   csrfToken()              the session's CSRF token (cookie, else the page's form field).
 */
(() => {
  "use strict";

  const format = (text, values) => interpolate(text, values, true);

  function csrfToken() {
    const cookie = document.cookie.split(";").map((part) => part.trim())
      .find((part) => part.startsWith("csrftoken="));
    if (cookie) return decodeURIComponent(cookie.slice("csrftoken=".length));
    const field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  class ApiError extends Error {
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

  /** A call to the site's API at `url` (same origin, the session's CSRF token); its JSON. */
  async function call(method, url, body) {
    const options = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
    if (method !== "GET") {
      options.headers["Content-Type"] = "application/json";
      options.headers["X-CSRFToken"] = csrfToken();
      options.body = JSON.stringify(body || {});
    }
    let response;
    try {
      response = await fetch(url, options);
    } catch (networkError) {
      throw new ApiError(0, "network", gettext("The server cannot be reached. Check your connection."));
    }
    let data = null;
    try {
      data = await response.json();
    } catch (parseError) {
      data = null;
    }
    if (!response.ok) {
      const retryAfter = Number(response.headers.get("Retry-After")) || null;
      const detail = firstMessage(data)
        || format(gettext("The server answered %(status)s."), { status: response.status });
      throw new ApiError(response.status, (data && data.error) || `http_${response.status}`, detail, retryAfter);
    }
    return data;
  }

  window.SumitoApi = { call, ApiError, csrfToken };
})();
