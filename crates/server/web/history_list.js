// The move list of the game screen, kept from one snapshot to the next: a move adds its turn,
// and a changed turn (one still being played, or an undo) replaces the items from the first
// turn that differs. Built again at every snapshot, the list cost a list item per turn played
// at every move, so a long game's moves grew slower and slower to draw.

import { h } from "./dom.js";
import { seatLabel } from "./panel.js";

/** The list on screen and the turns it shows; one game screen is open at a time. */
let shown = null;

/** The history in turn notation; clicking an entry shows the position after it. */
export function historyPanel(snap, viewingPly, onPick) {
  const history = snap.history || [];
  // Each item names its seat: a change of names (a friend taking a seat) redraws them all.
  const labels = (snap.seats || []).map((seat) => seatLabel(snap, seat.seat)).join("\n");
  if (!shown || shown.id !== snap.id || shown.labels !== labels) shown = emptyList(snap.id, labels);
  const list = shown;
  list.onPick = onPick;
  const from = firstDifference(list.turns, history);
  while (list.items.length > from) list.items.pop().remove();
  for (const entry of history.slice(from)) {
    const item = turnItem(snap, entry, list);
    list.items.push(item);
    list.ol.append(item);
  }
  list.turns = history;
  markViewed(list, viewingPly);
  return list.section;
}

function emptyList(id, labels) {
  const list = { id, labels, turns: [], items: [], onPick: () => {}, viewingPly: undefined, viewed: null };
  list.start = h("button", { type: "button", "data-ply": 0, onclick: () => list.onPick(0) }, "start");
  list.ol = h("ol", { class: "history" }, h("li", {}, list.start));
  list.section = h("section", { class: "panel", "aria-label": "Moves" }, h("h3", {}, "Moves"), list.ol);
  return list;
}

function turnItem(snap, entry, list) {
  const who = seatLabel(snap, entry.seat).split(" (")[0];
  const unfinished = entry.complete === false;
  return h("li", {}, h("button", { type: "button", "data-ply": entry.ply,
    title: `turn ${entry.turn}, ${seatLabel(snap, entry.seat)}${unfinished ? " (in progress)" : ""}`,
    onclick: () => list.onPick(entry.ply) }, `${entry.turn}. ${entry.text}${unfinished ? "…" : ""}`,
  h("span", { class: "visually-hidden" }, ` by ${who}`)));
}

/**
 * The index of the first turn of `now` that `before` does not show. A delta keeps the turns it
 * left alone as the same objects, always a prefix, so a binary search finds where they end; from
 * there turns are compared by what they show (a whole snapshot brings new objects for them all).
 */
function firstDifference(before, now) {
  let low = 0;
  let high = Math.min(before.length, now.length);
  while (low < high) {
    const middle = (low + high) >> 1;
    if (before[middle] === now[middle]) low = middle + 1;
    else high = middle;
  }
  while (low < before.length && low < now.length && sameTurn(before[low], now[low])) low += 1;
  return low;
}

function sameTurn(a, b) {
  return a.ply === b.ply && a.turn === b.turn && a.seat === b.seat && a.text === b.text
    && a.complete === b.complete;
}

/** Marks the entry of the position shown (none while the game's present is shown). */
function markViewed(list, viewingPly) {
  // The marked button is gone when an undo replaced its item: look it up again.
  const kept = viewingPly === null || (list.viewed !== null && list.ol.contains(list.viewed));
  if (list.viewingPly === viewingPly && kept) return;
  list.viewed?.removeAttribute("aria-current");
  list.viewingPly = viewingPly;
  list.viewed = viewingPly === 0 ? list.start
    : viewingPly === null ? null : list.ol.querySelector(`button[data-ply="${viewingPly}"]`);
  list.viewed?.setAttribute("aria-current", "true");
}
