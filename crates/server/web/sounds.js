// Short sounds made for Ludus (docs/scripts/make_sounds.py, CC0): a move, a capture or removal, a
// warning when this browser's clock runs low, the end of a game, and "your turn" for notices.
// They play only with the header's Sounds box ticked (remembered in this browser; on unless
// turned off) and never before the person first interacted with the page (browsers block it
// anyway). Other modules call `play(name)`, or `window.ludusSound?.(name)` without importing.

import { remainingMs } from "./clocks.js";

/** The sounds there are: each is `/sounds/NAME.wav`. */
export const SOUNDS = ["move", "capture", "low_time", "end", "turn"];

/** Under this many milliseconds on this browser's running clock, the low-time warning plays once. */
const LOW_TIME_MS = 10000;

const KEY = "ludus.sounds";
const loaded = new Map();
let interacted = false;

/** Whether sounds are on in this browser (on unless the person turned them off). */
export function soundsOn() {
  try { return localStorage.getItem(KEY) !== "off"; } catch (err) { return true; }
}

function setSoundsOn(on) {
  try { localStorage.setItem(KEY, on ? "on" : "off"); } catch (err) { /* not remembered */ }
}

/** Whether the person has clicked, touched or typed on the page (what lets a page play audio). */
function hasInteracted() {
  const activation = navigator.userActivation;
  return interacted || Boolean(activation && activation.hasBeenActive);
}

/**
 * Plays sound `name`; answers whether it started. Nothing plays with sounds off, before the
 * person first interacted with the page, or for a name that is no sound.
 */
export function play(name) {
  if (!SOUNDS.includes(name) || !soundsOn() || !hasInteracted()) return false;
  let audio = loaded.get(name);
  if (!audio) {
    audio = new Audio(`/sounds/${name}.wav`);
    audio.volume = 0.7;
    loaded.set(name, audio);
  }
  try { audio.currentTime = 0; } catch (err) { /* not loaded yet: it starts from 0 anyway */ }
  const started = audio.play();
  // A browser may still refuse (no audio device, its own policy): the page goes on silently.
  if (started && typeof started.catch === "function") started.catch(() => {});
  document.documentElement.dataset.lastSound = name;
  return true;
}

window.ludusSound = play;

function noteInteraction(event) {
  if (!event.isTrusted) return;
  interacted = true;
  for (const type of ["pointerdown", "keydown"]) document.removeEventListener(type, noteInteraction, true);
}
for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, noteInteraction, true);

/** The header's Sounds box: ticked while sounds are on; turning them on plays a move to hear. */
function setupToggle() {
  const box = document.getElementById("sounds");
  if (!box) return;
  box.checked = soundsOn();
  box.addEventListener("change", () => {
    setSoundsOn(box.checked);
    if (box.checked) play("move");
  });
}
setupToggle();

function piecesOn(view) {
  return ((view && view.cells) || []).reduce((count, cell) => count + ((cell.stack || []).length), 0);
}

/**
 * The sound for snapshot `after` following `before`, in any of the five games: `end` when the
 * game just ended, `capture` when the board holds fewer pieces than before (taken, thrown off,
 * removed), `move` for another new position; null for a first snapshot or a change that left
 * the position alone (an offer, a player coming back).
 */
export function soundFor(before, after) {
  if (!before || !after || after.seq <= before.seq) return null;
  if (!before.outcome && after.outcome) return "end";
  if (after.position === before.position) return null;
  return piecesOn(after.view) < piecesOn(before.view) ? "capture" : "move";
}

/** Warns once per game screen when a clock of this browser's seats runs under ten seconds. */
export class LowTimeWarning {
  constructor() { this.warned = false; }

  /** Checks snapshot `snap` at `now` (Unix ms) for the seats `mine`. */
  check(snap, mine, now) {
    if (this.warned || !snap || !snap.clock || snap.outcome) return;
    const low = mine.some((seat) => {
      const ms = remainingMs(snap, seat, now);
      return snap.clock.running === seat && ms !== null && ms > 0 && ms < LOW_TIME_MS;
    });
    if (low) this.warned = play("low_time");
  }
}
