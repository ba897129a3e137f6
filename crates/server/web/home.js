// The home screen: the games with a summary and a picture of the board, "My games" (those
// this browser holds tokens for, and the signed-in account's from any browser; see my_games.js),
// and loading a record file (JSON or the game's text format).

import { h, replace } from "./dom.js";
import { createGame, saveTokens } from "./api.js";
import { drawBoard } from "./board.js";
import { myGamesSection } from "./my_games.js";

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

/** How many things there are, as a word for a sentence ("five"), or in digits past twelve. */
function countInWords(count) {
  const words = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
    "ten", "eleven", "twelve"];
  return words[count] ?? String(count);
}

/** Draws the home screen into `context.main`. */
export async function showHome(context) {
  document.title = "Ludus";
  const errorLine = h("p", { class: "error", role: "alert" });
  replace(context.main,
    h("h1", {}, `Ludus: ${countInWords(context.meta.games.length)} abstract strategy games`),
    h("ul", { class: "games", style: "list-style:none;padding:0" },
      context.meta.games.map((game) => gameCard(context, game))),
    h("section", { "aria-labelledby": "load-title" },
      h("h2", { id: "load-title" }, "Load a game"), loadRecordControl(context, errorLine), errorLine));
  const section = await myGamesSection(context);
  if (section) context.main.insertBefore(section, context.main.children[1]);
}
