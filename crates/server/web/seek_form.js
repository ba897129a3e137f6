// "Create a seek": a game with its options, a clock, rated or casual, and an optional range of
// ratings allowed to accept (`POST /api/seeks`). The seek then shows in the open seeks for all.

import { h, announce } from "./dom.js";
import { postSeek } from "./people_api.js";
import { noteSeek } from "./lobby_socket.js";
import { matchFields } from "./match_fields.js";

function rangeField(id, label, placeholder) {
  return h("label", { for: id }, label,
    h("input", { id, name: id, type: "number", min: 0, max: 4000, step: 1, inputmode: "numeric", placeholder }));
}

/** The seek form of the lobby. */
export function seekForm(context) {
  const fields = matchFields(context.meta, "seek");
  const errorLine = h("p", { class: "error", role: "alert", id: "seek-error" });
  const done = h("p", { class: "done", role: "status", id: "seek-done" });
  const submit = h("button", { type: "submit", class: "primary", id: "seek-submit" }, "Post the seek");
  const form = h("form", { class: "seek-form", id: "seek-form", novalidate: true },
    fields.element,
    h("fieldset", { class: "range" }, h("legend", {}, "Opponent's rating (optional)"),
      h("div", { class: "row" }, rangeField("seek-min", "from ", "any"), rangeField("seek-max", "to ", "any"))),
    h("div", { class: "row" }, submit), errorLine, done);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    errorLine.textContent = "";
    done.textContent = "";
    submit.disabled = true;
    try {
      const request = fields.read(form);
      const low = form.querySelector("#seek-min").value.trim();
      const high = form.querySelector("#seek-max").value.trim();
      if (low || high) {
        const range = [low ? Number(low) : 0, high ? Number(high) : 4000];
        if (!range.every(Number.isFinite) || range[0] > range[1]) throw new Error("the rating range needs a lowest rating at most the highest");
        request.range = range;
      }
      const answer = await postSeek(request);
      noteSeek(answer && answer.seek);
      done.textContent = "Your seek is open: the game starts when someone accepts it.";
      announce(done.textContent);
    } catch (err) {
      errorLine.textContent = err.message;
    }
    submit.disabled = false;
  });
  return form;
}
