// Playing by pointing with no game knowledge: every legal decision lists the cells a person clicks
// (the snapshot's `pointing`). Selecting cells narrows the decisions to those whose cells start with
// the selection; one left is played, several sharing the same cells go to a chooser by their labels.

function startsWith(entry, prefix) {
  return prefix.every((cell, i) => entry.cells[i] === cell);
}

/**
 * What clicking `cell` after the cells `selected` leads to:
 * `{play: move}`, `{choose: [{label, move}], more}`, `{select: cells}` or `{illegal: reason}`.
 */
export function pick(pointing, selected, cell) {
  let chosen = [...selected, cell];
  const continues = (cells) => pointing.some((entry) => startsWith(entry, cells));
  // Clicking the last selected cell again unselects it, unless a decision goes on there
  // (Replica's transform is the piece clicked twice).
  if (selected.length && selected[selected.length - 1] === cell && !continues(chosen)) {
    return { select: selected.slice(0, -1) };
  }
  if (!continues(chosen)) {
    if (!selected.length || !continues([cell])) {
      return { illegal: illegalReason(selected, cell) };
    }
    chosen = [cell];
  }
  return resolve(pointing, chosen);
}

function resolve(pointing, chosen) {
  const candidates = pointing.filter((entry) => startsWith(entry, chosen));
  const complete = candidates.filter((entry) => entry.cells.length === chosen.length);
  const more = complete.length < candidates.length;
  if (complete.length === 0) return { select: chosen };
  if (complete.length === 1 && !more) return { play: complete[0].move };
  return { choose: complete.map(entryOf), more, select: chosen };
}

function entryOf(entry) {
  return { label: entry.label || entry.move, move: entry.move };
}

function illegalReason(selected, cell) {
  if (!selected.length) return `no legal move starts at ${cell}`;
  return `${cell} is not a legal target from ${selected[selected.length - 1]}; Esc clears the selection`;
}

/** Decisions chosen without any cell (a forced pass), for a chooser; null when there are none. */
export function cellFree(pointing) {
  const entries = pointing.filter((entry) => entry.cells.length === 0).map(entryOf);
  return entries.length ? entries : null;
}

/** The cells that continue the selection (with nothing selected: the cells decisions start on). */
export function targets(pointing, selected) {
  const cells = new Set();
  for (const entry of pointing) {
    if (startsWith(entry, selected) && entry.cells.length > selected.length) {
      cells.add(entry.cells[selected.length]);
    }
  }
  return cells;
}

/**
 * What clicking the last selected cell again does (Replica's transform is the piece clicked
 * twice): `{cell, label}` when a decision goes on there, else null.
 */
export function againChoice(pointing, selected) {
  if (!selected.length) return null;
  const cell = selected[selected.length - 1];
  const found = pointing.find((entry) => startsWith(entry, [...selected, cell]));
  return found ? { cell, label: found.label || found.move } : null;
}

/** The cells of the legal decision written `move` (empty when it is not in the list). */
export function cellsOf(pointing, move) {
  const found = pointing.find((entry) => entry.move === move);
  return found ? found.cells : [];
}

/**
 * The cell reached from `from` going `(dx, dy)` in screen directions (y downward): on a board of
 * points and lines (`links`: pairs of joined cell names), along a line from `from`, straight
 * ahead first; else the nearest cell that way, preferring cells straight ahead; `from` itself at
 * the edge. `cells` are `{name, sx, sy}` in screen grid units.
 */
export function stepCursor(cells, from, dx, dy, links = []) {
  const start = cells.find((cell) => cell.name === from);
  if (!start) return cells.length ? cells[0].name : null;
  const joined = new Set(links.flatMap(([a, b]) => (a === from ? [b] : b === from ? [a] : [])));
  const along = nearestAhead(start, cells.filter((cell) => joined.has(cell.name)), dx, dy, 8);
  return along || nearestAhead(start, cells, dx, dy, 2) || from;
}

/** The cell of `cells` ahead of `start` that way at the least cost (`weight` per step aside). */
function nearestAhead(start, cells, dx, dy, weight) {
  let best = null;
  for (const cell of cells) {
    const ox = cell.sx - start.sx;
    const oy = cell.sy - start.sy;
    const ahead = ox * dx + oy * dy;
    const aside = Math.abs(ox * dy) + Math.abs(oy * dx);
    if (ahead <= 0) continue;
    const cost = ahead + weight * aside;
    if (!best || cost < best.cost || (cost === best.cost && ahead < best.ahead)) {
      best = { cost, ahead, name: cell.name };
    }
  }
  return best ? best.name : null;
}
