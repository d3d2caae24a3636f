/* Sumito: "Rematch" and "New opponent" on a finished game's page.
 *
 * For the two players once the game is over. "Rematch" asks the server for one (POST
 * rematch/: a challenge to the other player, same settings, colours swapped; when the other
 * had already offered, that accepts theirs and the answer names the new game). The other
 * player learns of an offer live (the challenge_received notification on the game's socket,
 * subjects.rematch_of = this game) or on loading the page (GET rematch/), and accepts in one
 * click: both pages then go to the new game (the offerer's on its challenge_accepted
 * notification). A tournament's game has no rematch (the server answers 409 tournament_game).
 */
import { gettext, interpolate } from "sumito/i18n.js";
import { game } from "sumito/game/main.js";

function start() {
  const root = document.getElementById("game");
  const $ = (id) => document.getElementById(id);
  // A game against the computer: "Play again" (a link to the computer's page, set for the same
  // game with colours swapped) once the game is over, no rematch offer.
  const again = $("play-again");
  if (game && again) {
    const showAgain = () => { again.hidden = game.state().status === "started"; };
    game.onState(showAgain);
    showAgain();
    return;
  }
  const box = $("rematch");
  if (!game || !game.myColour || !box) return;

  const me = root.dataset.username;
  const tournament = root.dataset.tournament === "1";
  const offerButton = $("rematch-offer");
  const rows = { start: $("rematch-start"), sent: $("rematch-sent"), received: $("rematch-received") };
  const noteLine = $("rematch-note");
  const CHALLENGES = "/api/v1/challenges/";

  let offer = null; // the open offer: { id, mine, from }
  let busy = false;
  let loaded = false;

  const over = () => game.state().status !== "started";
  const gameUrl = (id) => `/games/${id}/`;

  function render() {
    box.hidden = !over();
    rows.start.hidden = Boolean(offer);
    offerButton.hidden = tournament;
    rows.sent.hidden = !(offer && offer.mine);
    rows.received.hidden = !(offer && !offer.mine);
    if (offer && !offer.mine) $("rematch-received-text").textContent = interpolate(gettext("%(from)s offers a rematch"), { from: offer.from }, true);
    for (const button of box.querySelectorAll("button")) button.disabled = busy;
  }

  function setNote(message) {
    noteLine.textContent = message || "";
    noteLine.hidden = !message;
  }

  function go(url) {
    window.location.assign(url);
  }

  function fromChallenge(challenge) {
    if (!challenge || challenge.status !== "open") return null;
    const mine = challenge.challenger && challenge.challenger.username === me;
    return { id: challenge.id, mine, from: challenge.challenger ? challenge.challenger.username : "" };
  }

  async function load() {
    if (loaded || !over()) return;
    loaded = true;
    try {
      const answer = await game.api("GET", `${game.gameApi}rematch/`);
      if (!offer) offer = fromChallenge(answer && answer.offer);
    } catch (error) {
      /* no offer shown: asking still works */
    }
    render();
  }

  async function act(work) {
    if (busy) return;
    busy = true;
    setNote("");
    render();
    try {
      await work();
    } catch (error) {
      if (error.code === "tournament_game") {
        offerButton.hidden = true;
        setNote(gettext("A tournament game has no rematch."));
      } else {
        setNote(error.message || String(error));
      }
      if (error.status === 409 || error.status === 404) {
        loaded = false; // the offer changed meanwhile (cancelled, expired, taken): read it again
        offer = null;
        busy = false;
        await load();
      }
    } finally {
      busy = false;
      render();
    }
  }

  offerButton.addEventListener("click", () => act(async () => {
    const challenge = await game.api("POST", `${game.gameApi}rematch/`);
    if (challenge.game) {
      go(gameUrl(challenge.game)); // they had offered one: this accepted it
      return;
    }
    offer = fromChallenge(challenge);
  }));

  $("rematch-cancel").addEventListener("click", () => act(async () => {
    if (!offer) return;
    await game.api("DELETE", `${CHALLENGES}${offer.id}/`);
    offer = null;
  }));

  $("rematch-accept").addEventListener("click", () => act(async () => {
    if (!offer) return;
    const next = await game.api("POST", `${CHALLENGES}${offer.id}/accept/`);
    go(next.url || gameUrl(next.id));
  }));

  $("rematch-decline").addEventListener("click", () => act(async () => {
    if (!offer) return;
    await game.api("POST", `${CHALLENGES}${offer.id}/decline/`);
    offer = null;
  }));

  game.onMessage((message) => {
    if (message.type !== "notification" || !message.notification) return;
    const kind = message.notification.kind;
    const subjects = message.notification.subjects || {};
    if (kind === "challenge_received" && subjects.rematch_of === game.state().id) {
      offer = { id: subjects.challenge, mine: false, from: subjects.from };
      setNote("");
      render();
    } else if (offer && offer.mine && subjects.challenge === offer.id) {
      if (kind === "challenge_accepted" && subjects.game) go(gameUrl(subjects.game));
      else if (kind === "challenge_declined") {
        offer = null;
        setNote(subjects.by ? interpolate(gettext("%(by)s declined the rematch."), { by: subjects.by }, true)
          : gettext("Your opponent declined the rematch."));
        render();
      }
    }
  });

  game.onState(() => {
    render();
    load();
  });

  render();
  load();
}

start();
