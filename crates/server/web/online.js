// Play between browsers: an invitation link (`/g/{id}?seat=2&invite=…`) claims its seat once and
// keeps the seat's token in this browser only (local storage), never shown to anyone else.

import { act, tokensFor, saveTokens } from "./api.js";

/** Claims the seat of an invitation link, if the address carries one; then drops it from the address. */
export async function claimFromLink(id, query) {
  const seat = Number(query.get("seat"));
  const invite = query.get("invite");
  if (!seat || !invite) return;
  history.replaceState(null, "", `/g/${encodeURIComponent(id)}`);
  const held = tokensFor(id);
  if (held.seats.some((entry) => entry.seat === seat)) return;
  const claimed = await act(id, "claim", { seat, invite });
  saveTokens(id, {
    owner: held.owner,
    seats: held.seats.filter((entry) => entry.seat !== seat).concat([{ seat, token: claimed.token }]),
    invites: held.invites,
  });
}
