/* Sumito: players suggested as you type a name.
 *
 * Every text field marked `data-player-suggest` (the archive's player and opponent, the
 * head-to-head on a player's page, the challenge form's opponent) gets a list of the players
 * whose username or display name holds what was typed (GET /api/v1/players/?search=), shown by
 * the browser under the field (a <datalist>); choosing one puts its username in the field.
 * Looked up after a short pause in typing, from two letters on; an answer that comes back after a
 * newer one was asked for is dropped.
 */
import { call } from "sumito/api.js";

const PAUSE_MS = 200;
const SHOWN = 8;

function attach(input, index) {
  const list = document.createElement("datalist");
  list.id = `player-suggestions-${index}`;
  input.after(list);
  input.setAttribute("list", list.id);
  input.setAttribute("autocomplete", "off");
  let timer = null;
  let asked = 0;

  async function lookUp(text) {
    const ask = ++asked;
    let answer;
    try {
      answer = await call("GET", `/api/v1/players/?search=${encodeURIComponent(text)}&limit=${SHOWN}`);
    } catch (error) {
      return; // offline for a moment: the next keystroke asks again
    }
    if (ask !== asked || !answer) return;
    list.replaceChildren(
      ...answer.results.map((player) => {
        const option = document.createElement("option");
        option.value = player.username;
        if (player.display_name && player.display_name !== player.username) {
          option.label = player.display_name;
        }
        return option;
      }),
    );
  }

  input.addEventListener("input", () => {
    window.clearTimeout(timer);
    const text = input.value.trim();
    if (text.length < 2) {
      asked++;
      list.replaceChildren();
      return;
    }
    timer = window.setTimeout(() => lookUp(text), PAUSE_MS);
  });
}

document.querySelectorAll("input[data-player-suggest]").forEach(attach);
