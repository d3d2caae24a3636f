/* Sumito, the live game page: a player's buttons (resign, abort, draws) and the move form. */
import { COLOUR_NAME } from "sumito/board.js";
import { format, gettext } from "sumito/i18n.js";
import { play } from "sumito/game/input.js";
import { render } from "sumito/game/render.js";
import { post, setStatus, showError } from "sumito/game/server.js";
import { applyState, current, isBusy, myTurn, onState, page, setBusy } from "sumito/game/state.js";

const $ = (id) => document.getElementById(id);

export function renderActions() {
  const { myColour } = page;
  if (!myColour) return;
  const state = current();
  const busy = isBusy();
  const active = state.status === "started";
  const opponent = myColour === "b" ? "w" : "b";
  const bothMoved = state.version >= 2;
  const show = (id, visible) => {
    $(id).hidden = !visible;
    $(id).disabled = busy;
  };
  show("resign", active && bothMoved);
  show("abort", active && !bothMoved && !page.tournament);  // a tournament game has no abort
  show("draw-offer", active && bothMoved && !state.draw_offer);
  show("draw-accept", active && state.draw_offer === opponent);
  show("draw-decline", active && state.draw_offer === opponent);
  const info = $("draw-info");
  info.hidden = !(active && state.draw_offer);
  info.textContent = state.draw_offer === myColour ? gettext("You offered a draw.")
    : state.draw_offer ? format(gettext("%(colour)s offers a draw."), { colour: COLOUR_NAME[opponent] }) : "";
  $("move-form").hidden = !active;
  $("move-input").disabled = !myTurn();
  $("move-submit").disabled = !myTurn() || busy;
}

export function bindActions() {
  if (!page.myColour) return;
  const action = (id, path, question) => {
    $(id).addEventListener("click", async () => {
      if (question && !window.confirm(question)) return;
      setBusy(true);
      renderActions();
      try {
        applyState(await post(path));
        setStatus("");
      } catch (error) {
        showError(error);
      } finally {
        setBusy(false);
        render();
      }
    });
  };
  action("resign", "resign/", gettext("Resign this game?"));
  action("abort", "abort/", gettext("Abort this game?"));
  action("draw-offer", "draw-offer/");
  action("draw-accept", "draw-accept/");
  action("draw-decline", "draw-decline/");
  // The opponent declined my offer (it went away with no move and the game goes on): say so.
  onState((state, previous) => {
    const declined = previous.draw_offer === page.myColour && !state.draw_offer
      && state.status === "started" && state.version === previous.version;
    if (declined) setStatus(gettext("Your draw offer was declined."));
  });
  $("move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("move-input");
    const notation = input.value.trim().toLowerCase().replace(/[\s,-]/g, "");
    if (!notation || !myTurn() || isBusy()) return;
    play(notation).then(() => {
      if (!$("status").classList.contains("error")) input.value = "";
    });
  });
}
