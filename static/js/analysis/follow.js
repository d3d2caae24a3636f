/* Sumito, the analysis pages: following an analysis while the worker searches.
 *
 * The worker pushes every finished depth to the player's socket (/ws/me/, the tab's live
 * events: live.js, heard here as events of type "analysis"); a read of the analysis every
 * POLL_MS while it is queued or running (every LIVE_POLL_MS once pushes arrive) catches what a
 * lost push or a closed socket missed.
 */
import { call } from "sumito/api.js";
import { subscribe } from "sumito/live.js";

const POLL_MS = 500;
const LIVE_POLL_MS = 3000;
export const FINAL = new Set(["done", "failed"]);

/**
 * Follow an analysis: `onDoc(first)` at once, then each newer document as it comes. A document
 * older than the one shown is skipped. A failed read is reported to `onError` and tried again
 * a little later (a 404 stops it). Returns a function that stops following.
 */
export function follow(url, first, onDoc, onError = () => {}) {
  let stopped = false;
  let timer = null;
  let failures = 0;
  let live = false;
  let shown = -1;
  const progressOf = (doc) => (FINAL.has(doc.status) ? 1e9 : 0) + (doc.status === "running" ? 1 : 0)
    + (Array.isArray(doc.lines) ? doc.lines.length : 0)
    + (Array.isArray(doc.evaluations) ? doc.evaluations.length : 0);
  let unsubscribe = () => {};
  const stop = () => {
    stopped = true;
    window.clearTimeout(timer);
    unsubscribe();
  };
  const show = (doc) => {
    const progress = progressOf(doc);
    if (progress < shown) return;
    shown = progress;
    onDoc(doc);
    if (FINAL.has(doc.status)) stop();
  };
  const next = (delay) => { if (!stopped) timer = window.setTimeout(read, delay); };
  async function read() {
    try {
      const doc = await call("GET", url);
      if (stopped) return;
      failures = 0;
      show(doc);
      next(live ? LIVE_POLL_MS : POLL_MS);
    } catch (error) {
      if (stopped) return;
      failures += 1;
      onError(error);
      if (error.status !== 404 && failures < 30) next(POLL_MS * Math.min(failures + 1, 6));
    }
  }
  unsubscribe = subscribe((message) => {
    if (stopped || message.type !== "analysis" || !message.analysis) return;
    if (message.analysis.id !== first.id) return;
    live = true;
    show(message.analysis);
  });
  show(first);
  next(POLL_MS);
  return stop;
}
