// The fields a seek and a challenge share: the game, its rules options as the set-up screen
// shows them (redrawn when the game changes), the clock, and rated or casual. Ids start with a
// prefix, so two such forms live on one page.

import { h, replace } from "./dom.js";
import { optionControl, optionValue } from "./setup.js";
import { clockControl, clockRequest } from "./setup_online.js";

/** The game of `meta` named `id`. */
function info(meta, id) {
  return meta.games.find((game) => game.id === id) || meta.games[0];
}

/**
 * Builds the fields; answers `{element, read(form)}`, where `read` gives `{game, options, clock,
 * rated}` for the request (throwing a one-line error for a bad clock).
 */
export function matchFields(meta, prefix, { clock = "2" } = {}) {
  const gameSelect = h("select", { id: `${prefix}-game`, name: `${prefix}-game` },
    meta.games.map((game) => h("option", { value: game.id }, game.name)));
  const optionsBox = h("div", { class: "match-options", id: `${prefix}-options` });
  const drawOptions = () => {
    const game = info(meta, gameSelect.value);
    const shown = game.options;
    replace(optionsBox, shown.length
      ? h("details", {}, h("summary", {}, `Rules options of ${game.name} (${shown.length})`),
        shown.map((option) => optionControl(option, () => {}, `${prefix}-opt`)))
      : null);
  };
  gameSelect.addEventListener("change", drawOptions);
  drawOptions();
  const rated = h("fieldset", { class: "rated-choice" }, h("legend", {}, "Rating"),
    h("label", { for: `${prefix}-rated` }, h("input", { type: "radio", name: `${prefix}-rated`, id: `${prefix}-rated`,
      value: "rated", checked: true }), " Rated"),
    h("label", { for: `${prefix}-casual` }, h("input", { type: "radio", name: `${prefix}-rated`, id: `${prefix}-casual`,
      value: "casual" }), " Casual"));
  const element = h("div", { class: "match-fields" },
    h("div", { class: "option" }, h("label", { for: `${prefix}-game` }, h("strong", {}, "Game")), gameSelect),
    optionsBox,
    clockControl(`${prefix}-clock`, "No clock (correspondence)", clock),
    rated);
  const read = (form) => {
    const game = info(meta, gameSelect.value);
    // Only the options changed from their defaults travel: a seek reads "Qawale" unless changed.
    const options = Object.fromEntries(game.options
      .map((option) => [option.key, optionValue(optionsBox, option)])
      .filter(([key, value]) => value !== undefined && String(value) !== String(game.options.find((o) => o.key === key).default)));
    return { game: game.id, options, clock: clockRequest(form, `${prefix}-clock`),
      rated: form.querySelector(`#${prefix}-rated`).checked };
  };
  return { element, read };
}
