// What changed between two snapshots that the board alone does not say: a team knocked out of a
// game of three or four (and by whom), and an offer of this browser's declined. Read from the
// snapshots' fields only (seats alive, history, offer, seq): the page holds no rules.

import { seatLabel } from "./panel.js";

function knockedOut(before, snap) {
  const alive = new Map(before.view.seats.map((seat) => [seat.seat, seat.alive]));
  const out = snap.view.seats.filter((seat) => alive.get(seat.seat) && !seat.alive);
  if (!out.length) return [];
  const last = (snap.history || []).at(-1);
  return out.map((seat) => {
    const who = seatLabel(snap, seat.seat);
    if (!last || last.seat === seat.seat) {
      if (last && /^flag\b/.test(last.text)) return `${who} ran out of time and is out.`;
      return last && /^resign\b/.test(last.text) ? `${who} resigned and is out.` : `${who} is out.`;
    }
    return `${seatLabel(snap, last.seat)} knocked ${who} out (${last.text}).`;
  });
}

function declined(before, snap, mine) {
  const offer = before.offer;
  // Accepted, an offer ends the game (a draw) or takes a turn back (a new seq); declined, it
  // just goes. Any other change (a move) also clears it: then it lapsed.
  if (!offer || snap.offer || snap.outcome || !mine.includes(offer.from)) return [];
  const what = offer.kind === "draw" ? "Your draw offer" : "Your request to take back";
  return [snap.seq === before.seq ? `${what} was declined.` : `${what} lapsed when the game went on.`];
}

/** Sentences saying what happened between `before` and `snap`; `mine` lists this browser's seats. */
export function changeNotes(before, snap, mine) {
  if (!before || !before.view || !snap.view) return [];
  const takenBack = !snap.offer && before.offer && before.offer.kind === "takeback" && snap.seq !== before.seq
    && (snap.history || []).length < (before.history || []).length;
  return [...knockedOut(before, snap), ...(takenBack ? [] : declined(before, snap, mine))];
}
