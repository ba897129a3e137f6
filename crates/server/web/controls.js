// The game screen's buttons and panels: the chooser, hint, undo/redo, resign with confirmation,
// flipping the board, pause/step/speed for games between computers, save and load. A spectator
// gets no move controls; against a person, undo stays within the mover's own unfinished turn
// (anything more goes through a takeback request, online_panel.js).

import { h } from "./dom.js";
import { seatBars, thinkingText, evalPanel, saveLinks, gameOverPanel } from "./panel.js";
import { historyPanel } from "./history_list.js";
import { loadRecordControl } from "./home.js";
import { invitesPanel, watchingPanel, offersPanel, absentPanel } from "./online_panel.js";
import { rematchPanel } from "./rematch.js";

const SPEEDS = [0, 200, 400, 800, 1500, 3000];

function countLeft(snap, label) {
  const hand = (snap.view.hands || []).find((entry) => entry.seat === snap.to_move);
  const found = hand && hand.pieces.find(([piece]) => piece.label === label);
  return found ? ` (${found[1]} left)` : "";
}

/**
 * The digit that picks chooser entry `index`: the label itself when every label is a distinct
 * digit (Yoxii's values: 3 picks the value 3), else the entry's position from 1.
 */
export function chooserKey(entries, index) {
  const labels = entries.map((entry) => entry.label);
  const digits = labels.every((label) => /^[1-9]$/.test(label)) && new Set(labels).size === labels.length;
  if (digits) return labels[index];
  return index < 9 ? String(index + 1) : null;
}

/** The chooser: one button per decision sharing the selected cells; digits choose too. */
export function chooserBar(screen, entries) {
  if (!entries || !entries.length) return null;
  return [h("span", {}, "Choose:"), entries.map((entry, i) => {
    const key = chooserKey(entries, i);
    return h("button", { type: "button", class: "choice", "data-move": entry.move, "aria-keyshortcuts": key,
      onclick: () => screen.play(entry.move) },
    key && key !== entry.label ? h("kbd", {}, `${key} `) : null, entry.label, countLeft(screen.snap, entry.label));
  })];
}

function confirmResign(screen) {
  const dialog = h("dialog", { id: "resign-dialog", "aria-labelledby": "resign-title" },
    h("h2", { id: "resign-title" }, "Resign this game?"),
    h("p", {}, "The game ends now and cannot be taken back."),
    h("form", { method: "dialog", class: "row" },
      h("button", { value: "resign", id: "confirm-resign", class: "primary" }, "Resign"),
      h("button", { value: "cancel", id: "cancel-resign", autofocus: true }, "Keep playing")));
  dialog.addEventListener("close", () => {
    if (dialog.returnValue === "resign") screen.resign();
    dialog.remove();
  });
  document.body.append(dialog);
  dialog.showModal();
}

function button(id, text, onclick, enabled = true, title = null) {
  return h("button", { type: "button", id, onclick, disabled: !enabled, title }, text);
}

function actionsPanel(screen) {
  const snap = screen.snap;
  const flip = button("flip", "Flip board", () => screen.toggleFlip());
  // Without a seat, only the creator of a game between computers has controls here.
  const people = (snap.players || []).includes("human");
  if (!screen.holdsSeat() && (!screen.tokens().owner || people)) {
    return h("section", { class: "actions", "aria-label": "Actions" }, h("div", { class: "row" }, flip));
  }
  const mine = Boolean(screen.anyToken());
  const over = Boolean(snap.outcome);
  const person = screen.againstPerson();
  // Against a person: only the steps of one's own turn still being decided (a Qawale sowing).
  const undoable = mine && snap.can_undo && (!person || screen.ownUnfinishedTurn());
  return h("section", { class: "actions", "aria-label": "Actions" }, h("div", { class: "row" },
    // Between people the server refuses hints: the computer would be playing for one side.
    person ? null : button("hint", "Hint", () => screen.askHint(), screen.myTurn(), "A move the computer suggests"),
    button("undo", "Undo", () => screen.undo("turn"), undoable, "Take back the last turn"),
    button("undo-step", "Undo step", () => screen.undo("decision"), undoable, "Take back one decision"),
    person ? null : button("redo", "Redo", () => screen.redo("turn"), mine && snap.can_redo),
    person ? null : button("redo-step", "Redo step", () => screen.redo("decision"), mine && snap.can_redo),
    button("resign", "Resign", () => confirmResign(screen), mine && !over),
    flip),
  screen.hint ? h("p", { id: "hint-text" }, `Hint: ${screen.hint.move}`,
    screen.hint.score_text ? ` (${screen.hint.score_text})` : "") : null);
}

function computerPanel(screen) {
  const snap = screen.snap;
  const owner = screen.tokens().owner;
  if (!owner || (snap.players || []).some((player) => player === "human")) return null;
  const speed = h("select", { id: "speed", "aria-label": "Pause between computer moves" },
    [...new Set([...SPEEDS, snap.speed_ms])].sort((a, b) => a - b).map((ms) =>
      h("option", { value: ms, selected: ms === snap.speed_ms }, `${ms} ms`)));
  speed.addEventListener("change", () => screen.control({ speed_ms: Number(speed.value) }));
  return h("section", { class: "panel", "aria-label": "Computer players" }, h("div", { class: "row" },
    button("pause", snap.paused ? "Resume" : "Pause", () => screen.control({ paused: !snap.paused }), !snap.outcome),
    button("step", "Step", () => screen.control({ step: true }), snap.paused && !snap.outcome),
    h("label", {}, "Speed ", speed)));
}

function filesPanel(screen) {
  const errorLine = h("p", { class: "error", role: "alert" });
  return h("section", { class: "panel", "aria-label": "Files" }, saveLinks(screen.snap),
    loadRecordControl(screen.context, errorLine), errorLine,
    h("p", { class: "row" }, h("a", { href: `/?setup=${screen.snap.game}`, "data-link": true }, "New game"),
      h("a", { href: `/?rules=${screen.snap.game}`, "data-link": true }, "Rules")));
}

function noComputer(snap) {
  return (snap.players || []).every((player) => player === "human");
}

/**
 * Redraws the side panel of `screen` into `side`, and the board's surroundings: the players above
 * and below it and the actions bar under it (`screen.seatsTop`, `seatsBottom`, `actionsBar`), so
 * on a phone names, clocks and buttons stay in sight beside the board during play.
 */
export function drawSide(screen, side) {
  const snap = screen.snap;
  const analysis = screen.live && screen.live.seq === snap.seq ? screen.live : snap.analysis;
  const shown = screen.viewing ? { ...snap, view: screen.viewing.view } : snap;
  const [top, bottom] = seatBars(shown, screen.mySeats(), screen.flipped() ? 2 : 1);
  patch(screen.seatsTop, [top]);
  patch(screen.seatsBottom, [bottom]);
  patch(screen.actionsBar, [actionsPanel(screen)]);
  patch(side, [
    snap.outcome ? gameOverPanel(snap) : null,
    rematchPanel(screen),
    watchingPanel(screen),
    invitesPanel(screen),
    offersPanel(screen),
    absentPanel(screen),
    h("p", { class: "thinking", id: "thinking", "aria-live": "off" }, thinkingText(snap, Date.now()),
      snap.paused ? "Paused." : ""),
    computerPanel(screen),
    // Without a computer and without hints (between people, or watching them) no evaluation comes.
    noComputer(snap) && (screen.againstPerson() || !screen.holdsSeat()) && !analysis ? null : evalPanel(snap, analysis),
    historyPanel(snap, screen.viewing ? screen.viewing.ply : null, (ply) => screen.showPly(ply)),
    filesPanel(screen)].filter(Boolean));
}

/**
 * Puts `fresh` into `parent`, keeping each old section that looks the same, so a redraw (every
 * snapshot, every thinking frame) leaves an open menu, a focused button or a chosen file alone.
 */
function patch(parent, fresh) {
  fresh.forEach((node, i) => {
    const old = parent.children[i];
    if (!old) parent.append(node);
    // A section kept from the draw before (the move list) is the same node: nothing to compare.
    else if (old !== node && !old.isEqualNode(node)) parent.replaceChild(node, old);
  });
  while (parent.children.length > fresh.length) parent.lastElementChild.remove();
}
