// A game of the signed-in person began (a seek taken, a pool paired, a challenge or rematch
// accepted): its seat's token is kept as if this browser had created the game, and the page goes
// to it at once, so both players land in the game together.

import { holdSeat } from "./api.js";

/** Keeps `{game, seat, token}` and opens `/g/{game}` (again, if its token was new here). */
export function openStartedGame(navigate, started) {
  if (!started || !started.game) return;
  const fresh = started.token && started.seat ? holdSeat(started.game, Number(started.seat), started.token) : false;
  const path = `/g/${encodeURIComponent(started.game)}`;
  if (location.pathname !== path || fresh) navigate(path);
}
