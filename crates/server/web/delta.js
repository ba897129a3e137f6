// A change the server sent as a delta, applied to the snapshot the page holds: the server
// sends each move's sockets only what changed (the history's new turns, the board's changed
// cells, the fields that changed; a field it leaves out is as before), so a long game costs
// the same per move as a short one. The page keeps drawing whole snapshots: this builds the
// next one.

/** The snapshot `delta` makes of `snap`, or null when it does not follow on from `snap`. */
export function applyDelta(snap, delta) {
  if (!snap || delta.from_seq !== snap.seq || !delta.view || !Array.isArray(delta.turns)) return null;
  const history = (snap.history || []).slice(0, delta.history_from).concat(delta.turns);
  if (history.length !== delta.history_from + delta.turns.length) return null;
  const { type, from_seq, history_from, turns, view, ...now } = delta;
  const cells = snap.view.cells.slice();
  for (const change of view.cells) {
    const cell = cells[change.index];
    if (!cell) return null;
    cells[change.index] = { ...cell, stack: change.stack, shaded: change.shaded };
  }
  const { cells: _changed, ...rest } = view;
  return {
    ...snap,
    ...now,
    history,
    // The page reads the history; the list of the turns' notations would cost a pass over the
    // whole game at every move, so it is left out rather than kept stale.
    moves: undefined,
    view: { ...snap.view, ...rest, cells },
  };
}
