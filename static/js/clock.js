/* Sumito: reading clocks, shared by the pages that show them (the game, the tables, the replay).
 *
 * Live clocks count down from the server's values, measured on the monotonic clock
 * (performance.now()) from the moment the document arrived: the local wall clock is never used.
 */

import { format, ngettext } from "sumito/i18n.js";

/** A clock reading: "2 days 23:59" from a day up (a correspondence clock), h:mm:ss, m:ss, or
 * m:ss.t under ten seconds. */
export function formatClock(ms) {
  const tenths = Math.floor(ms / 100);
  const seconds = Math.floor(tenths / 10);
  const minutes = Math.floor(seconds / 60);
  const hours = Math.floor(minutes / 60);
  const ss = String(seconds % 60).padStart(2, "0");
  const mm = String(minutes % 60).padStart(2, "0");
  if (hours >= 24) {
    const days = Math.floor(hours / 24);
    const daysText = format(ngettext("%(days)s day", "%(days)s days", days), { days });
    return `${daysText} ${String(hours % 24).padStart(2, "0")}:${mm}`;
  }
  if (hours) return `${hours}:${mm}:${ss}`;
  if (seconds < 10) return `${minutes}:${ss}.${tenths % 10}`;
  return `${minutes}:${ss}`;
}

/** When the page's own response began to arrive, on the performance.now() timeline: the moment
 * a document embedded in the page left the server. */
export function navigationResponseStart() {
  const [entry] = performance.getEntriesByType ? performance.getEntriesByType("navigation") : [];
  return entry && entry.responseStart > 0 ? entry.responseStart : performance.now();
}
