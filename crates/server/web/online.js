// Play between browsers: an invitation link (`/g/{id}?seat=2&invite=…`) claims its seat once and
// keeps the seat's token in this browser only (local storage), never shown to anyone else.
// The game's creator opening their own link does not take the friend's seat, and a link that was
// already used opens the game to watch: either way the page says why in a note.

import { act, tokensFor, saveTokens } from "./api.js";

/**
 * Claims the seat of an invitation link, if the address carries one; then drops it from the
 * address. Answers a note for the game page when the seat was not claimed, else null.
 */
export async function claimFromLink(id, query) {
  const seat = Number(query.get("seat"));
  const invite = query.get("invite");
  if (!seat || !invite) return null;
  history.replaceState(null, "", `/g/${encodeURIComponent(id)}`);
  const held = tokensFor(id);
  if (held.seats.some((entry) => entry.seat === seat)) return null;
  if (held.owner) {
    return `This is your invitation for seat ${seat}: send the link to the friend who will play it. `
      + "Opening it here did not take their seat.";
  }
  let claimed;
  try {
    claimed = await act(id, "claim", { seat, invite });
  } catch (err) {
    // A spent (or mistyped) invitation still leads to the game, to watch.
    if (err.status === 0) throw err;
    return `This invitation was already used (${err.message}): you are watching the game.`;
  }
  saveTokens(id, {
    owner: held.owner,
    seats: held.seats.filter((entry) => entry.seat !== seat).concat([{ seat, token: claimed.token }]),
    invites: held.invites,
  });
  return null;
}
