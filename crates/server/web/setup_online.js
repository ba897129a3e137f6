// The set-up screen's options for play between browsers: a game left out of the lobby
// ("private, link only") and an optional clock, an initial time and an increment per seat,
// from presets or typed. They become `private` and `clock` in `POST /api/games` (docs/API.md).

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

function numberField(id, label, value, attrs) {
  return h("label", { for: id }, label,
    h("input", { id, name: id, type: "number", value, required: true, inputmode: "decimal", ...attrs }));
}

/** The fieldset with the private checkbox and the clock choice. */
export function onlineOptions() {
  const preset = h("select", { id: "clock-preset", name: "clock-preset" },
    h("option", { value: "none" }, "No clock"),
    PRESETS.map(([label], i) => h("option", { value: String(i) }, label)),
    h("option", { value: "custom" }, "Custom…"));
  const custom = h("div", { class: "row clock-custom", id: "clock-custom", hidden: true },
    numberField("clock-minutes", "Minutes per player ", 5, { min: 0.1, max: 10080, step: "any" }),
    numberField("clock-increment", "Seconds added per move ", 0, { min: 0, max: 604800, step: "any" }));
  preset.addEventListener("change", () => {
    custom.hidden = preset.value !== "custom";
    const chosen = PRESETS[Number(preset.value)];
    if (chosen) {
      custom.querySelector("#clock-minutes").value = chosen[1];
      custom.querySelector("#clock-increment").value = chosen[2];
    }
  });
  return h("fieldset", { class: "online-options" }, h("legend", {}, "Playing with other people"),
    h("div", { class: "option" },
      h("label", { for: "private" }, h("input", { type: "checkbox", id: "private", name: "private" }),
        " Private (link only)"),
      h("span", { class: "help" }, "Leave this game out of the lobby: only people with its link find it.")),
    h("div", { class: "option" },
      h("label", { for: "clock-preset" }, h("strong", {}, "Clock")),
      preset,
      h("span", { class: "help" }, "Each player's time; a player whose time runs out loses.")),
    custom);
}

/**
 * The `private` and `clock` fields of the create request from `form`; throws a one-line error
 * for a typed time that is not a number.
 */
export function onlineRequest(form) {
  const request = {};
  if (form.querySelector("#private").checked) request.private = true;
  const preset = form.querySelector("#clock-preset").value;
  if (preset === "none") return request;
  const minutes = Number(form.querySelector("#clock-minutes").value);
  const seconds = Number(form.querySelector("#clock-increment").value);
  if (!Number.isFinite(minutes) || minutes <= 0 || !Number.isFinite(seconds) || seconds < 0) {
    throw new Error("the clock needs a number of minutes above 0 and a number of seconds from 0");
  }
  request.clock = { initial_ms: Math.round(minutes * 60000), increment_ms: Math.round(seconds * 1000) };
  return request;
}

/** The seats marked "invite a friend": human seats whose token goes in an invitation link. */
export function invitedSeats(seats) {
  return seats.flatMap((seat, i) => (seat.player === "invite" ? [i + 1] : []));
}
