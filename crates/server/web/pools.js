// Quick pairing (`GET /api/pools`): one button per pool (a game and a clock); pressing it waits
// for the next person who presses the same, with a Cancel. Once paired, the lobby socket's
// `started` frame (or the join's own answer) opens the game.

import { h, replace, announce } from "./dom.js";
import { listPools, joinPool, leavePool } from "./people_api.js";
import { account } from "./session.js";
import { gameName, clockLabel, classLabel } from "./match_text.js";
import { openStartedGame } from "./started.js";

/** The pool this browser waits in, kept while the person moves between pages. */
let waitingIn = null;

function poolText(meta, pool) {
  return `${gameName(meta, pool.game)} ${clockLabel(pool.clock)}`;
}

/** The quick-pairing part of the lobby; answers `{element, refresh}`. */
export function poolsPart(context) {
  const box = h("div", { class: "pools", id: "pools" });
  const errorLine = h("p", { class: "error", role: "alert", id: "pools-error" });
  let pools = [];
  const draw = () => {
    const me = account();
    const waiting = waitingIn && pools.find((pool) => pool.id === waitingIn);
    if (waiting) {
      const cancel = h("button", { type: "button", id: "pool-cancel" }, "Cancel");
      cancel.addEventListener("click", async () => {
        cancel.disabled = true;
        try { await leavePool(waiting.id); } catch (err) { errorLine.textContent = err.message; }
        waitingIn = null;
        announce("You left the pool.");
        refresh();
      });
      replace(box, h("p", { class: "notice row pool-waiting", id: "pool-waiting", role: "status" },
        h("span", { class: "spinner", "aria-hidden": "true" }),
        h("span", {}, h("strong", {}, "Waiting… "), `for an opponent in ${poolText(context.meta, waiting)}. The game opens by itself.`),
        cancel));
      return;
    }
    // One row per game, its clocks side by side.
    const games = [...new Set(pools.map((pool) => pool.game))];
    replace(box, pools.length ? h("ul", { class: "pool-list" }, games.map((game) => h("li", { class: "pool-row" },
      h("span", { class: "pool-game" }, gameName(context.meta, game)),
      h("span", { class: "pool-buttons" }, pools.filter((pool) => pool.game === game).map((pool) => {
        const waiting = pool.waiting ? `${pool.waiting} waiting` : "nobody waiting";
        const button = h("button", { type: "button", class: "pool-button", "data-pool": pool.id, disabled: !me,
          title: me ? null : "Sign in to play someone",
          "aria-label": `${poolText(context.meta, pool)}, ${classLabel(pool.class)}: ${waiting}` },
        h("span", { class: "pool-clock" }, clockLabel(pool.clock)),
        h("span", { class: "pool-count" }, `${classLabel(pool.class)}${pool.waiting ? ` · ${waiting}` : ""}`));
        button.addEventListener("click", () => join(pool, button));
        return button;
      }))))) : h("p", { class: "muted" }, "No quick-pairing pool on this server."));
  };
  const join = async (pool, button) => {
    errorLine.textContent = "";
    button.disabled = true;
    try {
      const answer = await joinPool(pool.id);
      if (answer && answer.game) { openStartedGame(context.navigate, answer); return; }
      waitingIn = pool.id;
      announce(`Waiting for an opponent in ${poolText(context.meta, pool)}.`);
    } catch (err) {
      errorLine.textContent = err.message;
    }
    draw();
  };
  const refresh = async () => {
    try { pools = (await listPools()).pools || []; } catch (err) { errorLine.textContent = err.message; pools = []; }
    if (waitingIn && !pools.some((pool) => pool.id === waitingIn)) waitingIn = null;
    draw();
  };
  const element = h("section", { class: "pairing-part", "aria-labelledby": "pools-title" },
    h("h3", { id: "pools-title" }, "Quick pairing"),
    h("p", { class: "muted" }, "Press a game: you are paired with the next person who presses the same (rated)."),
    box, errorLine);
  return { element, refresh, started: () => { waitingIn = null; } };
}
