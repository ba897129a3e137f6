// The open seeks, live over the lobby socket without a reload: who seeks (name, rating, BOT
// mark), the game, its clock, rated or casual and the rating range; "Accept" for the others'
// seeks, "Cancel" for one's own. Accepting a two-seat seek opens the game at once.

import { h, replace, announce } from "./dom.js";
import { acceptSeek, cancelSeek } from "./people_api.js";
import { account } from "./session.js";
import { openSeeks, listen, dropSeek, socketState } from "./lobby_socket.js";
import { describeMatch } from "./match_text.js";
import { playerName, asPlayer, nameOf } from "./player_name.js";
import { openStartedGame } from "./started.js";

function optionsText(seek) {
  const entries = Object.entries(seek.options || {});
  return entries.length ? entries.map(([key, value]) => `${key} ${value}`).join(", ") : "";
}

function seekRow(context, seek, errorLine) {
  const me = account();
  const mine = me && nameOf(seek.by) === me.name;
  const joined = Array.isArray(seek.joined) ? seek.joined : [];
  const seats = Number(seek.seats) || 2;
  const iJoined = me && joined.includes(me.name);
  let button;
  if (mine) {
    button = h("button", { type: "button", "data-cancel-seek": seek.id }, "Cancel");
    button.addEventListener("click", async () => {
      button.disabled = true;
      try { await cancelSeek(seek.id); dropSeek(seek.id); announce("Your seek is canceled."); } catch (err) {
        errorLine.textContent = err.message;
        button.disabled = false;
      }
    });
  } else {
    button = h("button", { type: "button", class: "primary", "data-accept-seek": seek.id, disabled: !me || iJoined,
      title: me ? null : "Sign in to accept a seek",
      "aria-label": `Accept: ${nameOf(seek.by)}, ${describeMatch(context.meta, seek)}` }, iJoined ? "Joined" : "Accept");
    button.addEventListener("click", async () => {
      errorLine.textContent = "";
      button.disabled = true;
      try {
        const answer = await acceptSeek(seek.id);
        if (answer && answer.game) openStartedGame(context.navigate, answer);
        else announce("Joined: the game starts when every seat is taken.");
      } catch (err) {
        errorLine.textContent = err.status === 409 ? `Too late: ${err.message}` : err.message;
        if (err.status === 409 || err.status === 404) dropSeek(seek.id);
        else button.disabled = false;
      }
    });
  }
  const range = Array.isArray(seek.range) ? `ratings ${seek.range[0]}–${seek.range[1]}` : "";
  const extra = [optionsText(seek), range, seats > 2 ? `${joined.length + 1} of ${seats} seats taken` : ""].filter(Boolean);
  return h("li", { class: `seek${mine ? " mine" : ""}`, "data-seek": seek.id },
    h("div", { class: "seek-info" },
      playerName(asPlayer(seek.by)), mine ? h("span", { class: "badge" }, "your seek") : null,
      h("span", { class: "seek-what" }, describeMatch(context.meta, seek)),
      extra.length ? h("span", { class: "muted seek-extra" }, extra.join(" · ")) : null),
    button);
}

/** The open seeks list of the lobby; answers `{element, leave}`. */
export function seeksPart(context) {
  const list = h("div", { id: "seek-list", "aria-live": "polite" });
  const live = h("span", { class: "muted live-state", id: "seeks-live" });
  const errorLine = h("p", { class: "error", role: "alert", id: "seeks-error" });
  const draw = () => {
    const seeks = openSeeks();
    live.textContent = socketState() === "open" ? "live" : socketState() === "reconnecting" ? "reconnecting…" : "connecting…";
    replace(list, seeks.length
      ? h("ul", { class: "seek-list" }, seeks.map((seek) => seekRow(context, seek, errorLine)))
      : h("p", { class: "muted", id: "no-seeks" }, "No open seek: create one, or press a quick-pairing game."));
  };
  const stop = listen((frame) => {
    if (["seeks", "seek", "unseek", "state"].includes(frame.type)) draw();
  });
  draw();
  const element = h("section", { class: "pairing-part", "aria-labelledby": "seeks-title" },
    h("h3", { id: "seeks-title" }, "Open seeks ", live), list, errorLine);
  return { element, leave: stop, redraw: draw };
}
