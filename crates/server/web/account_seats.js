// Continuing from another browser: the seats the signed-in account holds (`GET /api/account/
// games`, each with its seat token) are kept here the same way as the tokens of a game created
// or claimed in this browser, so the person plays from this browser too.

import { holdSeat } from "./api.js";
import { accountGames } from "./people_api.js";
import { loadAccount } from "./session.js";

/** The account's games (`{id, seat, token, summary}`, newest first), or [] when signed out. */
export async function heldByAccount() {
  if (!(await loadAccount())) return [];
  try {
    const answer = await accountGames();
    return (answer && Array.isArray(answer.games)) ? answer.games : [];
  } catch (err) {
    return [];
  }
}

/** Keeps the tokens of the account's seats of game `id`, if it holds any. */
export async function adoptAccountSeats(id) {
  for (const entry of await heldByAccount()) {
    if (entry.id === id && entry.seat && entry.token) holdSeat(id, Number(entry.seat), entry.token);
  }
}
