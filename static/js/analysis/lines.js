/* Sumito, the analysis pages: scores and the table of a search's lines (the board page and an
 * analysis's result page). */
import { format, gettext } from "sumito/i18n.js";

const MARBLE = 1000; // evaluation units of one marble (games.engine.search)
const WIN = 1_000_000; // a won position scores WIN minus the plies to the win

/** A score in evaluation units as marbles for a person: "+0.35", "-1.20", or a win in n plies. */
export function formatScore(score) {
  if (Math.abs(score) >= WIN / 2) {
    const plies = WIN - Math.abs(score);
    return score > 0 ? format(gettext("wins in %(plies)s"), { plies })
      : format(gettext("loses in %(plies)s"), { plies });
  }
  const marbles = score / MARBLE;
  if (Math.abs(marbles) < 0.005) return "0.00";
  return `${marbles > 0 ? "+" : "-"}${Math.abs(marbles).toFixed(2)}`;
}

/** An HTML element with attributes and text. */
export function element(tag, attributes = {}, text = "") {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== "") node.textContent = text;
  return node;
}

/** The search's lines, deepest first, as rows of `tbody`: depth, score, best line, nodes. */
export function renderLines(tbody, lines) {
  tbody.replaceChildren();
  const deepest = [...lines].reverse();
  deepest.forEach((line, index) => {
    const row = element("tr", { "data-depth": String(line.depth) });
    if (index === 0) row.classList.add("deepest");
    row.append(
      element("td", { class: "depth" }, String(line.depth)),
      element("td", { class: "score", "data-score": String(line.score) }, formatScore(line.score)),
      element("td", { class: "pv" }, (line.pv || []).join(" ")),
      element("td", { class: "nodes" }, Number(line.nodes || 0).toLocaleString()),
    );
    tbody.appendChild(row);
  });
}
