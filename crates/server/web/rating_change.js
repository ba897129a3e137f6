// The rating changes of a rated game that ended, for its summary: "ana: 1500? → 1512 (+12)",
// the sign written out, so a gain or a loss never rests on colour.

import { h } from "./dom.js";

/** "+12", "−7" or "±0". */
export function signed(delta) {
  const rounded = Math.round(delta);
  if (rounded > 0) return `+${rounded}`;
  if (rounded < 0) return `−${Math.abs(rounded)}`;
  return "±0";
}

/**
 * "1500? → 1512 (+12)" for a seat's `rating_change` (`before`, `after`, and as shown:
 * `shown_before`, `shown_after`, "?" while provisional), or the rating shown before the game.
 */
export function changeText(change, shownBefore) {
  const before = Number(change.before);
  const after = Number(change.after);
  const from = change.shown_before || shownBefore || String(Math.round(before));
  const to = change.shown_after || String(Math.round(after));
  return `${from} → ${to} (${signed(after - before)})`;
}

/** The summary's list of rating changes, or null when none came (a casual game, or not ended). */
export function ratingChanges(snap, label) {
  const seats = (snap.seats || []).filter((seat) => seat.rating_change);
  if (!seats.length) return null;
  return h("div", { class: "rating-changes", id: "rating-changes" },
    h("h3", {}, "Ratings"),
    h("ul", {}, seats.map((seat) => h("li", { "data-rating-seat": seat.seat },
      h("span", { class: "who" }, `${seat.account ? seat.account.name : label(snap, seat.seat)}: `),
      h("span", { class: "change" }, changeText(seat.rating_change, seat.account && seat.account.rating))))));
}
