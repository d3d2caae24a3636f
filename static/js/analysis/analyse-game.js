/* Sumito: the replay page's "Analyse this game" button (#analyse-game): asks for the analysis of
 * the finished game and opens its result page. */
import { call } from "sumito/api.js";
import { gettext } from "sumito/i18n.js";

function start(button) {
  const note = document.getElementById("analyse-game-status");
  button.addEventListener("click", async () => {
    button.disabled = true;
    note.classList.remove("error");
    note.textContent = gettext("Asking for an analysis…");
    try {
      const doc = await call("POST", button.dataset.api, { game: Number(button.dataset.game) });
      window.location.assign(doc.url);
    } catch (error) {
      note.textContent = error.message;
      note.classList.add("error");
      button.disabled = false;
    }
  });
}

const button = document.getElementById("analyse-game");
if (button) start(button);
