/* Sumito: the chat panel of the live game page.
 *
 * The two players talk in the players' room; any other logged-in visitor in the spectators'
 * room (games.services.chat: the players do not read it during their game). The room's lines
 * come from GET chat/ and then live over the game's socket ({"type": "chat", "game": id,
 * "message": line}); the socket may also carry lines of another room or game (a player's tabs
 * share their notification group), which this panel leaves out. The room is read again each
 * time the socket is live: a line written before it joined, or while it was away, came on no
 * socket. Lines are drawn as text only: a link in a message is never clickable. A player may
 * mute the opponent (POST chat/mute/).
 */
import { gettext, interpolate } from "sumito/i18n.js";
import { game } from "sumito/game/main.js";

function start() {
  const $ = (id) => document.getElementById(id);
  const list = $("chat-lines");
  const form = $("chat-form");
  const input = $("chat-input");
  const errorLine = $("chat-error");
  const offNote = $("chat-off");
  const muteButton = $("chat-mute");
  if (!game || !list || !form) return;

  const room = game.myColour ? "players" : "spectators";
  const me = $("game").dataset.username;
  const shown = new Set(); // ids of the lines drawn
  let muted = false;
  let sending = false;

  function setError(message) {
    errorLine.textContent = message || "";
    errorLine.hidden = !message;
  }

  function errorText(error) {
    if (error.status === 429 && error.retryAfter && !/\d+\s*s\b/.test(error.message)) {
      return `${error.message} ${interpolate(gettext("Try again in %(seconds)s s."), { seconds: error.retryAfter }, true)}`;
    }
    return error.message || String(error);
  }

  function nearBottom() {
    return list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  }

  function timeOf(iso) {
    const at = new Date(iso);
    if (Number.isNaN(at.getTime())) return "";
    return at.toLocaleTimeString(document.documentElement.lang || [], { hour: "2-digit", minute: "2-digit" });
  }

  function showEmpty() {
    const empty = list.querySelector(".empty");
    if (shown.size && empty) empty.remove();
    if (!shown.size && !empty) {
      const item = document.createElement("li");
      item.className = "empty muted";
      item.textContent = gettext("No messages yet.");
      list.appendChild(item);
    }
  }

  /** Draw a line once, in id order (a live line can overtake the room's first read). */
  function add(line, { scroll = false } = {}) {
    if (!line || typeof line.id !== "number" || shown.has(line.id) || line.room !== room) return;
    const follow = scroll || nearBottom();
    shown.add(line.id);
    const item = document.createElement("li");
    item.className = "chat-line";
    item.dataset.id = String(line.id);
    if (line.user === me) item.classList.add("mine");
    const author = document.createElement("span");
    author.className = "chat-user";
    author.textContent = line.user;
    const text = document.createElement("span");
    text.className = "chat-text";
    text.textContent = line.text; // text only: markup and links are shown as typed
    const time = document.createElement("time");
    time.className = "chat-time";
    time.dateTime = line.created;
    time.textContent = timeOf(line.created);
    item.append(author, text, time);
    const later = [...list.querySelectorAll(".chat-line")].find((other) => Number(other.dataset.id) > line.id);
    list.insertBefore(item, later || null);
    showEmpty();
    if (follow) list.scrollTop = list.scrollHeight;
  }

  function showMute() {
    if (!muteButton) return;
    muteButton.textContent = muted ? gettext("Unmute opponent") : gettext("Mute opponent");
    muteButton.setAttribute("aria-pressed", String(muted));
    muteButton.title = muted ? gettext("Your opponent cannot write to you: let them")
      : gettext("Stop your opponent writing to you");
  }

  /** Read the room. `again`: a later read (the socket is live), for the lines only: it leaves
   * the panel as it is when it fails, and the mute button to this page's own clicks. */
  async function load({ again = false } = {}) {
    try {
      const answer = await game.api("GET", `${game.gameApi}chat/?room=${room}`);
      for (const line of answer.results || []) add(line);
      if (again) return;
      list.scrollTop = list.scrollHeight;
      muted = Boolean(answer.muted);
      offNote.hidden = answer.enabled !== false;
      form.hidden = answer.enabled === false;
      if (muteButton) {
        muteButton.hidden = answer.enabled === false;
        showMute();
      }
    } catch (error) {
      if (again) return;
      form.hidden = true;
      setError(errorText(error));
    }
    showEmpty();
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text || sending) return;
    sending = true;
    setError("");
    try {
      add(await game.api("POST", `${game.gameApi}chat/`, { room, text }), { scroll: true });
      input.value = "";
    } catch (error) {
      setError(errorText(error));
      if (error.code === "chat_off") {
        form.hidden = true;
        offNote.hidden = false;
      }
    } finally {
      sending = false;
      input.focus();
    }
  });

  input.addEventListener("input", () => {
    if (errorLine.textContent) setError("");
  });

  if (muteButton) {
    muteButton.addEventListener("click", async () => {
      muteButton.disabled = true;
      try {
        const answer = await game.api("POST", `${game.gameApi}chat/mute/`, { mute: !muted });
        muted = Boolean(answer.muted);
        showMute();
      } catch (error) {
        setError(errorText(error));
      } finally {
        muteButton.disabled = false;
      }
    });
  }

  game.onMessage((message) => {
    if (message.type === "chat" && message.game === game.state().id) add(message.message);
  });
  // Lines written before the socket joined (or while it was away) came on no socket: read the
  // room again each time it is live; lines drawn already are not drawn twice.
  game.onLive(() => load({ again: true }));

  setError("");
  load();
}

start();
