// The one board renderer: draws any game's BoardView as SVG with no game knowledge. Square grids
// with coordinates (Splut!'s diamond is a grid whose missing cells are simply absent), points
// joined by lines (Qilin), stacks with their height (Qawale), and the highlights of pointing.

import { s } from "./dom.js";
import { pieceShape, describeStack, glyphOf } from "./pieces.js";

const UNIT = 100;
const MARGIN = 44;

/** Where each cell sits on screen, in grid units (y downward), turned when `flipped`. */
export function screenCells(view, flipped) {
  return view.cells.map((cell) => ({
    name: cell.name,
    sx: flipped ? view.width - 1 - cell.x : cell.x,
    sy: flipped ? cell.y : view.height - 1 - cell.y,
  }));
}

function centre(place) {
  return [MARGIN + place.sx * UNIT + UNIT / 2, MARGIN + place.sy * UNIT + UNIT / 2];
}

/** The common letter prefix (columns) or number suffix (rows) of cell names, when all agree. */
function axisLabel(names, pattern) {
  const parts = new Set(names.map((name) => (name.match(pattern) || [""])[0]));
  return parts.size === 1 ? [...parts][0] : "";
}

function coordinates(view, places) {
  const labels = [];
  const columns = new Map();
  const rows = new Map();
  view.cells.forEach((cell, i) => {
    const place = places[i];
    if (!columns.has(place.sx)) columns.set(place.sx, []);
    if (!rows.has(place.sy)) rows.set(place.sy, []);
    columns.get(place.sx).push(cell.name);
    rows.get(place.sy).push(cell.name);
  });
  const bottom = MARGIN + view.height * UNIT + MARGIN / 2;
  for (const [sx, names] of columns) {
    const text = axisLabel(names, /^[a-z]+/i);
    if (text) {
      labels.push(s("text", { class: "coord", x: MARGIN + sx * UNIT + UNIT / 2, y: bottom,
        "text-anchor": "middle", "dominant-baseline": "central" }, text));
    }
  }
  for (const [sy, names] of rows) {
    const text = axisLabel(names, /\d+$/);
    if (text) {
      labels.push(s("text", { class: "coord", x: MARGIN / 2, y: MARGIN + sy * UNIT + UNIT / 2,
        "text-anchor": "middle", "dominant-baseline": "central" }, text));
    }
  }
  return s("g", { class: "coords", "aria-hidden": "true" }, labels);
}

function ground(view, places, isPoints) {
  if (!isPoints) return null;
  // A board of points and lines gets one ground under all of it, so every piece colour shows.
  const xs = places.map((p) => p.sx);
  const ys = places.map((p) => p.sy);
  const x = MARGIN + Math.min(...xs) * UNIT;
  const y = MARGIN + Math.min(...ys) * UNIT;
  return s("rect", { class: "ground", x, y, rx: 12,
    width: (Math.max(...xs) - Math.min(...xs) + 1) * UNIT,
    height: (Math.max(...ys) - Math.min(...ys) + 1) * UNIT });
}

function links(view, places) {
  return s("g", { class: "links", "aria-hidden": "true" }, view.links.map(([a, b]) => {
    if (!places[a] || !places[b]) return null;
    const [x1, y1] = centre(places[a]);
    const [x2, y2] = centre(places[b]);
    return s("line", { x1, y1, x2, y2 });
  }));
}

/** The strip of lower stones along a stack's left edge, bottom stone at the bottom. */
function stackStrip(stack) {
  const below = stack.slice(0, -1);
  const height = Math.min(17, 86 / below.length);
  return s("g", { class: "stack-strip", "aria-hidden": "true" }, below.map((piece, i) =>
    s("rect", { class: `strip hue-${String(piece.hue).toLowerCase()}`, x: -47,
      y: 44 - (i + 1) * height, width: 17, height: Math.max(height - 2, 2), rx: 3 })));
}

function cellContent(game, cell, state) {
  const parts = [];
  const top = cell.stack[cell.stack.length - 1];
  if (top) {
    if (cell.stack.length > 1) parts.push(stackStrip(cell.stack));
    parts.push(s("g", { class: "mover", "data-piece": cell.name }, pieceShape(game, top, 0.9)));
    if (cell.stack.length > 1) {
      parts.push(s("g", { class: "badge", "aria-hidden": "true" },
        s("circle", { cx: 33, cy: 33, r: 15 }),
        s("text", { x: 33, y: 33, "text-anchor": "middle", "dominant-baseline": "central" },
          cell.stack.length)));
    }
    if (top.label && (top.label !== top.kind || glyphOf(game, top))) {
      parts.push(s("text", { class: "corner", x: -37, y: -29, "dominant-baseline": "central" }, top.label));
    }
  } else if (state.target) {
    parts.push(s("circle", { class: "dot", r: 13 }));
  }
  return parts;
}

function cellState(cell, marks) {
  return {
    target: marks.targets.has(cell.name),
    selected: marks.selected.includes(cell.name),
    hint: marks.hint.includes(cell.name),
    last: marks.last.has(cell.name),
    cursor: marks.cursor === cell.name,
    again: Boolean(marks.again) && marks.again.cell === cell.name ? marks.again.label : null,
  };
}

function cellClass(cell, state) {
  const names = ["cell", cell.shape === "Point" ? "point" : "square"];
  if (cell.shaded) names.push("shaded");
  for (const key of ["target", "selected", "hint", "last", "cursor"]) {
    if (state[key]) names.push(key);
  }
  return names.join(" ");
}

/** The accessible name of a cell: "c3, light stone, legal target". */
export function cellLabel(cell, state) {
  // A stack's height is said first: it is what a stacking game's player counts.
  const height = cell.stack.length > 1 ? `stack of ${cell.stack.length}: ` : "";
  const words = [cell.name, `${height}${describeStack(cell.stack)}`];
  if (state.selected) words.push("selected");
  if (state.target) words.push("legal target");
  if (state.hint) words.push("hinted");
  if (state.last) words.push("last move");
  if (state.again) words.push(`click again to ${state.again}`);
  return words.join(", ");
}

/**
 * The shapes that say a cell's state without its fill's hue (a colour-blind person, or a fill
 * painted over another): the last move's corner brackets, a ring round a movable piece or a legal
 * target, a thick frame round the selection, and the hint's corner triangle. Drawn above the
 * pieces, so no fill or piece hides one.
 */
function cues(state) {
  const parts = [];
  if (state.last) {
    parts.push(s("path", { class: "cue cue-last", d: "M-44 -24V-44H-24M24 -44H44V-24M44 24V44H24M-24 44H-44V24" }));
  }
  if (state.target) parts.push(s("circle", { class: "cue cue-target", r: 41 }));
  if (state.selected) parts.push(s("rect", { class: "cue cue-selected", x: -40, y: -40, width: 80, height: 80, rx: 4 }));
  if (state.hint) parts.push(s("path", { class: "cue cue-hint", d: "M18 -46H46V-18Z" }));
  if (state.again) {
    // "Click again": a badge with a turning arrow in the selected piece's lower corner.
    parts.push(s("g", { class: "cue-again", transform: "translate(-30,30)" }, s("circle", { r: 16 }),
      s("path", { d: "M7 -4A8 8 0 1 0 8 3M8 -11V-3H0" })));
  }
  return parts.length ? s("g", { class: "cues", "aria-hidden": "true" }, parts) : null;
}

function drawCell(game, cell, place, marks) {
  const state = cellState(cell, marks);
  const [cx, cy] = centre(place);
  const isPoint = cell.shape === "Point";
  const backdrop = isPoint
    ? s("circle", { class: "backdrop", r: state.target || state.selected || state.hint || state.last ? 40 : 12 })
    : s("rect", { class: "backdrop", x: -UNIT / 2, y: -UNIT / 2, width: UNIT, height: UNIT });
  const ring = state.cursor
    ? s("rect", { class: "focus-ring", x: -44, y: -44, width: 88, height: 88, rx: isPoint ? 44 : 6 })
    : null;
  const again = state.again ? ` (click again to ${state.again})` : "";
  const title = s("title", {}, `${cell.name}: ${describeStack(cell.stack)}${again}`);
  return s("g", {
    class: cellClass(cell, state), transform: `translate(${cx},${cy})`, "data-cell": cell.name,
    role: "button", tabindex: state.cursor ? 0 : -1, "aria-label": cellLabel(cell, state),
    "aria-pressed": state.selected ? "true" : "false",
  }, title, isPoint ? s("circle", { class: "hit", r: 46 }) : null, backdrop, cellContent(game, cell, state), cues(state), ring);
}

/**
 * The SVG of `view`. `marks`: `{targets: Set, selected: [], hint: [], last: Set, cursor}` of
 * cell names; `flipped` turns the board half a turn (the second seat's side at the bottom).
 */
export function drawBoard(game, view, marks, flipped) {
  const places = screenCells(view, flipped);
  const isPoints = view.cells.some((cell) => cell.shape === "Point");
  const width = view.width * UNIT + 2 * MARGIN;
  const height = view.height * UNIT + 2 * MARGIN;
  return s("svg", {
    class: `board${isPoints ? " points" : ""}`, viewBox: `0 0 ${width} ${height}`,
    role: "group", "aria-label": `Board, ${view.width} by ${view.height}${flipped ? ", turned" : ""}`,
    "data-flipped": flipped ? "true" : "false",
  }, coordinates(view, places), ground(view, places, isPoints), links(view, places),
  s("g", { class: "cells" }, view.cells.map((cell, i) => drawCell(game, cell, places[i], marks))));
}

/** The on-screen offset, in SVG units, from cell `from` to cell `to`. */
export function offsetBetween(view, flipped, from, to) {
  const places = screenCells(view, flipped);
  const a = places.find((p) => p.name === from);
  const b = places.find((p) => p.name === to);
  if (!a || !b) return null;
  return [(a.sx - b.sx) * UNIT, (a.sy - b.sy) * UNIT];
}
