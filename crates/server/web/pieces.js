// How one piece is drawn: a shape per seat (so seats differ by shape and letter, not only by hue),
// its colour from the theme, its letter or the glyph of the physical game, and its description.

import { s } from "./dom.js";

// Seat 1 circle, seat 2 square, seat 3 hexagon, seat 4 diamond; pieces of nobody an octagon.
const SHAPES = {
  1: () => s("circle", { r: 36 }),
  2: () => s("rect", { x: -32, y: -32, width: 64, height: 64, rx: 10 }),
  3: () => s("polygon", { points: polygon(6, 38, 0) }),
  4: () => s("polygon", { points: polygon(4, 42, 0) }),
  0: () => s("polygon", { points: polygon(8, 37, Math.PI / 8) }),
};

function polygon(corners, radius, turn) {
  const points = [];
  for (let i = 0; i < corners; i += 1) {
    const angle = turn + (i * 2 * Math.PI) / corners - Math.PI / 2;
    points.push(`${(radius * Math.cos(angle)).toFixed(1)},${(radius * Math.sin(angle)).toFixed(1)}`);
  }
  return points.join(" ");
}

// Drawings of the values printed on physical pieces, by game: Yoxii's 〇 ‖ Y X for 1 to 4.
const GLYPHS = {
  yoxii: {
    1: "M 0 -17 A 17 17 0 1 1 -0.1 -17 Z",
    2: "M -8 -19 L -8 19 M 8 -19 L 8 19",
    3: "M -16 -19 L 0 0 L 16 -19 M 0 0 L 0 20",
    4: "M -16 -18 L 16 18 M 16 -18 L -16 18",
  },
};

/** The glyph path of `piece` in `game`, if the physical game prints one. */
export function glyphOf(game, piece) {
  const table = GLYPHS[game];
  return table && piece.label ? table[piece.label] || null : null;
}

const hueClass = (piece) => `hue-${String(piece.hue).toLowerCase()}`;

/** The SVG of `piece` centred on the origin, `scale` 1 for a full cell of 100 units. */
export function pieceShape(game, piece, scale = 1) {
  const seat = piece.owner || 0;
  const shape = (SHAPES[seat] || SHAPES[0])();
  shape.setAttribute("class", "piece-body");
  const parts = [shape];
  if (piece.marked) {
    parts.push(s("circle", { class: "piece-mark", r: 25 }));
  }
  const glyph = glyphOf(game, piece);
  if (glyph) {
    parts.push(s("path", { class: "piece-glyph", d: glyph }));
  } else {
    parts.push(s("text", { class: "piece-letter", "text-anchor": "middle", "dominant-baseline": "central" },
      piece.kind));
  }
  const attrs = { class: `piece ${hueClass(piece)} seat-${seat}` };
  if (scale !== 1) attrs.transform = `scale(${scale})`;
  return s("g", attrs, parts);
}

/** A small piece picture for panels and buttons (an inline SVG of `size` pixels). */
export function pieceIcon(game, piece, size = 28) {
  return s("svg", { class: "piece-icon", viewBox: "-50 -50 100 100", width: size, height: size,
    "aria-hidden": "true" }, pieceShape(game, piece));
}

/** Words for a piece: "Light L", "Red 3 (marked)". */
export function describePiece(piece) {
  const hue = String(piece.hue);
  const value = piece.label && piece.label !== piece.kind ? ` ${piece.label}` : "";
  const kind = piece.kind === hue[0] ? "stone" : piece.kind;
  return `${hue.toLowerCase()} ${kind}${value}${piece.marked ? " (marked)" : ""}`;
}

/** Words for a cell's stack, top first: "light stone on dark stone on neutral stone". */
export function describeStack(stack) {
  if (!stack.length) return "empty";
  const words = stack.map(describePiece).reverse();
  if (words.length === 1) return words[0];
  return `${words.length} pieces, top ${words[0]}, below: ${words.slice(1).join(", ")}`;
}
