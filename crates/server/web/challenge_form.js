// "Challenge a player": a name, a game with its options, a clock, rated or casual
// (`POST /api/challenges`); below it the challenges sent, waiting (with Cancel) or declined.
// The challenged person answers from the challenges under their page's header.

import { h, replace, announce } from "./dom.js";
import { challenge, outgoingChallenges, declinedChallenges, onChallenges, withdraw, dismiss } from "./challenges.js";
import { matchFields } from "./match_fields.js";
import { describeMatch } from "./match_text.js";
import { nameOf } from "./player_name.js";

function outgoingRow(context, item, errorLine) {
  const cancel = h("button", { type: "button", "data-cancel-challenge": item.id }, "Cancel");
  cancel.addEventListener("click", async () => {
    cancel.disabled = true;
    try { await withdraw(item.id); } catch (err) { errorLine.textContent = err.message; cancel.disabled = false; }
  });
  return h("li", { class: "challenge outgoing", "data-challenge": item.id },
    h("span", {}, h("strong", {}, "Waiting: "), `${nameOf(item.to)} has not answered yet · ${describeMatch(context.meta, item)}`),
    cancel);
}

function declinedRow(context, item) {
  const ok = h("button", { type: "button", "data-dismiss-challenge": item.id }, "OK");
  ok.addEventListener("click", () => dismiss(item.id));
  return h("li", { class: "challenge declined", "data-challenge": item.id },
    h("span", {}, h("strong", {}, "Declined: "), `${nameOf(item.declined_by || item.to)} declined your challenge`,
      item.game ? ` · ${describeMatch(context.meta, item)}` : ""), ok);
}

/** The challenge form and the challenges sent; answers `{element, leave}`. */
export function challengePart(context) {
  const fields = matchFields(context.meta, "challenge");
  const name = h("input", { id: "challenge-to", name: "challenge-to", type: "text", required: true, maxlength: 20,
    autocomplete: "off", autocapitalize: "none", spellcheck: "false" });
  const errorLine = h("p", { class: "error", role: "alert", id: "challenge-error" });
  const sent = h("ul", { class: "challenge-list", id: "challenges-sent", "aria-live": "polite" });
  const submit = h("button", { type: "submit", class: "primary", id: "challenge-submit" }, "Send the challenge");
  const form = h("form", { class: "challenge-form", id: "challenge-form", novalidate: true },
    h("div", { class: "option" }, h("label", { for: "challenge-to" }, h("strong", {}, "Player's name")), name),
    fields.element, h("div", { class: "row" }, submit), errorLine);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    errorLine.textContent = "";
    submit.disabled = true;
    try {
      const to = name.value.trim();
      if (!to) throw new Error("type the name of the player to challenge");
      await challenge({ to, ...fields.read(form) });
      announce(`Challenge sent to ${to}.`);
    } catch (err) {
      errorLine.textContent = err.message;
    }
    submit.disabled = false;
  });
  const draw = () => {
    const items = [...outgoingChallenges().filter((c) => !c.rematch_of).map((c) => outgoingRow(context, c, errorLine)),
      ...declinedChallenges().map((c) => declinedRow(context, c))];
    replace(sent, items);
    sent.hidden = !items.length;
  };
  const stop = onChallenges(draw);
  draw();
  const element = h("section", { class: "pairing-part", "aria-labelledby": "challenge-title" },
    h("h3", { id: "challenge-title" }, "Challenge a player"), sent, form);
  return { element, leave: stop };
}
