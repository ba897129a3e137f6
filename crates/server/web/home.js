// The home screen: the five games with a summary and a picture of the board, games to continue
// (those this browser holds tokens for, and the signed-in account's from any browser), and
// loading a record file (JSON or the game's text format).

import { h, replace } from "./dom.js";
import { listGames, getGame, createGame, saveTokens, tokensFor, heldIds } from "./api.js";
import { drawBoard } from "./board.js";
import { heldByAccount } from "./account_seats.js";

const NO_MARKS = { targets: new Set(), selected: [], hint: [], last: new Set(), cursor: null };

function gameCard(context, game) {
  const picture = game.view
    ? h("div", { class: "picture", "aria-hidden": "true" }, drawBoard(game.id, game.view, NO_MARKS, false))
    : null;
  const seats = game.seats.min === game.seats.max ? `${game.seats.min} players` : `${game.seats.min}–${game.seats.max} players`;
  return h("li", { class: "panel game-card", "data-game": game.id },
    h("h2", {}, game.name), picture,
    h("p", {}, game.summary), h("p", { class: "muted" }, seats),
    h("div", { class: "row" },
      h("a", { class: "button primary", href: `/?setup=${game.id}`, "data-link": true }, `Play ${game.name}`),
      h("a", { class: "button", href: `/?rules=${game.id}`, "data-link": true }, "Rules")));
}

function describe(meta, entry) {
  const info = meta.games.find((game) => game.id === entry.game);
  const name = info ? info.name : entry.game;
  const names = (entry.names || []).join(" vs ");
  const state = entry.outcome ? "finished" : `turn ${entry.turn}`;
  return `${name}: ${names}, ${state}`;
}

async function continueSection(context) {
  let games = [];
  try { games = (await listGames()).games || []; } catch (err) { return null; }
  // The account's seats first (newest first): played from another browser, they open here too.
  const mine = (await heldByAccount()).map((entry) => entry.summary).filter((entry) => entry && entry.id);
  const seen = new Set(mine.map((entry) => entry.id));
  mine.push(...games.filter((entry) => !seen.has(entry.id) && (tokensFor(entry.id).seats.length || tokensFor(entry.id).owner)));
  // Lists hold the newest page and never private games: the other games this browser holds
  // tokens for are read by id (a snapshot carries what an entry of the list does).
  const listed = new Set([...games.map((entry) => entry.id), ...seen]);
  const others = heldIds().filter((id) => !listed.has(id)).slice(0, Math.max(0, 12 - mine.length));
  const read = await Promise.all(others.map((id) => getGame(id).catch(() => null)));
  mine.push(...read.filter((snap) => snap && snap.id));
  if (!mine.length) return null;
  return h("section", { "aria-labelledby": "continue-title" },
    h("h2", { id: "continue-title" }, "Continue"),
    h("ul", { class: "continue-list" }, mine.slice(0, 12).map((entry) =>
      h("li", { "data-id": entry.id }, h("a", { href: `/g/${encodeURIComponent(entry.id)}`, "data-link": true },
        describe(context.meta, entry))))));
}

/** Turns the text of a record file into the body of `POST /api/games`. */
export function recordRequest(text) {
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === "object") return { record: parsed };
  } catch (err) { /* not JSON: the game's text format */ }
  return { record: text };
}

/** A file picker that loads a record and opens the game; errors go to `errorLine`. */
export function loadRecordControl(context, errorLine) {
  const input = h("input", { type: "file", id: "load-record", accept: ".json,.txt,.rec,.record,text/plain,application/json" });
  input.addEventListener("change", async () => {
    const file = input.files && input.files[0];
    if (!file) return;
    errorLine.textContent = "";
    try {
      const created = await createGame(recordRequest(await file.text()));
      saveTokens(created.id, created);
      context.navigate(`/g/${created.id}`);
    } catch (err) {
      errorLine.textContent = `This record could not be loaded: ${err.message}`;
    }
    input.value = "";
  });
  return h("label", { class: "row" }, "Load a record (JSON or text):", input);
}

/** Draws the home screen into `context.main`. */
export async function showHome(context) {
  document.title = "Ludus";
  const errorLine = h("p", { class: "error", role: "alert" });
  replace(context.main,
    h("h1", {}, "Ludus: five abstract strategy games"),
    h("ul", { class: "games", style: "list-style:none;padding:0" },
      context.meta.games.map((game) => gameCard(context, game))),
    h("section", { "aria-labelledby": "load-title" },
      h("h2", { id: "load-title" }, "Load a game"), loadRecordControl(context, errorLine), errorLine));
  const section = await continueSection(context);
  if (section) context.main.insertBefore(section, context.main.children[1]);
}
