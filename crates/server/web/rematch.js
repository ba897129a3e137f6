// The rematch at the end of a game between two accounts: "Rematch" for a signed-in player of
// it (the same game, options, clock and rating, seats swapped), the offer waiting with Cancel,
// the other side's offer with Accept and Decline, and a declined offer said so. Accepting opens
// the new game for both (the accepter from the answer, the other from the lobby socket).

import { h } from "./dom.js";
import { account } from "./session.js";
import { incomingChallenges, outgoingChallenges, declinedChallenges, rematch, accept, decline, withdraw } from "./challenges.js";
import { nameOf } from "./player_name.js";
import { openStartedGame } from "./started.js";

/** Runs `act` for the button; a refusal is kept on the screen and said in the panel. */
async function run(screen, act) {
  screen.rematchError = "";
  screen.rematchBusy = true;
  screen.drawSide();
  try {
    await act();
  } catch (err) {
    screen.rematchError = err.message;
  }
  screen.rematchBusy = false;
  screen.drawSide();
}

function button(screen, id, text, act, primary) {
  return h("button", { type: "button", id, class: primary ? "primary" : null, disabled: Boolean(screen.rematchBusy),
    onclick: () => run(screen, act) }, text);
}

/** The rematch panel of `screen`, or null when no rematch is open to this person. */
export function rematchPanel(screen) {
  const snap = screen.snap;
  const me = account();
  const seats = snap.seats || [];
  if (!snap.outcome || !me || seats.length !== 2 || !seats.every((seat) => seat.account)) return null;
  const mine = seats.find((seat) => seat.account.name === me.name);
  if (!mine) return null;
  const other = seats.find((seat) => seat !== mine).account.name;
  const of = (list) => list.find((c) => c.rematch_of === snap.id);
  const incoming = of(incomingChallenges());
  const outgoing = of(outgoingChallenges());
  const declined = of(declinedChallenges());
  let body;
  if (incoming) {
    body = [h("p", { id: "rematch-text" }, h("strong", {}, `${nameOf(incoming.from) || other} offers a rematch`),
      " (seats swapped)."),
    h("div", { class: "row" },
      button(screen, "accept-rematch", "Accept", async () => openStartedGame(screen.context.navigate, await accept(incoming.id)), true),
      button(screen, "decline-rematch", "Decline", () => decline(incoming.id)))];
  } else if (outgoing) {
    body = [h("p", { id: "rematch-text" }, `You offered ${other} a rematch; waiting for the answer.`),
      h("div", { class: "row" }, button(screen, "cancel-rematch", "Cancel", () => withdraw(outgoing.id)))];
  } else if (declined) {
    body = h("p", { id: "rematch-text" }, h("strong", {}, "Declined: "), `${other} declined the rematch.`);
  } else {
    body = h("div", { class: "row" },
      button(screen, "rematch", "Rematch", async () => {
        const answer = await rematch(snap.id);
        // Both offered at once: the server started the game already.
        if (answer && answer.game) openStartedGame(screen.context.navigate, answer);
      }, true),
      h("span", { class: "muted" }, `Play ${other} again, seats swapped.`));
  }
  return h("section", { class: `panel rematch${incoming ? " incoming" : ""}`, id: "rematch-panel", "aria-label": "Rematch" },
    body, screen.rematchError ? h("p", { class: "error", role: "alert", id: "rematch-error" }, screen.rematchError) : null);
}
