/* Sumito: the board editor of a custom start (the lobby's challenge form, the tournament form);
 * draws with board.js.
 *
 * Every <textarea data-board-editor="<id of the start select>"> gets a board under it. The text
 * and the editor are shown while the select says "custom". A click on a cell (or Enter/Space)
 * cycles it empty -> black -> white -> empty; the side to move is a choice of its own; every
 * change writes the position string ("b|a1,a2|i9": side to move, Black's cells, White's cells,
 * in (row, digit) order) into the text, and a string typed or pasted into the text is drawn
 * back on the board. The marble counts are shown as they change. The server checks the
 * position again when the form is sent (games.options.custom_start): this page only helps.
 */
import { COLOUR_NAME, create } from "sumito/board.js";
import { format, gettext } from "sumito/i18n.js";

const MARBLES_PER_SIDE = 14;
const NEXT = { "": "b", b: "w", w: "" };
const MARBLE_NAME = { b: gettext("black marble"), w: gettext("white marble") };
const LAYOUT_NAME = {
  empty: gettext("Empty"), standard: gettext("Standard"), belgian: gettext("Belgian"), german: gettext("German"),
};

function element(tag, attributes = {}, text = "") {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text) node.textContent = text;
  return node;
}

/** A position string read into { side, cells: Map(cell -> "b"/"w") }, or { error }. */
function parse(text, board) {
  const parts = text.trim().split("|");
  if (parts.length !== 3) {
    return { error: gettext("A position string has three parts separated by |: side to move, Black's cells, White's cells.") };
  }
  const side = parts[0].trim().toLowerCase();
  if (side !== "b" && side !== "w") return { error: format(gettext("The side to move is b or w, not “%(side)s”."), { side: parts[0].trim() }) };
  const cells = new Map();
  for (const [index, colour] of [[1, "b"], [2, "w"]]) {
    const names = parts[index].split(",").map((name) => name.trim().toLowerCase()).filter(Boolean);
    for (const name of names) {
      if (!board.cells.has(name)) return { error: format(gettext("%(colour)s: “%(name)s” is not a cell."), { colour: COLOUR_NAME[colour], name }) };
      if (cells.has(name)) {
        return { error: cells.get(name) === colour
          ? format(gettext("%(colour)s: %(name)s is listed twice."), { colour: COLOUR_NAME[colour], name })
          : format(gettext("%(name)s holds both a black and a white marble."), { name }) };
      }
      cells.set(name, colour);
    }
  }
  return { side, cells };
}

function attach(textarea) {
  const select = document.getElementById(textarea.dataset.boardEditor);
  if (!select) return;
  const field = textarea.closest(".field") || textarea.parentElement;
  const presets = JSON.parse(textarea.dataset.presets || "{}");

  const editor = element("div", { class: "board-editor", role: "group", "aria-label": gettext("Board editor") });
  const boardBox = element("div", { class: "board board-editor-board" });
  const tools = element("div", { class: "board-editor-tools" });
  const sides = element("fieldset", { class: "board-editor-side" });
  sides.appendChild(element("legend", {}, gettext("Side to move")));
  const sideInputs = {};
  for (const colour of ["b", "w"]) {
    const label = element("label");
    const input = element("input", { type: "radio", name: `${textarea.id}-side`, value: colour });
    sideInputs[colour] = input;
    label.append(input, ` ${COLOUR_NAME[colour]}`);
    sides.appendChild(label);
  }
  const counts = element("p", { class: "board-editor-counts", "aria-live": "polite" });
  const starts = element("div", { class: "board-editor-starts" });
  starts.appendChild(element("span", { class: "muted" }, gettext("Start from:")));
  const layouts = { empty: "b||", ...presets };
  for (const name of Object.keys(layouts)) {
    const button = element("button", { type: "button", class: "small secondary", "data-layout": name },
      LAYOUT_NAME[name] || name[0].toUpperCase() + name.slice(1));
    button.addEventListener("click", () => {
      const layout = parse(layouts[name], board);
      setState(layout.side, layout.cells);
    });
    starts.appendChild(button);
  }
  const note = element("p", { class: "board-editor-note", role: "status" });
  tools.append(sides, counts, starts, note,
    element("p", { class: "muted board-editor-help" },
      gettext("Click a cell: empty → black → white → empty.")));
  editor.append(boardBox, tools);
  textarea.insertAdjacentElement("afterend", editor);
  const board = create(boardBox);

  let side = "b";
  let cells = new Map();

  function positionString() {
    const black = [];
    const white = [];
    for (const name of board.cells.keys()) { // (row, digit) order
      if (cells.get(name) === "b") black.push(name);
      else if (cells.get(name) === "w") white.push(name);
    }
    return `${side}|${black.join(",")}|${white.join(",")}`;
  }

  function draw() {
    board.setPosition(positionString());
    for (const [name, group] of board.cells) {
      group.setAttribute("role", "button");
      group.setAttribute("tabindex", "0");
      const owner = cells.get(name);
      group.setAttribute("aria-label", `${name}, ${owner ? MARBLE_NAME[owner] : gettext("empty")}`);
    }
    sideInputs[side].checked = true;
    const black = [...cells.values()].filter((colour) => colour === "b").length;
    const white = cells.size - black;
    counts.replaceChildren();
    for (const [colour, count] of [["b", black], ["w", white]]) {
      const part = element("span", { class: `count ${colour}`, "data-count": String(count) },
        `${COLOUR_NAME[colour]} ${count}`);
      if (count > MARBLES_PER_SIDE) {
        part.classList.add("over");
        part.title = format(gettext("at most %(count)s"), { count: MARBLES_PER_SIDE });
      }
      counts.appendChild(part);
    }
    counts.append(` · ${format(gettext("%(colour)s to move"), { colour: COLOUR_NAME[side] })}`);
  }

  /** A new layout from the editor: drawn, and written into the text. */
  function setState(nextSide, nextCells) {
    side = nextSide;
    cells = nextCells;
    textarea.value = positionString();
    note.textContent = "";
    note.classList.remove("error");
    draw();
    textarea.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function readText() {
    if (!textarea.value.trim()) {
      side = "b";
      cells = new Map();
      note.textContent = "";
      note.classList.remove("error");
      draw();
      return;
    }
    const read = parse(textarea.value, board);
    if (read.error) {
      note.textContent = format(gettext("Not drawn: %(error)s"), { error: read.error });
      note.classList.add("error");
      return;
    }
    note.textContent = "";
    note.classList.remove("error");
    side = read.side;
    cells = read.cells;
    draw();
  }

  function cycle(name) {
    const next = new Map(cells);
    const colour = NEXT[cells.get(name) || ""];
    if (colour) next.set(name, colour);
    else next.delete(name);
    setState(side, next);
  }

  board.svg.addEventListener("click", (event) => {
    const cell = event.target.closest("[data-cell]");
    if (cell) cycle(cell.dataset.cell);
  });
  board.svg.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const cell = event.target.closest("[data-cell]");
    if (!cell) return;
    event.preventDefault();
    cycle(cell.dataset.cell);
  });
  for (const colour of ["b", "w"]) {
    sideInputs[colour].addEventListener("change", () => {
      if (sideInputs[colour].checked) setState(colour, cells);
    });
  }
  textarea.addEventListener("input", readText);

  function showWhenCustom() {
    field.hidden = select.value !== "custom";
  }
  select.addEventListener("change", showWhenCustom);
  showWhenCustom();
  readText();
}

for (const textarea of document.querySelectorAll("textarea[data-board-editor]")) attach(textarea);
