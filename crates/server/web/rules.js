// The rules of one game, as the server gives them (paragraphs of plain text), and its notation legend.

import { h, replace } from "./dom.js";

/** Paragraphs of `text` (separated by blank lines); indented or list-like blocks keep their lines. */
export function paragraphs(text) {
  return String(text || "").split(/\n\s*\n/).filter((block) => block.trim()).map((block) =>
    /^\s|\n\s*[-*•|]/.test(block) ? h("pre", {}, block) : h("p", {}, block.replace(/\s*\n\s*/g, " ")));
}

/** Draws the rules screen of game `id`. */
export function showRules(context, id) {
  const game = context.meta.games.find((entry) => entry.id === id);
  if (!game) {
    replace(context.main, h("p", { class: "error", role: "alert" }, `There is no game called "${id}"; the games are ${context.meta.games.map((g) => g.id).join(", ")}.`));
    return;
  }
  document.title = `${game.name} rules · Ludus`;
  replace(context.main,
    h("p", {}, h("a", { href: "/", "data-link": true }, "← All games")),
    h("h1", {}, `${game.name}: the rules`),
    h("div", { class: "rules-text" }, paragraphs(game.rules),
      game.legend ? [h("h2", {}, "Notation"), h("pre", { class: "legend" }, game.legend)] : null),
    h("p", {}, h("a", { class: "button primary", href: `/?setup=${game.id}`, "data-link": true }, `Play ${game.name}`)));
}
