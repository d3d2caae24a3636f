/* Sumito, a table's page: talking to the server over HTTP, and the status line. */
import { call } from "sumito/api.js";
import { render } from "sumito/table/render.js";
import { apply, current, page, setBusy } from "sumito/table/state.js";

// The refusals that say the page is behind: it reads the table again.
const BEHIND = ["stale_ply", "not_your_turn", "game_over", "time_out", "not_started", "table_full",
  "seat_taken", "not_open", "already_seated"];

const request = (method, path, body) => call(method, page.apiBase + path, body);

export async function refresh() {
  try {
    apply(await request("GET", ""));
  } catch (error) {
    if (error.code !== "network") setStatus(error.message, true);
  }
}

/** A write (a move, join, leave, resign): the answer is the new table. */
export async function act(path, body) {
  setBusy(true);
  setStatus("");
  render();
  try {
    apply(await request("POST", path, body));
    return true;
  } catch (error) {
    setStatus(error.message, true);
    if (BEHIND.includes(error.code)) refresh();
    return false;
  } finally {
    setBusy(false);
    render();
  }
}

export const play = (notation) => act("moves/", { move: notation, ply: current().ply });

export function setStatus(text, isError = false) {
  const status = document.getElementById("status");
  status.textContent = text;
  status.classList.toggle("error", Boolean(text) && isError);
}
