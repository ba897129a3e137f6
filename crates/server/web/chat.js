// The chat of a game between people, beside the board: the players' lines (read by everyone) and,
// for a spectator, the spectators' lines too (the players never see those). Lines go out over the
// game's socket; what people wrote is only ever set as text. A player may mute the other side: its
// lines are hidden (counted, with a button to show them again), remembered in this browser per game.

import { h, replace } from "./dom.js";

/** The most characters of a line (the server refuses more). */
const TEXT_MAX = 300;
/** The lines kept on the page, as on the server. */
const KEPT = 500;

const MUTE_KEY = (id) => `ludus.chat.muted.${id}`;

/** Whether game `snap` has a chat: two seats or more played by people. */
export function chatOn(snap) {
  return (snap.players || []).filter((player) => player === "human").length >= 2;
}

function readMuted(id) {
  try { return localStorage.getItem(MUTE_KEY(id)) === "1"; } catch (err) { return false; }
}

function writeMuted(id, muted) {
  try {
    if (muted) localStorage.setItem(MUTE_KEY(id), "1");
    else localStorage.removeItem(MUTE_KEY(id));
  } catch (err) { /* not remembered: muted until the page closes */ }
}

export class ChatBox {
  constructor(screen) {
    this.screen = screen;
    this.lines = [];
    this.muted = readMuted(screen.id);
    this.list = h("ol", { class: "chat-lines", id: "chat-lines", "aria-live": "polite", "aria-relevant": "additions" });
    this.input = h("input", { type: "text", id: "chat-text", name: "chat", maxlength: TEXT_MAX, autocomplete: "off",
      "aria-label": "Message", placeholder: "Say something" });
    this.errorLine = h("p", { class: "error", id: "chat-error", role: "alert" });
    this.note = h("p", { class: "chat-note muted", id: "chat-note" });
    this.muteLine = h("div", { class: "row chat-mute", id: "chat-mute" });
    const form = h("form", { class: "chat-form", id: "chat-form" }, this.input,
      h("button", { type: "submit", id: "chat-send" }, "Send"));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.send();
    });
    this.element = h("section", { class: "panel chat", id: "chat", "aria-labelledby": "chat-title", hidden: true },
      h("h2", { id: "chat-title" }, "Chat"), this.note, this.list, this.muteLine, form, this.errorLine);
  }

  /** A player's browser (it holds a seat) writes in the players' channel; any other, the spectators'. */
  player() { return this.screen.holdsSeat(); }

  /** Shows the box in games between people, and says who reads what this browser writes. */
  update(snap) {
    const on = chatOn(snap);
    this.element.hidden = !on;
    if (!on) return;
    const note = this.player() ? "Players and spectators read this chat."
      : "Your lines go to the spectators only; the players' lines show here too.";
    if (this.note.textContent !== note) this.note.textContent = note;
    this.drawMute();
  }

  /** The lines this socket may read, sent when it opened: they replace those shown. */
  onHistory(frame) {
    this.lines = Array.isArray(frame.lines) ? frame.lines.slice(-KEPT) : [];
    replace(this.list, this.lines.map((line) => this.lineItem(line)));
    this.drawMute();
    this.scrollDown(true);
  }

  /** A new line. */
  onLine(line) {
    const follow = this.atBottom();
    this.lines.push(line);
    this.list.append(this.lineItem(line));
    while (this.lines.length > KEPT) {
      this.lines.shift();
      this.list.firstElementChild.remove();
    }
    if (this.pending && line.text === this.pending) {
      this.pending = null;
      this.errorLine.textContent = "";
    }
    this.drawMute();
    this.scrollDown(follow);
  }

  /** The server refused a line (the page sends nothing else on the socket). */
  onError(frame) {
    this.errorLine.textContent = frame.error || "The line was refused.";
    if (!this.input.value && this.pending) this.input.value = this.pending;
    this.pending = null;
  }

  send() {
    const text = this.input.value.trim();
    if (!text) return;
    const channel = this.player() ? "players" : "spectators";
    const socket = this.screen.socket;
    if (!socket || !socket.send({ type: "chat", channel, text })) {
      this.errorLine.textContent = "Not connected: the line was not sent; it stays in the box.";
      return;
    }
    this.pending = text;
    this.errorLine.textContent = "";
    this.input.value = "";
  }

  /** Whether `line` comes from the other side: a player's line from a seat this browser does not hold. */
  otherSide(line) {
    return line.channel === "players" && this.player() && !this.screen.mySeats().includes(line.seat);
  }

  lineItem(line) {
    const spectator = line.channel === "spectators";
    const item = h("li", { class: `chat-line${spectator ? " spectator" : ""}`, "data-channel": line.channel,
      "data-seat": line.seat === null ? null : line.seat, title: timeText(line.at_ms) },
    h("span", { class: "chat-from" }, String(line.from || "?"), spectator ? " (watching)" : "", ": "),
    h("span", { class: "chat-text" }, String(line.text || "")));
    item.hidden = this.muted && this.otherSide(line);
    return item;
  }

  /** The mute control, and how many lines it hides. */
  drawMute() {
    if (!this.player()) {
      replace(this.muteLine);
      return;
    }
    const hidden = this.muted ? this.lines.filter((line) => this.otherSide(line)).length : 0;
    const state = `${this.muted}:${hidden}`;
    if (this.muteLine.dataset.state === state) return;
    this.muteLine.dataset.state = state;
    if (this.muted) {
      replace(this.muteLine, h("span", { id: "chat-hidden" }, hidden ? `${hidden} hidden` : "The other side is muted."),
        h("button", { type: "button", id: "chat-unmute", onclick: () => this.setMuted(false) }, "Unmute"));
    } else {
      replace(this.muteLine, h("button", { type: "button", id: "chat-mute-button", onclick: () => this.setMuted(true),
        title: "Hide the other side's lines in this browser" }, "Mute the other side"));
    }
  }

  setMuted(muted) {
    this.muted = muted;
    writeMuted(this.screen.id, muted);
    this.lines.forEach((line, i) => {
      const item = this.list.children[i];
      if (item) item.hidden = muted && this.otherSide(line);
    });
    this.drawMute();
    const button = this.muteLine.querySelector("button");
    if (button) button.focus();
  }

  atBottom() {
    return this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 24;
  }

  scrollDown(follow) {
    if (follow) this.list.scrollTop = this.list.scrollHeight;
  }
}

function timeText(ms) {
  const at = new Date(Number(ms));
  return Number.isFinite(at.getTime()) ? at.toLocaleString() : null;
}
