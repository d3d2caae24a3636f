/* Sumito: conditional moves on the analysis board of one's own correspondence game (#conditional;
 * docs/correspondence.md). The player plays, from the game's last position, their opponent's
 * move and their answer (and more pairs), and saves the line; the server keeps the lines and
 * plays the answer when the opponent plays a move foreseen (PUT /api/v1/games/<id>/conditional/,
 * the whole set each time, checked there: the server is the one to refuse).
 *
 * `createConditional({ section, start, triedLine })`: `start` is the document the page was given
 * ({ ply, lines, can_set }); `triedLine()` the moves tried after the game's last move on the
 * path shown (null when the position shown is not after it). `update()` after each move shown.
 */
import { call } from "sumito/api.js";
import { format, gettext } from "sumito/i18n.js";
import { element } from "sumito/analysis/lines.js";

const $ = (id) => document.getElementById(id);

export function createConditional({ section, start, triedLine }) {
  let doc = start;
  let busy = false;

  function describe(line) {
    const pairs = [];
    for (let index = 0; index + 1 < line.length; index += 2) {
      pairs.push(format(gettext("if %(theirs)s, %(mine)s"), { theirs: line[index], mine: line[index + 1] }));
    }
    return pairs.join("; ");
  }

  function setStatus(text, isError = false) {
    $("conditional-status").textContent = text;
    $("conditional-status").classList.toggle("error", Boolean(text) && isError);
  }

  async function save(lines, done) {
    if (busy) return;
    busy = true;
    update();
    try {
      doc = await call("PUT", section.dataset.url, { ply: doc.ply, lines });
      setStatus(done);
    } catch (error) {
      setStatus(error.message, true);
    } finally {
      busy = false;
      render();
    }
  }

  function render() {
    const list = $("conditional-lines");
    list.replaceChildren();
    doc.lines.forEach((line, index) => {
      const item = element("li", { class: "conditional-line", "data-line": line.join(",") });
      item.appendChild(element("span", {}, describe(line)));
      const remove = element("button", { type: "button", class: "small secondary conditional-remove" }, gettext("Delete"));
      remove.setAttribute("aria-label", format(gettext("Delete line %(number)s"), { number: index + 1 }));
      remove.disabled = busy || !doc.can_set;
      remove.addEventListener("click", () => save(doc.lines.filter((_, other) => other !== index), gettext("Line deleted.")));
      item.appendChild(document.createTextNode(" "));
      item.appendChild(remove);
      list.appendChild(item);
    });
    $("conditional-empty").hidden = doc.lines.length > 0;
    $("conditional-clear").hidden = !doc.lines.length;
    $("conditional-clear").disabled = busy || !doc.can_set;
    update();
  }

  /** The save button: on for a line of whole pairs (their move, my answer) after the game's end. */
  function update() {
    const line = triedLine();
    const button = $("conditional-save");
    const whole = Boolean(line && line.length && line.length % 2 === 0);
    button.disabled = busy || !doc.can_set || !whole;
    button.title = whole || !doc.can_set ? "" : gettext("Play your opponent's move and your answer from the game's last position.");
  }

  $("conditional-save").addEventListener("click", () => {
    const line = triedLine();
    if (line) save([...doc.lines, line], gettext("Line saved: your answer will be played at once."));
  });
  $("conditional-clear").addEventListener("click", () => save([], gettext("Conditional moves deleted.")));
  render();
  return { update };
}
