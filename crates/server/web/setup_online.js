// The set-up screen's options for play between browsers: a game left out of the lobby
// ("private, link only") and an optional clock, an initial time and an increment per seat,
// from presets or typed, or days per move (correspondence). They become `private` and `clock`
// in `POST /api/games` (docs/API.md).

import { h } from "./dom.js";

/** Clock presets: [label, initial minutes, increment seconds]. */
const PRESETS = [
  ["1 min + 0 s", 1, 0],
  ["3 min + 2 s", 3, 2],
  ["5 min + 0 s", 5, 0],
  ["10 min + 5 s", 10, 5],
  ["15 min + 10 s", 15, 10],
  ["30 min + 20 s", 30, 20],
];

/** The days per move a correspondence clock may give (the server's list). */
const DAYS = [1, 2, 3, 5, 7, 14];

function numberField(id, label, value, attrs) {
  return h("label", { for: id }, label,
    h("input", { id, name: id, type: "number", value, required: true, inputmode: "decimal", ...attrs }));
}

/**
 * The clock choice: a preset, none, or a custom initial time and increment; ids start with
 * `prefix` (`clock-preset`, `clock-minutes`, `clock-increment`). `none` is offered unless
 * `noneText` is null.
 */
export function clockControl(prefix = "clock", noneText = "No clock", chosen = "none") {
  const preset = h("select", { id: `${prefix}-preset`, name: `${prefix}-preset` },
    noneText ? h("option", { value: "none", selected: chosen === "none" }, noneText) : null,
    PRESETS.map(([label], i) => h("option", { value: String(i), selected: chosen === String(i) }, label)),
    h("option", { value: "custom" }, "Custom…"),
    h("optgroup", { label: "Correspondence" }, DAYS.map((days) =>
      h("option", { value: `days-${days}`, selected: chosen === `days-${days}` }, `${days} day${days === 1 ? "" : "s"} per move`))));
  const first = PRESETS[Number(chosen)] || PRESETS[2];
  const custom = h("div", { class: "row clock-custom", id: `${prefix}-custom`, hidden: true },
    numberField(`${prefix}-minutes`, "Minutes per player ", first[1], { min: 0.1, max: 10080, step: "any" }),
    numberField(`${prefix}-increment`, "Seconds added per move ", first[2], { min: 0, max: 604800, step: "any" }));
  preset.addEventListener("change", () => {
    custom.hidden = preset.value !== "custom";
    const picked = PRESETS[Number(preset.value)];
    if (picked) {
      custom.querySelector(`#${prefix}-minutes`).value = picked[1];
      custom.querySelector(`#${prefix}-increment`).value = picked[2];
    }
  });
  return h("div", { class: "clock-choice" },
    h("div", { class: "option" },
      h("label", { for: `${prefix}-preset` }, h("strong", {}, "Clock")),
      preset,
      h("span", { class: "help" }, "Each player's time, or days for each move; a player whose time runs out loses.")),
    custom);
}

/**
 * The clock chosen in `form` with `clockControl(prefix)`: `{initial_ms, increment_ms}`,
 * `{days_per_move}` or null; throws a one-line error for a typed time that is not a number.
 */
export function clockRequest(form, prefix = "clock") {
  const preset = form.querySelector(`#${prefix}-preset`).value;
  if (preset === "none") return null;
  if (preset.startsWith("days-")) return { days_per_move: Number(preset.slice(5)) };
  const minutes = Number(form.querySelector(`#${prefix}-minutes`).value);
  const seconds = Number(form.querySelector(`#${prefix}-increment`).value);
  if (!Number.isFinite(minutes) || minutes <= 0 || !Number.isFinite(seconds) || seconds < 0) {
    throw new Error("the clock needs a number of minutes above 0 and a number of seconds from 0");
  }
  return { initial_ms: Math.round(minutes * 60000), increment_ms: Math.round(seconds * 1000) };
}

/** The fieldset with the private checkbox and the clock choice. */
export function onlineOptions() {
  return h("fieldset", { class: "online-options" }, h("legend", {}, "Playing with other people"),
    h("div", { class: "option" },
      h("label", { for: "private" }, h("input", { type: "checkbox", id: "private", name: "private" }),
        " Private (link only)"),
      h("span", { class: "help" }, "Leave this game out of the lobby: only people with its link find it.")),
    clockControl());
}

/**
 * The `private` and `clock` fields of the create request from `form`; throws a one-line error
 * for a typed time that is not a number.
 */
export function onlineRequest(form) {
  const request = {};
  if (form.querySelector("#private").checked) request.private = true;
  const clock = clockRequest(form);
  if (clock) request.clock = clock;
  return request;
}

/** The seats marked "invite a friend": human seats whose token goes in an invitation link. */
export function invitedSeats(seats) {
  return seats.flatMap((seat, i) => (seat.player === "invite" ? [i + 1] : []));
}
