/* Sumito, the analysis board: the evaluation bar beside the board, as lichess draws it.
 *
 * `renderEvalBar(bar, score)`: `score` in evaluation units from Black's side (null: not known);
 * the dark part (Black, at the bottom as the board is drawn) is half the bar at 0 and grows to
 * the whole bar at +5 marbles (a won position fills it); the score is written on the bar.
 */
import { formatScore } from "sumito/analysis/lines.js";

const MARBLE = 1000;
const CLAMP = 5; // marbles

export function renderEvalBar(bar, score) {
  const known = score !== null && score !== undefined;
  const marbles = known ? Math.max(-CLAMP, Math.min(CLAMP, score / MARBLE)) : 0;
  const black = 50 + (marbles / CLAMP) * 50; // per cent of the bar
  bar.dataset.known = String(known);
  bar.dataset.score = known ? String(score) : "";
  bar.style.setProperty("--black-share", `${black.toFixed(1)}%`);
  bar.setAttribute("aria-valuenow", marbles.toFixed(2));
  const text = known ? formatScore(score) : "–";
  bar.setAttribute("aria-valuetext", text);
  bar.querySelector(".eval-text").textContent = text;
}
