// The side panel of the game screen: seats with their hands, clocks and presence, the thinking
// indicator, the evaluation bar with its legend and the computer's line, the move history, and
// the game-over summary.

import { h } from "./dom.js";
import { pieceIcon } from "./pieces.js";
import { recordUrl } from "./api.js";
import { clockBadge, flagLine } from "./clocks.js";
import { playerName } from "./player_name.js";
import { ratingChanges } from "./rating_change.js";

/** "Ana (Dark)" for seat `seat` (1-based) of snapshot `snap`. */
export function seatLabel(snap, seat) {
  const entry = (snap.seats || []).find((s) => s.seat === seat);
  if (!entry) return `Seat ${seat}`;
  return entry.side && entry.side !== entry.name ? `${entry.name} (${entry.side})` : entry.name;
}

function seatHue(snap, seat) {
  const entry = snap.view.seats.find((s) => s.seat === seat);
  return entry ? entry.hue : "Neutral";
}

function handOf(snap, seat) {
  const hand = (snap.view.hands || []).find((entry) => entry.seat === seat);
  if (!hand || !hand.pieces.length) return null;
  return h("span", { class: "hand" }, "in hand:", hand.pieces.map(([piece, count]) =>
    h("span", { title: `${count} × ${piece.label || piece.kind}` }, pieceIcon(snap.game, piece, 22), `×${count}`)));
}

/** What a seat's person is doing, when it matters: waiting to be claimed, or away. */
function presence(snap, seat) {
  const entry = (snap.seats || []).find((s) => s.seat === seat) || {};
  if (entry.free) return h("span", { class: "presence free" }, "waiting for the invited player");
  if (entry.away && !snap.outcome) return h("span", { class: "presence away" }, "away");
  return null;
}

/**
 * A seat's name: for an account, its name (a link to the profile), BOT mark and rating before
 * the game, then the side ("ana (1500?) · Light"); else the seat's label.
 */
function seatName(snap, seat) {
  const entry = (snap.seats || []).find((s) => s.seat === seat);
  if (!entry || !entry.account) return seatLabel(snap, seat);
  const side = entry.side && entry.side !== entry.account.name ? ` · ${entry.side}` : "";
  return [h("span", { class: "seat-account", "data-account-seat": seat }, playerName(entry.account)), side];
}

function seatItem(snap, seat, mine) {
  const toMove = snap.view.to_move === seat.seat;
  const player = (snap.players || [])[seat.seat - 1] || "";
  const piece = { owner: seat.seat, hue: seat.hue, kind: String(seat.seat), label: null, marked: false };
  return h("li", { class: `${toMove ? "to-move" : ""} ${seat.alive ? "" : "out"}`, "data-seat": seat.seat,
    "aria-current": toMove ? "true" : null },
  pieceIcon(snap.game, piece, 26),
  h("span", { class: "seat-name" }, seatName(snap, seat.seat), player && player !== "human" ? ` · ${player}` : "",
    mine.includes(seat.seat) ? " · you" : "", toMove ? " · to move" : "", seat.alive ? "" : " · out"),
  presence(snap, seat.seat),
  clockBadge(snap, seat.seat, Date.now()),
  handOf(snap, seat.seat));
}

/**
 * The players above and below the board, as on a real table: `[top, bottom]`, the seat whose side
 * is at the bottom (`bottomSeat`) below, the others above; each with its name, who is to move,
 * clock, presence and hand. `mine` lists this browser's seats.
 */
export function seatBars(snap, mine, bottomSeat) {
  const bar = (id, seats, label) => h("section", { class: "seat-bar", id, "aria-label": label },
    h("ul", { class: "seats" }, seats.map((seat) => seatItem(snap, seat, mine))));
  const seats = snap.view.seats;
  return [bar("seats-top", seats.filter((seat) => seat.seat !== bottomSeat), "Players across the board"),
    bar("seats-bottom", seats.filter((seat) => seat.seat === bottomSeat), "Player at the bottom")];
}

/** "Ludus (Red) is thinking… 2.4 s", or nothing. */
export function thinkingText(snap, now) {
  if (!snap.thinking) return "";
  const seconds = snap.thinking.since_ms ? Math.max(0, (now - snap.thinking.since_ms) / 1000) : 0;
  return `${seatLabel(snap, snap.thinking.seat)} is thinking… ${seconds.toFixed(1)} s`;
}

/** The evaluation bar from `analysis` (the snapshot's, or live thinking frames). */
export function evalPanel(snap, analysis) {
  if (!analysis) {
    return h("section", { class: "panel eval", "aria-label": "Evaluation" },
      h("p", { class: "eval-legend muted" }, "The evaluation appears after a computer move or a hint."));
  }
  const point = analysis.bar_seat || 1;
  const share = Math.round(((Math.max(-1, Math.min(1, Number(analysis.bar) || 0)) + 1) / 2) * 100);
  const first = seatHue(snap, point).toLowerCase();
  const others = snap.view.seats.filter((s) => s.seat !== point);
  const rest = others.length === 1 ? seatHue(snap, others[0].seat).toLowerCase() : "neutral";
  const bar = h("div", { class: "eval-bar", role: "meter", "aria-valuemin": 0, "aria-valuemax": 100,
    "aria-valuenow": share, "aria-label": `Evaluation: ${share}% for ${seatLabel(snap, point)}`,
    style: `--bar-first: var(--piece-${first}); --bar-rest: var(--piece-${rest})` },
  h("span", { class: "first", style: `width: ${share}%` }), h("span", { class: "rest" }));
  const by = analysis.by ? `, by ${analysis.by}` : "";
  const depth = analysis.depth ? `, depth ${analysis.depth}` : "";
  return h("section", { class: "panel eval", "aria-label": "Evaluation" },
    h("h3", {}, `Evaluation ${analysis.score_text || ""}`),
    bar,
    h("p", { class: "eval-legend" }, `Seen from ${seatLabel(snap, point)}: the left part grows as ${seatLabel(snap, point)} stands better${depth}${by}.`),
    analysis.pv && analysis.pv.length ? h("p", { class: "pv" }, "Expected line: ", h("code", {}, analysis.pv.join(" "))) : null);
}

/** Download links for the record in both formats. */
export function saveLinks(snap) {
  return h("div", { class: "row" }, "Save:",
    h("a", { class: "button", href: recordUrl(snap.id, "json"), download: `${snap.game}-${snap.id}.json`, id: "save-json" }, "JSON record"),
    h("a", { class: "button", href: recordUrl(snap.id, "text"), download: `${snap.game}-${snap.id}.txt`, id: "save-text" }, "text record"));
}

/** The game-over summary: winner, reason, score. */
function turns(history) {
  return history.length === 1 ? "1 turn" : `${history.length} turns`;
}

export function gameOverPanel(snap) {
  const outcome = snap.outcome;
  const winner = outcome.winner ? `${seatLabel(snap, outcome.winner)} wins` : "A draw";
  // The server's summary names the winner and the reason in one line; said once.
  return h("section", { class: "panel game-over", id: "game-over", role: "status" },
    h("h2", {}, "Game over"),
    h("p", {}, h("strong", {}, outcome.summary || `${winner}: ${outcome.reason}`)),
    flagLine(snap, seatLabel),
    ratingChanges(snap, seatLabel),
    // Counted as the replay bar and the move list count them: one per history entry.
    h("p", { class: "muted" }, `${turns(snap.history || [])} played${snap.rated ? " · rated game" : ""}.`),
    saveLinks(snap),
    h("p", {}, h("a", { class: "button primary", href: `/?setup=${snap.game}`, "data-link": true }, "New game")));
}
