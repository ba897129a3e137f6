// The lobby (`/lobby`): playing someone (quick pairing, seeks, challenges: pairing.js), games
// waiting for an invited player (ask their creator for the link), games in progress (watch) and
// finished games (replay move by move). Names come from other
// people, so they are only ever set as text (dom.js `h`), never parsed as HTML.

import { h, replace } from "./dom.js";
import { getLobby } from "./api.js";
import { pairingSection } from "./pairing.js";

function gameName(meta, id) {
  const info = meta.games.find((game) => game.id === id);
  return info ? info.name : id;
}

function gameItem(meta, entry, kind) {
  const names = (entry.names || []).join(" vs ");
  const href = `/g/${encodeURIComponent(entry.id)}${kind === "finished" ? "?replay=0" : ""}`;
  const verb = { waiting: "Watch", playing: "Watch", finished: "Replay" }[kind];
  const free = (entry.free_seats || []).map((seat) => h("span", { class: "badge" },
    `seat ${seat} is free: ask for the link`));
  const state = entry.outcome ? entry.outcome.summary || entry.outcome.reason
    : entry.turn ? `${entry.turn} turn${entry.turn === 1 ? "" : "s"} played` : "no move yet";
  return h("li", { class: "lobby-game", "data-id": entry.id },
    h("div", { class: "lobby-info" },
      h("span", { class: "lobby-title" }, h("strong", {}, gameName(meta, entry.game)), " · ",
        h("span", { class: "lobby-names" }, names)),
      h("span", { class: "muted" }, state), entry.rated ? h("span", { class: "badge" }, "rated") : null, free),
    h("a", { class: "button", href, "data-link": true, "aria-label": `${verb}: ${gameName(meta, entry.game)}, ${names}` }, verb));
}

function group(meta, title, id, entries, kind, empty) {
  return h("section", { class: "panel lobby-group", "aria-labelledby": id, "data-group": kind },
    h("h2", { id }, title),
    entries.length ? h("ul", { class: "lobby-list" }, entries.map((entry) => gameItem(meta, entry, kind)))
      : h("p", { class: "muted" }, empty));
}

/** How often the lists are fetched again while the lobby is open. */
const REFRESH_MS = 5000;

/** The three lists; games left against the computer only when `showAbandoned`. */
function groups(meta, lobby, showAbandoned) {
  const keep = (entries) => (entries || []).filter((entry) => showAbandoned || !entry.abandoned);
  const hidden = (lobby.in_progress || []).length - keep(lobby.in_progress).length;
  return [
    group(meta, "Waiting for a player", "lobby-waiting", keep(lobby.waiting), "waiting",
      "No game is waiting for a player."),
    group(meta, "In progress", "lobby-playing", keep(lobby.in_progress), "playing",
      hidden ? `No game is being played (${hidden} left against the computer not shown).` : "No game is being played."),
    group(meta, "Finished", "lobby-finished", lobby.finished || [], "finished", "No game has finished yet."),
  ];
}

/** The lobby page; answers the function that leaves it. */
export async function showLobby(context) {
  document.title = "Lobby · Ludus";
  let lobby = await getLobby();
  const pairing = pairingSection(context);
  const lists = h("div", { id: "lobby-lists" });
  const toggle = h("input", { type: "checkbox", id: "show-abandoned" });
  const draw = () => replace(lists, groups(context.meta, lobby, toggle.checked));
  toggle.addEventListener("change", draw);
  replace(context.main,
    h("h1", {}, "Lobby"),
    pairing.element,
    h("h2", {}, "Games on this server"),
    h("p", { class: "muted" }, "Newest first, kept up to date. Private games are not listed; ",
      h("a", { href: "/", "data-link": true }, "start a game"), " and choose “invite a friend” for a seat."),
    h("label", { class: "check-line" }, toggle, " Show games against the computer that their player left"),
    lists);
  draw();
  // The lists follow the server by themselves; a failed fetch keeps the last ones.
  const timer = window.setInterval(async () => {
    try {
      lobby = await getLobby();
    } catch (err) {
      return;
    }
    const focused = lists.contains(document.activeElement) ? document.activeElement.getAttribute("href") : null;
    draw();
    if (focused) lists.querySelector(`a[href="${CSS.escape(focused)}"]`)?.focus();
  }, REFRESH_MS);
  return () => { window.clearInterval(timer); if (pairing.leave) pairing.leave(); };
}
