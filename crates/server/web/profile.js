// `/@/{name}`: a player's profile: the name (BOT mark), the profile text (as text), per game and
// clock class the rating ("1500?" while provisional) with wins, draws and losses and the rating
// history plotted, and the recent games with links.

import { h, replace } from "./dom.js";
import { getPlayer } from "./people_api.js";
import { botBadge } from "./player_name.js";
import { gameName, classLabel, ratedLabel } from "./match_text.js";
import { ratingChart } from "./rating_chart.js";

const RESULTS = { win: "won", won: "won", loss: "lost", lost: "lost", draw: "drawn", drawn: "drawn" };

/** "won", "lost", "drawn" or "in progress" for the profile's player in a recent game. */
function resultOf(game) {
  if (game.result) return RESULTS[game.result] || String(game.result);
  if (!game.outcome) return "in progress";
  if (!game.outcome.winner) return "drawn";
  return game.outcome.winner === game.seat ? "won" : "lost";
}

/** The other players' names of a recent game. */
function opponentsOf(game) {
  if (Array.isArray(game.opponents)) return game.opponents;
  return (game.names || []).filter((_, i) => i + 1 !== game.seat);
}

function ratingsTable(meta, ratings) {
  return h("table", { class: "ratings-table", id: "ratings" },
    h("thead", {}, h("tr", {}, ["Game", "Clock", "Rating"].map((head) => h("th", { scope: "col" }, head)),
      h("th", { scope: "col" }, h("abbr", { title: "won / drawn / lost" }, "W / D / L")))),
    h("tbody", {}, ratings.map((entry) => h("tr", { "data-rating": `${entry.game}-${entry.class}` },
      h("th", { scope: "row" }, gameName(meta, entry.game)),
      h("td", {}, classLabel(entry.class)),
      h("td", { class: "rating-value", title: entry.provisional ? "provisional: fewer games than a settled rating needs" : null },
        entry.shown || String(Math.round(entry.rating))),
      h("td", { class: "wdl", "aria-label": `won ${entry.wins || 0}, drawn ${entry.draws || 0}, lost ${entry.losses || 0}` },
        `${entry.wins || 0} / ${entry.draws || 0} / ${entry.losses || 0}`)))));
}

function recentList(meta, recent) {
  if (!recent.length) return h("p", { class: "muted" }, "No game yet.");
  return h("ul", { class: "recent-games", id: "recent-games" }, recent.map((game) => {
    const against = opponentsOf(game).join(", ");
    const result = resultOf(game);
    return h("li", { "data-id": game.id },
      h("a", { href: `/g/${encodeURIComponent(game.id)}${game.outcome ? "?replay=0" : ""}`, "data-link": true },
        `${gameName(meta, game.game)}${against ? ` against ${against}` : ""}`),
      h("span", { class: "muted" }, ` · ${result} · ${ratedLabel(game.rated)}`));
  }));
}

/** Draws the profile of `name`. */
export async function showProfile(context, name) {
  document.title = `${name} · Ludus`;
  let player;
  try {
    player = await getPlayer(name);
  } catch (err) {
    if (err.status !== 404) throw err;
    replace(context.main, h("h1", {}, "No such player"),
      h("p", { class: "error", role: "alert" }, err.message),
      h("p", {}, h("a", { href: "/leaderboard", "data-link": true }, "The leaderboard")));
    return;
  }
  const ratings = player.ratings || [];
  const since = Number(player.created_ms) ? `Playing here since ${new Date(Number(player.created_ms)).toLocaleDateString()}.` : "";
  replace(context.main,
    h("h1", { id: "profile-name" }, h("span", { class: "player-link" }, player.name), " ", botBadge(player.bot)),
    since ? h("p", { class: "muted" }, since) : null,
    player.about ? h("p", { class: "about panel", id: "profile-about" }, player.about) : null,
    h("section", { "aria-labelledby": "ratings-title" },
      h("h2", { id: "ratings-title" }, "Ratings"),
      ratings.length ? h("div", { class: "table-scroll" }, ratingsTable(context.meta, ratings))
        : h("p", { class: "muted" }, "No rated game yet."),
      h("p", { class: "muted" }, "A rating with a question mark (1500?) is provisional: it settles after a few rated games."),
      h("div", { class: "charts" }, ratings.filter((entry) => (entry.history || []).length).map((entry) => {
        const title = `${gameName(context.meta, entry.game)}, ${classLabel(entry.class)}`;
        return h("section", { class: "panel chart-panel", "data-chart": `${entry.game}-${entry.class}` },
          h("h3", {}, `${title}: ${entry.shown || Math.round(entry.rating)}`), ratingChart(entry.history, `Rating history, ${title}`));
      }))),
    h("section", { "aria-labelledby": "recent-title" },
      h("h2", { id: "recent-title" }, "Recent games"), recentList(context.meta, player.recent || [])));
}
