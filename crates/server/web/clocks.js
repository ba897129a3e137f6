// The players' clocks of a game with a clock: the server keeps the time and sends each seat's
// remaining time as of `as_of_ms`; the page counts the running seat down from there, four times a
// second, and marks a clock with little time left. A correspondence clock (days per move) shows
// days and hours: "2 d 4 h".

import { h } from "./dom.js";

/** Under this many milliseconds a clock is shown as low. */
const LOW_MS = 20000;

/** Seat `seat`'s remaining milliseconds at `now` (Unix ms), or null in a game without a clock. */
export function remainingMs(snap, seat, now) {
  const clock = snap.clock;
  if (!clock || !Array.isArray(clock.remaining_ms)) return null;
  const left = Number(clock.remaining_ms[seat - 1]);
  if (!Number.isFinite(left)) return null;
  const running = clock.running === seat && !snap.outcome;
  return Math.max(0, running ? left - Math.max(0, now - Number(clock.as_of_ms || now)) : left);
}

/** "4:59", "1:02:03", or "0:09.4" under ten seconds (where tenths matter). */
export function clockText(ms) {
  if (ms < 10000) return `0:0${(Math.floor(ms / 100) / 10).toFixed(1)}`;
  const total = Math.floor(ms / 1000);
  const [hours, minutes, seconds] = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60];
  const two = (n) => String(n).padStart(2, "0");
  return hours ? `${hours}:${two(minutes)}:${two(seconds)}` : `${minutes}:${two(seconds)}`;
}

const HOUR_MS = 3600000;
const DAY_MS = 24 * HOUR_MS;

/** Time left on a correspondence clock: "2 d 4 h", "5 h 12 min", "9 min", or "0:09.4". */
export function daysText(ms) {
  if (ms >= DAY_MS) return `${Math.floor(ms / DAY_MS)} d ${Math.floor((ms % DAY_MS) / HOUR_MS)} h`;
  if (ms >= HOUR_MS) return `${Math.floor(ms / HOUR_MS)} h ${Math.floor((ms % HOUR_MS) / 60000)} min`;
  if (ms >= 60000) return `${Math.floor(ms / 60000)} min`;
  return clockText(ms);
}

/** The time text of `snap`'s clock kind. */
export function timeText(snap, ms) {
  return snap.clock && snap.clock.kind === "correspondence" ? daysText(ms) : clockText(ms);
}

function classes(snap, seat, ms) {
  const running = snap.clock.running === seat && !snap.outcome;
  return `clock${running ? " running" : ""}${ms < LOW_MS ? " low" : ""}`;
}

/** The clock of `seat` for the seats panel, or null in a game without a clock. */
export function clockBadge(snap, seat, now) {
  const ms = remainingMs(snap, seat, now);
  if (ms === null) return null;
  return h("span", { class: "clock-box" }, h("span", { class: "visually-hidden" }, "time left "),
    h("span", { class: classes(snap, seat, ms), "data-clock-seat": seat, role: "timer" }, timeText(snap, ms)));
}

/** Moves every clock badge under `root` on to `now`, without redrawing the panel. */
export function tickClocks(root, snap, now) {
  if (!snap || !snap.clock) return;
  for (const badge of root.querySelectorAll("[data-clock-seat]")) {
    const seat = Number(badge.dataset.clockSeat);
    const ms = remainingMs(snap, seat, now);
    if (ms === null) continue;
    const text = timeText(snap, ms);
    if (badge.textContent !== text) badge.textContent = text;
    const wanted = classes(snap, seat, ms);
    if (badge.className !== wanted) badge.className = wanted;
  }
}

/** "Ana (Dark) ran out of time." when the game ended on a clock, else null. */
export function flagLine(snap, label) {
  // A server that names the flag in the outcome's reason already says it.
  if (!snap.clock || !snap.outcome || /out of time/.test(snap.outcome.reason || "")) return null;
  const flagged = (snap.clock.remaining_ms || []).flatMap((ms, i) => (Number(ms) <= 0 ? [i + 1] : []));
  if (!flagged.length) return null;
  return h("p", { class: "flag", id: "flag" }, flagged.map((seat) => `${label(snap, seat)} ran out of time.`).join(" "));
}
