/* Sumito, the live game page: talking to the server over HTTP, and the status line. */
import { call } from "sumito/api.js";
import { applyState, page } from "sumito/game/state.js";

/** A call to this game's API (`path` under its base URL). */
export const request = (method, path, body) => call(method, page.apiBase + path, body);

export const post = (path, body) => request("POST", path, body);

/** Read the state again (a missed event, a passed deadline, the tab shown again). */
export async function refresh() {
  try {
    applyState(await request("GET", ""));
  } catch (error) {
    showError(error);
  }
}

/** A refusal in the status line; one that says the page is behind reads the state again. */
export function showError(error) {
  setStatus(error.message || String(error), true);
  if (["stale_ply", "not_your_turn", "game_over", "time_out", "no_answer", "unavailable"].includes(error.code)) refresh();
}

export function setStatus(text, isError = false) {
  const status = document.getElementById("status");
  status.textContent = text;
  status.classList.toggle("error", Boolean(text) && isError);
}
