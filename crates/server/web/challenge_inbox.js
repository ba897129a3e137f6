// Under the header on every page, for the signed-in person: the challenges sent to them, live,
// each with Accept and Decline, and a line for each challenge of theirs that was declined. A
// rematch offer of the game on screen is answered in that game's summary instead.

import { h, replace, announce } from "./dom.js";
import { incomingChallenges, declinedChallenges, onChallenges, accept, decline, dismiss, forget } from "./challenges.js";
import { describeMatch } from "./match_text.js";
import { playerName, asPlayer, nameOf } from "./player_name.js";
import { openStartedGame } from "./started.js";

/** The game on screen, if any: its rematch offers belong to its own page. */
function shownGame() {
  const parts = location.pathname.split("/");
  return parts[1] === "g" ? decodeURIComponent(parts[2] || "") : null;
}

function incomingItem(meta, navigate, challenge, errorLine) {
  const what = describeMatch(meta, challenge);
  const answer = async (yes, button) => {
    errorLine.textContent = "";
    button.disabled = true;
    try {
      if (yes) openStartedGame(navigate, await accept(challenge.id));
      else { await decline(challenge.id); announce("Challenge declined."); }
    } catch (err) {
      button.disabled = false;
      errorLine.textContent = `${err.message}`;
      if (err.status === 404 || err.status === 409) forget(challenge.id);
    }
  };
  const yes = h("button", { type: "button", class: "primary", "data-accept-challenge": challenge.id }, "Accept");
  const no = h("button", { type: "button", "data-decline-challenge": challenge.id }, "Decline");
  yes.addEventListener("click", () => answer(true, yes));
  no.addEventListener("click", () => answer(false, no));
  return h("li", { class: "challenge incoming", "data-challenge": challenge.id },
    h("span", {}, playerName(asPlayer(challenge.from)), challenge.rematch_of ? " offers a rematch: " : " challenges you: ",
      h("span", { class: "challenge-what" }, what)),
    h("span", { class: "row" }, yes, no));
}

function declinedItem(challenge) {
  const who = nameOf(challenge.declined_by || challenge.to) || "The other player";
  const ok = h("button", { type: "button", "data-dismiss-challenge": challenge.id, "aria-label": "Dismiss" }, "OK");
  ok.addEventListener("click", () => dismiss(challenge.id));
  return h("li", { class: "challenge declined", "data-challenge": challenge.id, role: "status" },
    h("span", {}, h("strong", {}, "Declined: "), `${who} declined your ${challenge.rematch_of ? "rematch" : "challenge"}.`), ok);
}

/** Keeps `#challenge-inbox` drawn from the challenges held. */
export function startInbox(meta, navigate) {
  const box = document.getElementById("challenge-inbox");
  if (!box) return;
  const errorLine = h("p", { class: "error", role: "alert" });
  const draw = () => {
    const here = shownGame();
    const incoming = incomingChallenges().filter((c) => !(c.rematch_of && c.rematch_of === here));
    // The lobby's challenge list says declined challenges; a game's page says its own rematch.
    const declined = location.pathname === "/lobby" ? []
      : declinedChallenges().filter((c) => !(c.rematch_of && c.rematch_of === here));
    box.hidden = !incoming.length && !declined.length && !errorLine.textContent;
    replace(box, incoming.length || declined.length ? h("h2", { class: "visually-hidden" }, "Challenges") : null,
      h("ul", { class: "challenge-list" },
        incoming.map((c) => incomingItem(meta, navigate, c, errorLine)), declined.map(declinedItem)),
      errorLine);
  };
  onChallenges(draw);
  document.addEventListener("ludus:route", draw);
  draw();
}
