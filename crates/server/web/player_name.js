// How the page shows a player with an account: the name (a link to `/@/NAME`), a "BOT" mark for
// bot accounts (in words, never colour alone) and the rating as the server shows it ("1500?"
// while provisional). Names are set as text only.

import { h } from "./dom.js";

/** The name of a player given as a name or as `{name, bot, rating}`. */
export function nameOf(player) {
  return typeof player === "string" ? player : (player && player.name) || "";
}

/** A player given as a name or as an object, as `{name, bot, rating}`. */
export function asPlayer(player) {
  return typeof player === "string" ? { name: player, bot: false } : player || { name: "", bot: false };
}

/** The address of `name`'s profile. */
export function profilePath(name) {
  return `/@/${encodeURIComponent(name)}`;
}

/** The "BOT" mark, or null for a person. */
export function botBadge(bot) {
  return bot ? h("abbr", { class: "bot-mark", title: "a bot: a program playing through the API" }, "BOT") : null;
}

/**
 * `player` is `{name, bot, rating?}`; `link` (default true) makes the name a link to the profile.
 * Answers an inline element: "ana BOT (1500?)".
 */
export function playerName(player, { link = true, rating = true } = {}) {
  const name = link
    ? h("a", { class: "player-link", href: profilePath(player.name), "data-link": true }, player.name)
    : h("span", { class: "player-link" }, player.name);
  const shown = rating && player.rating !== undefined && player.rating !== null && player.rating !== ""
    ? h("span", { class: "rating", title: String(player.rating).endsWith("?") ? "provisional rating" : "rating" },
      `(${player.rating})`)
    : null;
  return h("span", { class: "player", "data-player": player.name }, name, botBadge(player.bot), shown);
}
