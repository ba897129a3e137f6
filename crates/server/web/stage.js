// Another player's turn of several decisions (a Qawale sowing, a Splut! turn of three steps)
// arrives as one `event` frame and one snapshot per decision, in quick succession. Drawn as they
// come, a whole sowing could go unseen; so the page stages it: each decision's cells are marked as the last move in
// turn, a step at a time, with "step 2 of 3" in the status line, before the turn's cells all show.
// Nothing slides here, so prefers-reduced-motion keeps the steps, each shown twice as long.

import { reducedMotion } from "./dom.js";

/** How long each step of a staged turn stays marked. */
const STEP_MS = 600;

export class Stager {
  constructor(onChange) {
    this.onChange = onChange;
    this.pending = [];
    this.shownSeq = null;
    this.steps = null;
    this.index = 0;
    this.timer = null;
  }

  /**
   * An `event` frame: a decision of the turn under way. The server commits a computer's turn
   * decision by decision, each with its snapshot, in quick succession; they are gathered here
   * until the turn is over.
   */
  event(frame, mine) {
    if (mine) { this.pending = []; return; }
    if (this.pending.length && this.pending[0].seat !== frame.seat) this.pending = [];
    this.pending.push(frame);
  }

  /** A new snapshot: once another player's turn of several decisions is over, stage it. */
  snapshot(snap) {
    const last = (snap.history || []).at(-1);
    const seat = this.pending.length ? this.pending[0].seat : null;
    if (seat === null || !last || last.seat !== seat || last.complete === false) return;
    const steps = this.pending;
    this.pending = [];
    this.stop();
    if (steps.length < 2) return;
    this.steps = steps;
    this.index = 0;
    this.timer = window.setInterval(() => this.next(), reducedMotion() ? 2 * STEP_MS : STEP_MS);
  }

  next() {
    this.index += 1;
    if (this.index >= this.steps.length) this.stop();
    this.onChange();
  }

  stop() {
    window.clearInterval(this.timer);
    this.timer = null;
    this.steps = null;
  }

  /** The step shown now: `{cells, text, index}`, or null when no turn is being staged. */
  current() {
    if (!this.steps) return null;
    const step = this.steps[this.index];
    return { cells: step.cells || [], text: `step ${this.index + 1} of ${this.steps.length}: ${step.move}`, index: this.index };
  }
}
