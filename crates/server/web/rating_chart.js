// A rating history as a plotted line: inline SVG built with DOM calls, both axes labelled, the
// line and its points in the theme's link colour and the axes in its text colour (each readable
// at 4.5:1 on the panel in every theme), and the same numbers as a table for screen readers.

import { h, s } from "./dom.js";

const HEIGHT = 250;
const PAD = { left: 74, right: 18, top: 16, bottom: 46 };

/** Round tick values spanning `low`..`high`, about five of them. */
function ticks(low, high) {
  const span = Math.max(1, high - low);
  const step = [5, 10, 20, 25, 50, 100, 200, 250, 500].find((size) => span / size <= 5) || 1000;
  const first = Math.floor(low / step) * step;
  const values = [];
  for (let value = first; value <= high + step / 2; value += step) values.push(value);
  return values;
}

function day(ms) {
  return Number.isFinite(Number(ms)) ? new Date(Number(ms)).toLocaleDateString() : "";
}

/** Every account's rating before its first rated game (Glicko-2's starting rating). */
const START = 1500;

/**
 * The chart of `history` (`[{at_ms, rating, game_id}]`, each the rating after a game, oldest
 * first), titled `title`; the line starts at the starting rating, before the first game.
 */
export function ratingChart(history, title) {
  // A narrower drawing on a phone keeps its 15-unit labels near 15 px there.
  const WIDTH = window.innerWidth < 560 ? 340 : 480;
  const points = history.map((entry, i) => ({ x: i + 1, y: Number(entry.rating), at: entry.at_ms, game: entry.game_id }))
    .filter((point) => Number.isFinite(point.y));
  if (!points.length) return h("p", { class: "muted" }, "No rated game yet.");
  const line = [{ x: 0, y: START }, ...points];
  const ys = line.map((point) => point.y);
  const yTicks = ticks(Math.min(...ys) - 10, Math.max(...ys) + 10);
  const [yLow, yHigh] = [yTicks[0], yTicks.at(-1)];
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const px = (x) => PAD.left + (x / points.length) * plotW;
  const py = (y) => PAD.top + plotH - ((y - yLow) / Math.max(1, yHigh - yLow)) * plotH;
  const last = points.at(-1);
  const summary = `${title}: ${points.length} rated game${points.length === 1 ? "" : "s"}, `
    + `from ${START} to ${Math.round(last.y)}; lowest ${Math.round(Math.min(...ys))}, highest ${Math.round(Math.max(...ys))}.`;
  const xTicks = [...new Set([0, Math.ceil(points.length / 2), points.length])];
  const svg = s("svg", { class: "rating-chart", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-label": summary },
    s("title", {}, summary),
    // Grid and y axis ticks.
    yTicks.map((value) => s("g", { class: "tick" },
      s("line", { class: "grid", x1: PAD.left, x2: WIDTH - PAD.right, y1: py(value), y2: py(value) }),
      s("text", { class: "tick-label", x: PAD.left - 8, y: py(value) + 5, "text-anchor": "end" }, String(value)))),
    xTicks.map((x) => s("text", { class: "tick-label", x: px(x), y: PAD.top + plotH + 20, "text-anchor": x ? "middle" : "start" },
      x ? String(x) : "start")),
    // Axes.
    s("line", { class: "axis", x1: PAD.left, x2: PAD.left, y1: PAD.top, y2: PAD.top + plotH }),
    s("line", { class: "axis", x1: PAD.left, x2: WIDTH - PAD.right, y1: PAD.top + plotH, y2: PAD.top + plotH }),
    s("text", { class: "axis-label", x: 16, y: PAD.top + plotH / 2, "text-anchor": "middle",
      transform: `rotate(-90 16 ${PAD.top + plotH / 2})` }, "Rating"),
    s("text", { class: "axis-label", x: PAD.left + plotW / 2, y: HEIGHT - 6, "text-anchor": "middle" }, "Rated games, oldest to newest"),
    // The line and its points.
    s("polyline", { class: "line", points: line.map((p) => `${px(p.x)},${py(p.y)}`).join(" ") }),
    s("circle", { class: "start", cx: px(0), cy: py(START), r: 3.5 }, s("title", {}, `Start: ${START}`)),
    points.map((point) => s("circle", { class: "point", cx: px(point.x), cy: py(point.y), r: 4.5 },
      s("title", {}, `Game ${point.x}${point.at ? `, ${day(point.at)}` : ""}: ${Math.round(point.y)}`))));
  const table = h("details", { class: "chart-table" }, h("summary", {}, "The numbers"),
    h("table", {}, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Game"), h("th", { scope: "col" }, "Date"),
      h("th", { scope: "col" }, "Rating after"))),
    h("tbody", {}, points.map((point) => h("tr", {},
      h("td", {}, point.game ? h("a", { href: `/g/${encodeURIComponent(point.game)}?replay=0`, "data-link": true }, String(point.x)) : String(point.x)),
      h("td", {}, day(point.at)), h("td", {}, String(Math.round(point.y))))))));
  return h("figure", { class: "chart" }, svg, table);
}
