// `/leaderboard`: the best settled ratings of a game and clock class (two select boxes; the
// choice stays in the address), names linking to the profiles. Provisional ratings are left out
// by the server.

import { h, replace } from "./dom.js";
import { getLeaderboard } from "./people_api.js";
import { playerName } from "./player_name.js";
import { gameName, classLabel } from "./match_text.js";

const CLASSES = ["fast", "slow", "correspondence"];

function table(board) {
  const players = board.players || [];
  if (!players.length) {
    return h("p", { class: "muted", id: "leaderboard-empty" },
      "No settled rating here yet: a rating shows once it is no longer provisional.");
  }
  return h("div", { class: "table-scroll" }, h("table", { class: "leaderboard", id: "leaderboard" },
    h("caption", { class: "visually-hidden" }, "Leaderboard"),
    h("thead", {}, h("tr", {}, ["#", "Player", "Rating", "Games"].map((head) => h("th", { scope: "col" }, head)))),
    h("tbody", {}, players.map((player, i) => h("tr", { "data-player": player.name },
      h("td", {}, String(i + 1)),
      h("td", {}, playerName({ name: player.name, bot: player.bot }, { rating: false })),
      h("td", {}, player.shown || String(Math.round(player.rating))),
      h("td", {}, String(player.games ?? "")))))));
}

/** Draws the leaderboard for the address's `game` and `class`. */
export async function showLeaderboard(context) {
  document.title = "Leaderboard · Ludus";
  const query = new URLSearchParams(location.search);
  const games = context.meta.games.map((game) => game.id);
  const game = games.includes(query.get("game")) ? query.get("game") : games[0];
  const cls = CLASSES.includes(query.get("class")) ? query.get("class") : CLASSES[0];
  const gameSelect = h("select", { id: "board-game", name: "game" },
    games.map((id) => h("option", { value: id, selected: id === game }, gameName(context.meta, id))));
  const classSelect = h("select", { id: "board-class", name: "class" },
    CLASSES.map((id) => h("option", { value: id, selected: id === cls }, classLabel(id))));
  const holder = h("div", { id: "leaderboard-holder", "aria-live": "polite" }, h("p", { class: "loading" }, "Loading…"));
  const errorLine = h("p", { class: "error", role: "alert" });
  const load = async () => {
    const path = `/leaderboard?game=${encodeURIComponent(gameSelect.value)}&class=${encodeURIComponent(classSelect.value)}`;
    history.replaceState(null, "", path);
    errorLine.textContent = "";
    try {
      replace(holder, table(await getLeaderboard(gameSelect.value, classSelect.value)));
    } catch (err) {
      replace(holder);
      errorLine.textContent = err.message;
    }
  };
  gameSelect.addEventListener("change", load);
  classSelect.addEventListener("change", load);
  replace(context.main,
    h("h1", {}, "Leaderboard"),
    h("form", { class: "row board-pick", onsubmit: (event) => event.preventDefault() },
      h("label", { for: "board-game" }, "Game "), gameSelect,
      h("label", { for: "board-class" }, "Clock "), classSelect),
    h("p", { class: "muted" }, "Clock classes: fast under 10 minutes a player (initial time + 40 × increment), "
      + "slow under a day, correspondence beyond or without a clock."),
    holder, errorLine);
  await load();
}
