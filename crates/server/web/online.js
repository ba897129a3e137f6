// Play between browsers: an invitation link (`/g/{id}?seat=2&invite=…`) claims its seat once and
// keeps the seat's token in this browser only; the lobby (`/lobby`) lists games to join, watch or
// replay. Names come from other people, so they are only ever set as text (dom.js `h`).

import { h, replace } from "./dom.js";
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
  });
}

function gameItem(entry, verb) {
  const names = (entry.names || []).join(" – ");
  const free = (entry.free_seats || []).length
    ? ` (seat ${entry.free_seats.join(", ")} free: ask its creator for the invitation link)` : "";
  return h("li", {},
    h("a", { href: `/g/${encodeURIComponent(entry.id)}`, "data-link": true }, `${verb} ${entry.game}`),
    ` ${names}, turn ${entry.turn}${free}`);
}

function group(title, id, entries, verb) {
  return h("section", { "aria-labelledby": id },
    h("h2", { id }, title),
    entries.length ? h("ul", {}, entries.map((entry) => gameItem(entry, verb)))
      : h("p", {}, "None right now."));
}

/** The lobby page. */
export async function showLobby(context) {
  document.title = "Ludus: lobby";
  const response = await fetch("/api/lobby");
  const lobby = await response.json();
  replace(context.main,
    h("h1", {}, "Lobby"),
    group("Waiting for a player", "lobby-waiting", lobby.waiting || [], "Open"),
    group("In progress", "lobby-playing", lobby.in_progress || [], "Watch"),
    group("Finished", "lobby-finished", lobby.finished || [], "Replay"));
}
