// The replay bar of a finished game: a slider over the turns and start / previous / next / end
// buttons, each showing the position after that many turns through the game screen's history
// viewer (`GET /api/games/{id}/view?ply=N`). Built once per screen and updated in place, so the
// slider keeps its keyboard focus while it moves.

import { h } from "./dom.js";

export class ReplayBar {
  constructor(screen) {
    this.screen = screen;
    const go = (pick) => () => this.go(pick(this.ply(), this.total()));
    this.slider = h("input", { type: "range", id: "replay-ply", min: 0, max: 0, step: 1, value: 0,
      "aria-label": "Turn shown" });
    this.slider.addEventListener("input", () => this.go(Number(this.slider.value)));
    this.label = h("span", { id: "replay-label", "aria-live": "polite" });
    this.buttons = [
      h("button", { type: "button", id: "replay-start", onclick: go(() => 0), "aria-label": "Start position" }, "⏮"),
      h("button", { type: "button", id: "replay-prev", onclick: go((ply) => ply - 1), "aria-label": "Previous turn" }, "◀"),
      h("button", { type: "button", id: "replay-next", onclick: go((ply) => ply + 1), "aria-label": "Next turn" }, "▶"),
      h("button", { type: "button", id: "replay-end", onclick: go((_, total) => total), "aria-label": "Last position" }, "⏭"),
    ];
    const [start, prev, next, end] = this.buttons;
    this.element = h("div", { class: "replay row", id: "replay", role: "group", "aria-label": "Replay" },
      h("strong", {}, "Replay"), start, prev, this.slider, next, end, this.label);
  }

  total() { return (this.screen.snap.history || []).length; }

  ply() { return this.screen.viewing ? this.screen.viewing.ply : this.total(); }

  go(ply) {
    const target = Math.max(0, Math.min(this.total(), ply));
    if (target !== this.ply()) this.screen.showPly(target);
  }

  /** Shows the bar for a finished game (hides it otherwise) at the turn on the board. */
  update() {
    const snap = this.screen.snap;
    this.element.hidden = !snap || !snap.outcome;
    if (this.element.hidden) return;
    const [total, ply] = [this.total(), this.ply()];
    this.slider.max = String(total);
    this.slider.value = String(ply);
    this.label.textContent = ply === 0 ? `Start of ${total} turns` : `Turn ${ply} of ${total}`;
    const [start, prev, next, end] = this.buttons;
    start.disabled = prev.disabled = ply === 0;
    next.disabled = end.disabled = ply >= total;
  }
}
