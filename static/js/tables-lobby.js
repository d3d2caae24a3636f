/* Sumito: the lobby of tables for three and four players (/tables/).
 *
 * The list of open and live tables is read from GET /api/v1/tables/ whenever the lobby's socket
 * (/ws/tables/) says a table changed, or every few seconds while it is closed, and drawn again
 * when it changed; "Join" takes a seat (POST .../join/) and opens the table. The form
 * creates a table (POST /api/v1/tables/) and opens it; the server's error, if any, is shown as
 * it answered (its "detail" names the problem).
 */
import { call as api } from "sumito/api.js";
import { format, gettext, ngettext, pgettext } from "sumito/i18n.js";
import { openSocket } from "sumito/socket.js";

const API = "/api/v1/tables/";
const REFRESH_MS = 3000;
const COLOUR_NAME = { b: gettext("Black"), w: gettext("White"), r: gettext("Red"), g: gettext("Green") };

const $ = (id) => document.getElementById(id);
const root = $("tables-lobby");
const myUserId = root && root.dataset.userId ? Number(root.dataset.userId) : null;
let shownSignature = null;

// --- the list ----------------------------------------------------------------------------------

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function seatChip(seat) {
  const chip = element("span", `seat-chip${seat.user ? "" : " empty"}`);
  chip.dataset.colour = seat.colour;
  const swatch = element("span", "swatch");
  swatch.dataset.colour = seat.colour;
  swatch.setAttribute("aria-hidden", "true");
  chip.append(swatch, seat.user ? seat.user.username
    : format(gettext("open (%(colour)s)"), { colour: COLOUR_NAME[seat.colour] || seat.colour }));
  return chip;
}

function actionFor(table) {
  const seated = myUserId !== null && table.seats.some((seat) => seat.user && seat.user.id === myUserId);
  if (table.status === "open" && myUserId !== null && !seated) {
    const join = element("button", "small", gettext("Join"));
    join.type = "button";
    join.dataset.join = String(table.id);
    join.setAttribute("aria-label", format(gettext("Join table %(id)s"), { id: table.id }));
    const watch = element("a", "button small secondary", gettext("Watch"));
    watch.href = table.url;
    return [join, " ", watch];
  }
  const link = element("a", "button small secondary", seated ? pgettext("open the table", "Open") : gettext("Watch"));
  link.href = table.url;
  return [link];
}

// English says "open" for one seat and for more; other languages do not.
const waitingText = (open) => format(ngettext("waiting · %(open)s open", "waiting · %(open)s open", open), { open });

function row(table) {
  const tr = element("tr");
  tr.dataset.table = String(table.id);
  tr.dataset.status = table.status;
  const seats = element("span", "seat-chips");
  seats.append(...table.seats.map(seatChip));
  const cells = [
    seats,
    table.base_seconds === null ? gettext("no clock") : table.time_control,
    String(table.marbles_to_win),
    table.rated ? gettext("rated") : gettext("casual"),
    table.status === "open"
      ? waitingText(table.seats.filter((seat) => !seat.user).length)
      : format(gettext("playing · move %(ply)s"), { ply: table.ply }),
  ];
  for (const content of cells) {
    const td = element("td");
    td.append(content);
    tr.appendChild(td);
  }
  const actions = element("td", "actions");
  actions.append(...actionFor(table));
  tr.appendChild(actions);
  return tr;
}

/** What the list shows of the tables: redrawn only when this changes (a button under the
 * pointer is not replaced for nothing). */
function signature(tables) {
  return JSON.stringify(tables.map((table) => [table.id, table.status, table.ply,
    table.seats.map((seat) => (seat.user ? seat.user.id : null))]));
}

function draw(tables) {
  const next = signature(tables);
  if (next === shownSignature) return;
  shownSignature = next;
  const body = $("tables");
  if (!tables.length) {
    const empty = element("tr", "empty");
    const td = element("td", "muted", gettext("No tables yet. Create one!"));
    td.colSpan = 6;
    empty.appendChild(td);
    body.replaceChildren(empty);
    return;
  }
  body.replaceChildren(...tables.map(row));
}

async function refresh() {
  try {
    const data = await api("GET", API);
    draw(data.tables || []);
    $("tables-error").textContent = "";
  } catch (error) {
    $("tables-error").textContent = error.message;
  }
}

async function join(event) {
  const button = event.target.closest("button[data-join]");
  if (!button) return;
  button.disabled = true;
  try {
    const table = await api("POST", `${API}${button.dataset.join}/join/`, {});
    window.location.assign(table.url);
  } catch (error) {
    $("tables-error").textContent = error.message;
    button.disabled = false;
    refresh();
  }
}

// --- the form ------------------------------------------------------------------------------------

function bindForm(form) {
  const players = () => Number(form.querySelector("input[name=players]:checked").value);
  const syncFields = () => {
    const useClock = $("use-clock").checked;
    $("clock-fields").hidden = !useClock;
    $("base-minutes").disabled = !useClock;
    $("increment-seconds").disabled = !useClock;
    const green = $("colour").querySelector("option[value=g]");
    green.disabled = players() !== 4;
    if (green.disabled && $("colour").value === "g") $("colour").value = "random";
    $("start-position").disabled = $("placement").checked; // placement starts from an empty board
  };
  form.addEventListener("change", syncFields);
  syncFields();

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const errors = $("create-error");
    errors.textContent = "";
    const useClock = $("use-clock").checked;
    const minutes = Number($("base-minutes").value);
    const increment = Number($("increment-seconds").value);
    const marbles = Number($("marbles-to-win").value);
    if (useClock && !(minutes >= 0.25 && minutes <= 180)) {
      errors.textContent = gettext("Minutes each: between 0.25 and 180.");
      $("base-minutes").focus();
      return;
    }
    if (useClock && !(Number.isInteger(increment) && increment >= 0 && increment <= 60)) {
      errors.textContent = gettext("Increment: a whole number of seconds from 0 to 60.");
      $("increment-seconds").focus();
      return;
    }
    if (!(Number.isInteger(marbles) && marbles >= 1 && marbles <= 6)) {
      errors.textContent = gettext("Marbles to win: a whole number from 1 to 6.");
      $("marbles-to-win").focus();
      return;
    }
    const body = {
      players: players(),
      base_seconds: useClock ? Math.round(minutes * 60) : null,
      increment_seconds: useClock ? increment : 0,
      marbles_to_win: marbles,
      rated: $("rated").checked,
      placement: $("placement").checked,
      colour: $("colour").value,
    };
    const start = $("start-position").value.trim();
    if (start && !body.placement) body.start = start;
    $("create-submit").disabled = true;
    try {
      const table = await api("POST", API, body);
      window.location.assign(table.url);
    } catch (error) {
      errors.textContent = error.message;
      $("create-submit").disabled = false;
    }
  });
}

// The lobby's socket says when a table opens, fills, starts or ends (and, once open, anything
// that changed before it listened); without it, the list is read every few seconds.
function start() {
  $("tables").addEventListener("click", join);
  const form = $("create-table");
  if (form) bindForm(form);
  refresh();
  const socket = openSocket("/ws/tables/", {
    onMessage: refresh,
    onStatus: ({ state }) => {
      if (state === "live") refresh();
    },
    baseDelay: 1000,
    maxDelay: 30000,
  });
  window.setInterval(() => {
    if (!socket.live()) refresh();
  }, REFRESH_MS);
}

if (root) start();
