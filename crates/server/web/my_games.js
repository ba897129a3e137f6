// "My games" on the home screen: the games this browser holds tokens for and, signed in, the
// account's from any browser. Those where it is this person's turn come first, each with its
// time left ("2 d 4 h left" on a correspondence clock), then the others. A game in progress
// with fewer than two turns played can be deleted from here (a game nobody else joined, with the
// owner's token) or aborted (a game between people, with the seat's token: it ends for both
// without result, and a rated one stays unrated).

import { h } from "./dom.js";
import { call, listGames, getGame, tokensFor, heldIds, forgetGame } from "./api.js";
import { heldByAccount } from "./account_seats.js";
import { remainingMs, timeText } from "./clocks.js";

/** At most this many games are listed. */
const SHOWN = 12;

function describe(meta, entry) {
  const info = meta.games.find((game) => game.id === entry.game);
  const name = info ? info.name : entry.game;
  const names = (entry.names || []).join(" vs ");
  const state = entry.outcome ? "finished" : `turn ${entry.turn}`;
  return `${name}: ${names}, ${state}`;
}

/** The games to list: summaries (or snapshots), each with the seats and tokens held here. */
async function gather() {
  let games = [];
  try { games = (await listGames()).games || []; } catch (err) { return []; }
  const held = new Map();
  // The account's seats first (newest first): played from another browser, they open here too.
  for (const entry of await heldByAccount()) {
    if (!entry.summary || !entry.summary.id) continue;
    const item = held.get(entry.id) || { entry: entry.summary, seats: new Map() };
    if (entry.seat && entry.token) item.seats.set(Number(entry.seat), entry.token);
    held.set(entry.id, item);
  }
  for (const entry of games) {
    const tokens = tokensFor(entry.id);
    if (!held.has(entry.id) && (tokens.seats.length || tokens.owner)) held.set(entry.id, { entry, seats: new Map() });
  }
  // Lists hold the newest page and never private games: the other games this browser holds
  // tokens for are read by id (a snapshot carries what an entry of the list does).
  const listed = new Set([...games.map((entry) => entry.id), ...held.keys()]);
  const others = heldIds().filter((id) => !listed.has(id)).slice(0, Math.max(0, SHOWN - held.size));
  for (const snap of await Promise.all(others.map((id) => getGame(id).catch(() => null)))) {
    if (snap && snap.id) held.set(snap.id, { entry: snap, seats: new Map() });
  }
  return [...held.values()].map((item) => {
    for (const { seat, token } of tokensFor(item.entry.id).seats) item.seats.set(Number(seat), token);
    return item;
  });
}

/** This person's turn in `item`'s game, with the mover's time left (Infinity without a clock). */
function turnOf(item, now) {
  const entry = item.entry;
  const yours = !entry.outcome && Boolean(entry.to_move) && item.seats.has(entry.to_move);
  const ms = entry.to_move && !entry.outcome ? remainingMs(entry, entry.to_move, now) : null;
  return { yours, ms: ms === null ? Infinity : ms };
}

/** Whose turn and the time left: "Your turn · 2 d 4 h left". */
function turnText(item, turn) {
  const entry = item.entry;
  if (entry.outcome) return "";
  const left = Number.isFinite(turn.ms) ? ` · ${timeText(entry, turn.ms)} left` : "";
  if (turn.yours) return `Your turn${left}`;
  const name = (entry.names || [])[entry.to_move - 1];
  return name ? `${name} to move${left}` : "";
}

/** Delete or abort, while the game is in progress and fewer than two turns were played. */
function removal(item) {
  const entry = item.entry;
  if (entry.outcome || !(Number(entry.turn) < 2)) return null;
  const humans = (entry.players || []).filter((player) => player === "human").length;
  const seatToken = item.seats.values().next().value;
  const owner = tokensFor(entry.id).owner;
  if (humans > item.seats.size && seatToken) return { label: "Abort", token: seatToken, done: "Game aborted." };
  const token = owner || seatToken;
  return token ? { label: "Delete", token, done: "Game deleted." } : null;
}

function row(context, item, turn, statusLine) {
  const entry = item.entry;
  const action = removal(item);
  const line = h("li", { "data-id": entry.id, "data-your-turn": turn.yours ? "true" : "false", class: turn.yours ? "your-turn" : null },
    h("a", { href: `/g/${encodeURIComponent(entry.id)}`, "data-link": true }, describe(context.meta, entry)),
    turnText(item, turn) ? h("span", { class: "turn-note" }, " ", turnText(item, turn)) : null);
  if (action) {
    line.append(" ", h("button", { type: "button", "data-remove": action.label.toLowerCase(),
      "aria-label": `${action.label} ${describe(context.meta, entry)}`,
      onclick: async (event) => {
        event.target.disabled = true;
        try {
          await call("DELETE", `/api/games/${encodeURIComponent(entry.id)}`, { token: action.token });
          forgetGame(entry.id);
          line.remove();
          statusLine.textContent = action.done;
        } catch (err) {
          event.target.disabled = false;
          statusLine.textContent = `This game could not be removed: ${err.message}`;
        }
      } }, action.label));
  }
  return line;
}

/** The "My games" section, or null when this browser and account hold no game. */
export async function myGamesSection(context) {
  const items = await gather();
  if (!items.length) return null;
  const now = Date.now();
  const ranked = items.map((item, order) => ({ item, order, turn: turnOf(item, now) }));
  // Your turn first, least time left first; then the others as listed (in progress first).
  const rank = ({ item, turn }) => (turn.yours ? 0 : item.entry.outcome ? 2 : 1);
  ranked.sort((a, b) => rank(a) - rank(b) || (rank(a) === 0 ? a.turn.ms - b.turn.ms : 0) || a.order - b.order);
  const statusLine = h("p", { class: "muted", role: "status", id: "my-games-status" });
  return h("section", { "aria-labelledby": "continue-title" },
    h("h2", { id: "continue-title" }, "My games"),
    h("ul", { class: "continue-list" }, ranked.slice(0, SHOWN).map(({ item, turn }) => row(context, item, turn, statusLine))),
    statusLine);
}
