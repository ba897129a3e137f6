// What changed between two snapshots that the board alone does not say: a team knocked out of a
// game of three or four (and by whom), and an offer of this browser's declined. Read from the
// snapshots' fields only (seats out, history, offer, seq): the page holds no rules.

import { seatLabel } from "./panel.js";

// Each seat out of a game of three or four carries the turn that put it out (`seats[].out`, from
// the server), so a page opened after the knock-out says it as well as one that saw it happen.
function knockedOut(before, snap) {
  const known = new Set(((before && before.seats) || []).filter((seat) => seat.out).map((seat) => seat.seat));
  return (snap.seats || []).filter((seat) => seat.out && !known.has(seat.seat)).map((seat) => {
    const who = seatLabel(snap, seat.seat);
    const turn = (snap.history || [])[seat.out.turn - 1];
    if (!turn || seat.out.by === seat.seat) {
      if (turn && /^flag\b/.test(turn.text)) return `${who} ran out of time and is out.`;
      return turn && /^resign\b/.test(turn.text) ? `${who} resigned and is out.` : `${who} is out.`;
    }
    return `${seatLabel(snap, seat.out.by)} knocked ${who} out (${turn.text}).`;
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

/**
 * Sentences saying what happened between `before` and `snap`; `mine` lists this browser's seats.
 * Without `before` (the page's first snapshot): the knock-outs so far.
 */
export function changeNotes(before, snap, mine) {
  if (!before || !before.view) return knockedOut(null, snap);
  const takenBack = !snap.offer && before.offer && before.offer.kind === "takeback" && snap.seq !== before.seq
    && (snap.history || []).length < (before.history || []).length;
  return [...knockedOut(before, snap), ...(takenBack ? [] : declined(before, snap, mine))];
}
