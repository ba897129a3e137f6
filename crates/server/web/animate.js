// Pieces move visibly from cell to cell: the new board is drawn at once (input never waits), then
// each piece that arrived is shifted back to where it came from and slides home by a CSS transition.
// Nothing moves under prefers-reduced-motion.

import { reducedMotion, s } from "./dom.js";
import { offsetBetween } from "./board.js";

const signature = (piece) => piece ? `${piece.owner}|${piece.hue}|${piece.kind}|${piece.label}` : "";
const topOf = (cell) => signature(cell.stack[cell.stack.length - 1]);

/** The pieces that moved from `before` to `after`: `[{from, to}]`, `from` null for a new piece. */
export function movesBetween(before, after) {
  if (!before || !after || before.cells.length !== after.cells.length) return [];
  const departures = [];
  const arrivals = [];
  after.cells.forEach((cell, i) => {
    const old = before.cells[i];
    const was = topOf(old);
    const now = topOf(cell);
    const grew = cell.stack.length > old.stack.length;
    if (was === now && !grew) return;
    if (was && cell.stack.length <= old.stack.length) departures.push({ name: old.name, sig: was });
    if (now) arrivals.push({ name: cell.name, sig: now });
  });
  // A jump through history (undo, a record loaded) changes many cells: no animation then.
  if (arrivals.length > 6) return [];
  return arrivals.map((arrival) => {
    const index = departures.findIndex((d) => d.sig === arrival.sig);
    const from = index >= 0 ? departures.splice(index, 1)[0].name : null;
    return { from, to: arrival.name };
  });
}

/**
 * Moves `mover` above every cell (keeping its place): SVG paints in document order, so a piece
 * sliding over cells drawn after its own would otherwise pass under their squares.
 */
function lift(svg, mover, duration) {
  const cell = mover.closest("[data-cell]");
  if (!cell) return;
  const next = mover.nextSibling;
  const layer = s("g", { class: "lift", transform: cell.getAttribute("transform") });
  svg.append(layer);
  layer.append(mover);
  // Home again once it has landed, so the cell holds its piece as before.
  window.setTimeout(() => {
    cell.insertBefore(mover, next);
    layer.remove();
  }, duration + 20);
}

/** How long a piece takes from cell to cell, as in style.css. */
export const SLIDE_MS = 200;

/**
 * Animates the pieces of `svg` that moved between the views `before` and `after`, `elapsed` ms
 * into the slide: a redraw during a slide (a thinking frame, say) picks the slide up where it was.
 */
export function animateMoves(svg, before, after, flipped, elapsed = 0) {
  if (reducedMotion() || elapsed >= SLIDE_MS) return;
  const left = 1 - elapsed / SLIDE_MS;
  for (const { from, to } of movesBetween(before, after)) {
    const mover = svg.querySelector(`.mover[data-piece="${CSS.escape(to)}"]`);
    if (!mover) continue;
    const offset = from ? offsetBetween(after, flipped, from, to) : null;
    if (!offset) {
      mover.classList.add("arrive");
      mover.style.animationDelay = `${-elapsed}ms`;
      continue;
    }
    lift(svg, mover, SLIDE_MS * left);
    mover.style.transition = "none";
    mover.style.transform = `translate(${offset[0] * left}px, ${offset[1] * left}px)`;
    mover.getBoundingClientRect();
    mover.style.transition = `transform ${Math.round(SLIDE_MS * left)}ms ease-out`;
    mover.style.transform = "";
  }
}
