// The set-up screen: every rules option with its description and default, and for each seat a
// person here ("me"), a friend invited by link, or a computer level 1–5, with a name; then the
// options for play between browsers (setup_online.js). The number of seats of a game with a range
// of seats is its `players` option (docs/API.md), so changing that option redraws the seat rows.

import { h, replace } from "./dom.js";
import { createGame, saveTokens } from "./api.js";
import { onlineOptions, onlineRequest, invitedSeats } from "./setup_online.js";
import { pieceIcon } from "./pieces.js";

const DEFAULT_LEVEL = 3;

/** The control of rules option `option` with its help line; ids start with `prefix`. */
export function optionControl(option, onChange, prefix = "opt") {
  const id = `${prefix}-${option.key}`;
  const values = option.values || {};
  let control;
  if (values.kind === "choice") {
    control = h("select", { id, name: option.key },
      values.choices.map((choice, i) => h("option", { value: choice, selected: String(choice) === String(option.default) },
        (values.labels || [])[i] || choice)));
  } else if (values.kind === "range") {
    control = h("input", { id, name: option.key, type: "number", min: values.min, max: values.max,
      step: values.step || 1, value: option.default, required: true, inputmode: "numeric" });
  } else {
    control = h("input", { id, name: option.key, type: "checkbox", checked: Boolean(option.default) });
  }
  control.addEventListener("change", onChange);
  const range = values.kind === "range" ? ` (${values.min}–${values.max})` : "";
  // The default as the person reads it: the choice's label, "on"/"off" for a flag.
  const index = values.kind === "choice" ? values.choices.findIndex((c) => String(c) === String(option.default)) : -1;
  const shown = index >= 0 ? (values.labels || values.choices)[index]
    : typeof option.default === "boolean" ? (option.default ? "on" : "off") : String(option.default);
  return h("div", { class: "option" },
    h("label", { for: id }, h("strong", {}, option.label || option.key), range),
    control,
    h("span", { class: "help" }, `${option.description} · default: ${shown}`));
}

/** The value of `option` as chosen in `form`. */
export function optionValue(form, option) {
  const control = form.querySelector(`[name="${CSS.escape(option.key)}"]`);
  if (!control) return option.default;
  if (control.type === "checkbox") return control.checked;
  if (control.type === "number") return Number(control.value);
  return control.value;
}

function seatCount(game, options) {
  if (game.seats.min === game.seats.max) return game.seats.min;
  const players = Number(options.players);
  return Number.isInteger(players) && players >= game.seats.min && players <= game.seats.max ? players : game.seats.min;
}

/**
 * "Seat 1 · Dark, moves first" with the side's piece: from the game's line-up for this many
 * players; who moves first only while the other options are their defaults (an option may change it).
 */
function seatTitle(game, count, seat, defaults) {
  const lineup = (game.lineups || []).find((entry) => entry.players === count);
  const side = lineup && (lineup.seats || []).find((entry) => entry.seat === seat);
  if (!side) return h("span", { class: "seat-title" }, `Seat ${seat}`);
  const piece = { owner: seat, hue: side.hue, kind: String(seat), label: null, marked: false };
  const first = defaults && lineup.first === seat ? ", moves first" : "";
  return h("span", { class: "seat-title", "data-seat-title": seat }, pieceIcon(game.id, piece, 22),
    ` Seat ${seat} · ${side.side}${first}`);
}

function seatRow(meta, seat, saved, title) {
  const kind = h("select", { id: `seat-${seat}-player`, name: `seat-${seat}-player`, "aria-label": `Seat ${seat} player` },
    h("option", { value: "human", selected: saved.player === "human" }, "Person: me, on this screen"),
    h("option", { value: "invite", selected: saved.player === "invite" }, "Person: invite a friend (a link)"),
    meta.levels.map((level) => h("option", { value: `ai:${level.level}`, selected: saved.player === `ai:${level.level}`,
      title: level.about }, `Computer level ${level.level} (${level.name})`)));
  const name = h("input", { id: `seat-${seat}-name`, name: `seat-${seat}-name`, type: "text", maxlength: 40,
    placeholder: "name (optional)", value: saved.name || "", "aria-label": `Seat ${seat} name`, autocomplete: "off" });
  return h("div", { class: "seat-row" }, title, kind, name);
}

function readSeats(form, count) {
  const seats = [];
  for (let seat = 1; seat <= count; seat += 1) {
    const player = form.querySelector(`[name="seat-${seat}-player"]`);
    const name = form.querySelector(`[name="seat-${seat}-name"]`);
    seats.push({ player: player ? player.value : (seat === 1 ? "human" : `ai:${DEFAULT_LEVEL}`), name: name ? name.value.trim() : "" });
  }
  return seats;
}

/** Draws the set-up screen of game `id`. */
export function showSetup(context, id) {
  const game = context.meta.games.find((entry) => entry.id === id);
  if (!game) throw new Error(`there is no game called "${id}"; the games are ${context.meta.games.map((g) => g.id).join(", ")}`);
  document.title = `New ${game.name} · Ludus`;
  const errorLine = h("p", { class: "error", role: "alert" });
  const seatsBox = h("fieldset", {}, h("legend", {}, "Players"));
  const form = h("form", { class: "setup", novalidate: true });
  const readOptions = () => Object.fromEntries(game.options.map((option) => [option.key, optionValue(form, option)]));
  let seats = [];
  const drawSeats = () => {
    const options = readOptions();
    const count = seatCount(game, options);
    const defaults = game.options.every((option) => option.key === "players"
      || String(options[option.key]) === String(option.default));
    seats = readSeats(form, Math.max(count, seats.length));
    // Rows already there stay (only a changed title is replaced): an option's change fires when
    // its field loses the focus, often to the press on a seat's menu, which a new row would swallow.
    const rows = [...seatsBox.querySelectorAll(".seat-row")];
    seatsBox.querySelector("legend").textContent = `Players (${count})`;
    Array.from({ length: count }, (_, i) => {
      const title = seatTitle(game, count, i + 1, defaults);
      if (!rows[i]) seatsBox.append(seatRow(context.meta, i + 1, seats[i], title));
      else if (!rows[i].firstChild.isEqualNode(title)) rows[i].replaceChild(title, rows[i].firstChild);
    });
    rows.slice(count).forEach((row) => row.remove());
  };
  const optionsBox = h("fieldset", {}, h("legend", {}, "Rules options"),
    game.options.length ? game.options.map((option) => optionControl(option, drawSeats)) : h("p", {}, "This game has no options."));
  const start = h("button", { type: "submit", class: "primary", id: "start-game" }, "Start the game");
  replace(form, optionsBox, seatsBox, onlineOptions(), h("div", { class: "row" }, start,
    h("a", { href: `/?rules=${game.id}`, "data-link": true }, "Read the rules")), errorLine);
  drawSeats();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    errorLine.textContent = "";
    const options = readOptions();
    const chosen = readSeats(form, seatCount(game, options));
    start.disabled = true;
    try {
      const invite = invitedSeats(chosen);
      const created = await createGame({ game: game.id, options,
        players: chosen.map((seat) => (seat.player === "invite" ? "human" : seat.player)),
        names: chosen.map((seat) => seat.name), ...(invite.length ? { invite } : {}), ...onlineRequest(form) });
      saveTokens(created.id, created);
      context.navigate(`/g/${created.id}`);
    } catch (err) {
      errorLine.textContent = err.message;
      start.disabled = false;
    }
  });
  replace(context.main, h("p", {}, h("a", { href: "/", "data-link": true }, "← All games")),
    h("h1", {}, `New game of ${game.name}`), h("p", { class: "muted" }, game.summary), form);
}
