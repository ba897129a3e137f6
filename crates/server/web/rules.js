// The rules of one game as the server gives them (plain text that reads as Markdown: paragraphs,
// `- ` list items, `code`, **bold**, # headings), and its notation legend. Built as DOM nodes,
// never as HTML, so nothing in the text is run.

import { h, replace } from "./dom.js";

/** Inline marks of one line: `code` and **bold**; the rest is text. */
function inline(text) {
  return text.split(/(`[^`]+`|\*\*[^*]+\*\*)/).filter(Boolean).map((part) => {
    if (part.startsWith("`") && part.endsWith("`") && part.length > 1) return h("code", {}, part.slice(1, -1));
    if (part.startsWith("**") && part.endsWith("**") && part.length > 3) return h("strong", {}, part.slice(2, -2));
    return part;
  });
}

/** One block (lines without a blank line): a heading, a paragraph, list items, or a mix. */
function block(lines) {
  const nodes = [];
  let paragraph = [];
  let items = [];
  const flush = () => {
    if (paragraph.length) nodes.push(h("p", {}, inline(paragraph.join(" "))));
    if (items.length) nodes.push(h("ul", {}, items.map((item) => h("li", {}, inline(item)))));
    paragraph = [];
    items = [];
  };
  for (const raw of lines) {
    const line = raw.trim();
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      nodes.push(h(`h${Math.min(heading[1].length + 1, 4)}`, {}, inline(heading[2])));
    } else if (/^[-*•]\s+/.test(line)) {
      if (paragraph.length) { const keep = items; items = []; flush(); items = keep; }
      items.push(line.replace(/^[-*•]\s+/, ""));
    } else if (items.length) {
      items[items.length - 1] += ` ${line}`;
    } else {
      paragraph.push(line);
    }
  }
  flush();
  return nodes;
}

/** The text as headings, paragraphs and lists. */
export function markdown(text) {
  return String(text || "").split(/\n\s*\n/).filter((part) => part.trim()).map((part) => block(part.split("\n")));
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
    h("div", { class: "rules-text" }, markdown(game.rules),
      game.legend ? [h("h2", {}, "Notation"), markdown(game.legend)] : null),
    h("p", {}, h("a", { class: "button primary", href: `/?setup=${game.id}`, "data-link": true }, `Play ${game.name}`)));
}
