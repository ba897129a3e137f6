// The game screen's controller: holds the snapshot the server sent and what this person has
// selected, turns clicks, keys and typed notation into POSTs, and redraws on every snapshot.
// It holds no rules: legality, turns and outcomes all come from the server. It also says when
// the live connection is lost, and keeps a move clicked meanwhile to send it (with the `seq` it
// was decided on) once the connection is back.

import { h, replace, announce } from "./dom.js";
import { getGame, getView, act, connect, tokensFor, seatToken } from "./api.js";
import { drawBoard, screenCells } from "./board.js";
import { pick, targets, cellFree, stepCursor, againChoice } from "./pointing.js";
import { describeStack } from "./pieces.js";
import { animateMoves } from "./animate.js";
import { markdown } from "./rules.js";
import { seatLabel, thinkingText } from "./panel.js";
import { drawSide, chooserBar, chooserKey } from "./controls.js";
import { tickClocks } from "./clocks.js";
import { tickGrace } from "./online_panel.js";
import { ReplayBar } from "./replay.js";
import { onChallenges, refreshChallenges } from "./challenges.js";
import { onAccount } from "./session.js";
import { turnAlert } from "./turn_alert.js";
import { ChatBox } from "./chat.js";
import { play, soundFor, LowTimeWarning } from "./sounds.js";
import { changeNotes } from "./notes.js";
import { fitBoard } from "./fit.js";
import { Stager } from "./stage.js";
import { applyDelta } from "./delta.js";

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** Opens game `id` in `context.main`; returns the function that leaves it (closes the socket). */
export async function showGame(context, id) {
  const game = new GameScreen(context, id);
  await game.start();
  return () => game.leave();
}

class GameScreen {
  constructor(context, id) {
    this.context = context;
    this.id = id;
    this.snap = null;
    this.selected = [];
    this.chooser = null;
    this.hint = null;
    this.viewing = null;
    this.flip = null;
    this.cursor = null;
    this.live = null;
    this.busy = false;
    this.connection = "connecting";
    this.queued = null;
    this.turnAlert = turnAlert(id);
    this.stager = new Stager(() => this.draw());
    this.build();
  }

  build() {
    this.heading = h("h1", { class: "game-title", id: "game-title" });
    this.status = h("p", { class: "status-line", id: "status" });
    this.boardHolder = h("div", { class: "board-holder", style: "width:100%" });
    // On release, not "click": a snapshot redrawn between press and release would swallow a
    // click (it needs one element for both), while the release lands on the new cell.
    this.boardHolder.addEventListener("pointerup", (event) => {
      if (event.button === 0) this.onBoardClick(event);
    });
    this.boardHolder.addEventListener("keydown", (event) => this.onBoardKey(event));
    this.boardHolder.addEventListener("focusin", (event) => this.onFocus(event));
    this.chooserBox = h("div", { class: "chooser", id: "chooser", "aria-live": "polite" });
    this.errorLine = h("p", { class: "error", id: "error", role: "alert" });
    this.cellInfo = h("p", { class: "muted", id: "cell-info" });
    // A decision made by clicking the selected piece again has no lit cell of its own: said here.
    this.againNote = h("p", { class: "again-note", id: "again-note", "aria-live": "polite" });
    this.moveInput = h("input", { type: "text", id: "move-text", name: "move", autocomplete: "off", spellcheck: "false",
      "aria-label": "Move in notation", placeholder: "or type a move" });
    const form = h("form", { class: "move-entry", id: "move-form" }, this.moveInput,
      h("button", { type: "submit" }, "Play"));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = this.moveInput.value.trim();
      if (text) this.play(text, () => { this.moveInput.value = ""; });
    });
    this.viewBanner = h("div", { id: "viewing" });
    // Why an invitation link did not give this browser a seat (claimFromLink), who knocked a team
    // out, an offer declined: what the board does not show.
    this.noteLine = h("p", { class: "notice game-note", id: "game-note", role: "status", hidden: !this.context.note },
      this.context.note || "");
    this.connectionLine = h("p", { class: "notice connection", id: "connection", role: "status", hidden: true });
    this.moveForm = form;
    this.replay = new ReplayBar(this);
    this.legendBox = h("div", { class: "notation-help" });
    this.side = h("aside", { class: "side", id: "side" });
    this.seatsTop = h("div", { class: "seat-holder" });
    this.seatsBottom = h("div", { class: "seat-holder" });
    this.actionsBar = h("div", { class: "actions-holder" });
    this.chat = new ChatBox(this);
    this.lowTime = new LowTimeWarning();
    this.onKey = (event) => this.onGlobalKey(event);
    document.addEventListener("keydown", this.onKey);
    this.onResize = () => this.fit();
    window.addEventListener("resize", this.onResize);
    this.boardArea = h("section", { class: "board-area", "aria-label": "Board" }, this.heading, this.noteLine, this.connectionLine, this.status, this.viewBanner,
        this.seatsTop, this.boardHolder, this.againNote, this.seatsBottom, this.actionsBar, this.replay.element, this.chooserBox, this.errorLine, this.cellInfo, form, this.legendBox,
        this.holdsSeat() ? this.turnAlert.button() : null);
    replace(this.context.main, h("div", { class: "game-layout" }, this.boardArea, this.side, this.chat.element));
  }

  async start() {
    const snap = await getGame(this.id);
    const info = this.context.meta.games.find((game) => game.id === snap.game);
    if (info && info.legend) {
      replace(this.legendBox, h("details", {}, h("summary", {}, "How to write a move"),
        h("div", { class: "legend-text" }, markdown(info.legend))));
    }
    this.accept(snap);
    this.openSocket();
    // Leaving the page closes its socket at once (a page kept for the back button would hold it
    // open, and the other side would never see this person away); coming back opens it again.
    this.onPageHide = () => { if (this.socket) this.socket.close(); };
    this.onPageShow = (event) => { if (event.persisted) this.openSocket(); };
    window.addEventListener("pagehide", this.onPageHide);
    window.addEventListener("pageshow", this.onPageShow);
    const replayFrom = new URLSearchParams(location.search).get("replay");
    if (replayFrom !== null && snap.outcome) await this.showPly(Number(replayFrom) || 0);
    this.ticker = window.setInterval(() => this.tick(), 250);
    // A rematch offer, sent or answered, and a sign-in or sign-out change the summary's panel.
    this.stopChallenges = onChallenges(() => { if (this.snap) this.drawSide(); });
    this.stopAccount = onAccount(() => { if (this.snap) this.drawSide(); });
  }

  openSocket() {
    // A seat's token on the socket makes that seat present (not "away") for the others.
    const own = this.tokens().seats[0];
    this.socket = connect(this.id, own ? own.token : null, (frame) => this.onFrame(frame),
      (state, delay) => this.onConnection(state, delay));
  }

  leave() {
    if (this.socket) this.socket.close();
    this.stager.stop();
    window.removeEventListener("pagehide", this.onPageHide);
    window.removeEventListener("pageshow", this.onPageShow);
    window.clearInterval(this.ticker);
    document.removeEventListener("keydown", this.onKey);
    window.removeEventListener("resize", this.onResize);
    if (this.stopChallenges) this.stopChallenges();
    if (this.stopAccount) this.stopAccount();
    this.turnAlert.stop();
  }

  // ---- tokens and whose turn ----
  tokens() { return tokensFor(this.id); }
  moverToken() { return this.snap && this.snap.to_move ? seatToken(this.id, this.snap.to_move) : null; }
  anyToken() {
    const tokens = this.tokens();
    const mover = this.moverToken();
    return mover || (tokens.seats[0] && tokens.seats[0].token) || tokens.owner;
  }
  myTurn() { return Boolean(this.moverToken()) && !this.snap.outcome && !this.viewing; }
  canAct() { return this.myTurn() && !this.busy && !this.queued; }
  mySeats() { return this.tokens().seats.map((entry) => entry.seat); }
  holdsSeat() { return this.tokens().seats.length > 0; }
  /** Another person (not this browser, not a computer) plays a seat of this game. */
  againstPerson() {
    const mine = this.mySeats();
    return mine.length > 0 && (this.snap.seats || []).some((seat) => seat.player === "human" && !mine.includes(seat.seat));
  }
  /** The seat to move is this browser's and its turn has decisions already made. */
  ownUnfinishedTurn() {
    const last = (this.snap.history || []).at(-1);
    return this.myTurn() && Boolean(last) && last.complete === false && last.seat === this.snap.to_move;
  }
  flipped() {
    if (this.flip !== null) return this.flip;
    const players = this.snap.players || [];
    const mine = this.tokens().seats.map((entry) => entry.seat);
    // The second seat's person playing the computer sees the board from their side.
    return players.length === 2 && players[1] === "human" && players[0] !== "human" && mine.includes(2);
  }

  // ---- server messages ----
  onConnection(state, delay) {
    this.connection = state;
    this.context.main.dataset.connection = state;
    this.connectionLine.hidden = state === "open";
    if (state === "reconnecting") {
      this.connectionLine.textContent = `Connection lost: reconnecting… (next try in ${(delay / 1000).toFixed(1)} s).`
        + (this.queued ? ` Your move ${this.queued.move} will be sent then.` : "");
    }
    this.fit();
  }

  onFrame(frame) {
    if (frame.type === "snapshot" && frame.snapshot) {
      this.accept(frame.snapshot);
      if (this.queued) this.sendQueued();
    } else if (frame.type === "delta") {
      this.onDelta(frame);
    } else if (frame.type === "event") {
      // Anyone else's decision, the computer's or a friend's in another browser, is said aloud
      // (and staged with the others of its turn).
      const mine = this.mySeats().includes(frame.seat);
      this.stager.event(frame, mine);
      if (!mine) announce(`${seatLabel(this.snap || { seats: [] }, frame.seat)} played ${frame.move}`);
    } else if (frame.type === "thinking") {
      this.live = frame;
      this.drawSide();
    } else if (frame.type === "deleted") {
      this.errorLine.textContent = frame.aborted ? "This game was aborted: it ends without result." : "This game was deleted on the server.";
    } else if (frame.type === "chat") {
      this.chat.onLine(frame);
    } else if (frame.type === "chat_history") {
      this.chat.onHistory(frame);
    } else if (frame.type === "error") {
      // The page sends only chat lines on the socket: an error there is about one.
      this.chat.onError(frame);
    } else if (frame.type === "rematch") {
      // The offer itself (with its game and clock) comes from the challenges list.
      refreshChallenges();
    }
  }

  /** A change sent as a delta: applied to the snapshot held, or the whole snapshot asked for
   * when the delta does not follow on from it (a newer one arrived first by HTTP is kept). */
  onDelta(delta) {
    const snap = applyDelta(this.snap, delta);
    if (snap) {
      this.accept(snap);
      if (this.queued) this.sendQueued();
    } else if (!this.snap || delta.seq > this.snap.seq || delta.from_seq === this.snap.seq) {
      this.socket.send({ type: "sync" });
    }
  }

  accept(snap) {
    if (!snap || (this.snap && snap.seq < this.snap.seq)) return;
    // Each pointing entry is the decision of `legal` at its index (the server sends it once).
    (snap.pointing || []).forEach((entry, index) => { entry.move = snap.legal[index]; });
    // The answer to a POST and the socket's broadcast bring the same snapshot: draw it once.
    // The history changes only with `seq` (in the text), so it is left out: written out whole
    // at every change, a long game's history would cost the page more than the change.
    const text = JSON.stringify({ ...snap, history: undefined, moves: undefined });
    if (text === this.snapText) return;
    const before = this.snap;
    this.snap = snap;
    this.snapText = text;
    const changed = !before || before.seq !== snap.seq;
    if (changed) {
      this.stager.snapshot(snap);
      this.selected = [];
      this.chooser = null;
      this.hint = null;
      this.live = null;
      this.slide = before ? { before: before.view, after: snap.view, at: performance.now() } : null;
    }
    this.draw();
    this.turnAlert.note(before, snap);
    this.chat.update(snap);
    const sound = soundFor(before, snap);
    if (sound) play(sound);
    const offer = snap.offer;
    if (offer && JSON.stringify(offer) !== JSON.stringify(before && before.offer) && !this.mySeats().includes(offer.from)) {
      announce(`${seatLabel(snap, offer.from)} ${offer.kind === "draw" ? "offers a draw" : "asks to take back their last turn"}.`);
    }
    const notes = changeNotes(before, snap, this.mySeats());
    if (notes.length) {
      // The first snapshot's notes go after an invitation's note the page opened with.
      this.noteLine.textContent = [before ? "" : this.noteLine.textContent, ...notes].filter(Boolean).join(" ");
      this.noteLine.hidden = false;
      this.fit();
    }
    if (before && !before.outcome && snap.outcome) {
      announce(`Game over. ${snap.outcome.summary || snap.outcome.reason}`);
    }
    if (changed && this.sentAt) {
      // From the person's click to the answer drawn, for docs/WEB.md's measurement.
      this.context.main.dataset.clickToDrawMs = (performance.now() - this.sentAt).toFixed(1);
      this.sentAt = null;
    }
  }

  // ---- actions ----
  async send(action, body) {
    this.errorLine.textContent = "";
    this.setBusy(true);
    let answer = null;
    let failure = null;
    try {
      answer = await act(this.id, action, body);
    } catch (err) {
      failure = err;
    }
    this.setBusy(false);
    // No answer at all (status 0): the server is out of reach, not refusing.
    this.lostAnswer = Boolean(failure) && failure.status === 0;
    if (failure) {
      if (failure.snapshot) this.accept(failure.snapshot);
      this.errorLine.textContent = failure.message;
      return null;
    }
    if (answer && answer.view) this.accept(answer);
    return answer;
  }

  /** While an action is on its way, clicks wait: the page never sends two moves for one position. */
  setBusy(busy) {
    this.busy = busy;
    this.context.main.dataset.busy = busy ? "true" : "false";
    this.context.main.dataset.myTurn = this.canAct() ? "true" : "false";
  }

  async play(move, done) {
    if (this.busy || this.queued) return;
    const token = this.moverToken();
    if (!token) {
      this.errorLine.textContent = this.snap.outcome ? "The game is over." : `It is ${seatLabel(this.snap, this.snap.to_move)}'s turn; you do not play that seat.`;
      return;
    }
    this.selected = [];
    this.chooser = null;
    this.sentAt = performance.now();
    const body = { token, move, seq: this.snap.seq };
    if (this.connection === "reconnecting") {
      this.keep(body);
      return;
    }
    const answer = await this.send("moves", body);
    if (answer && done) done();
    if (!answer && this.lostAnswer) this.keep(body);
  }

  /** Keeps a move decided while disconnected; it goes out with its `seq` once connected again. */
  keep(body) {
    this.queued = body;
    this.context.main.dataset.queued = body.move;
    this.errorLine.textContent = `Not connected: your move ${body.move} is kept and will be sent when the connection is back.`;
    this.draw();
  }

  /** Sends the kept move, or says clearly why it was not played (the game moved on meanwhile). */
  async sendQueued() {
    const body = this.queued;
    if (!body || this.busy || this.connection !== "open") return;
    this.queued = null;
    delete this.context.main.dataset.queued;
    if (this.snap.seq !== body.seq) {
      this.errorLine.textContent = `Your move ${body.move} was not sent: the game changed while you were disconnected. Look at the board and play again.`;
      this.draw();
      return;
    }
    const answer = await this.send("moves", body);
    if (answer) this.errorLine.textContent = `Your move ${body.move} was sent after the reconnection.`;
    else if (this.lostAnswer) this.keep(body);
  }

  undo(scope) { return this.send("undo", { token: this.anyToken(), seq: this.snap.seq, scope }); }
  redo(scope) { return this.send("redo", { token: this.anyToken(), seq: this.snap.seq, scope }); }
  resign() { return this.send("resign", { token: this.anyToken() }); }
  control(body) { return this.send("control", { token: this.tokens().owner, ...body }); }

  makeOffer(kind) { return this.send("offer", { token: this.anyToken(), kind }); }
  answerOffer(accept) { return this.send("answer", { token: this.anyToken(), accept }); }
  absent(seat, then, player) {
    return this.send("absent", { token: this.anyToken(), seat, then, ...(then === "computer" ? { player } : {}) });
  }

  async askHint() {
    const answer = await this.send("hint", { token: this.anyToken() });
    if (!answer) return;
    this.hint = answer;
    this.draw();
  }

  async showPly(ply) {
    if (this.snap.history && ply === this.snap.history.length && this.snap.history.every((e) => e.complete !== false)) {
      this.viewing = null;
      this.draw();
      return;
    }
    try {
      const answer = await getView(this.id, ply);
      this.viewing = { ply, view: answer.view };
    } catch (err) {
      this.errorLine.textContent = err.message;
    }
    this.draw();
  }

  backToGame() { this.viewing = null; this.draw(); }

  toggleFlip() { this.flip = !this.flipped(); this.draw(); }

  // ---- pointing ----
  clickCell(name) {
    if (this.viewing) { this.backToGame(); return; }
    this.cursor = name;
    if (this.busy) return;
    if (!this.myTurn()) {
      this.errorLine.textContent = this.snap.outcome ? "The game is over."
        : this.holdsSeat() || this.tokens().owner ? this.waitingText() : "You are watching: only the players move.";
      this.draw();
      return;
    }
    this.errorLine.textContent = "";
    const result = pick(this.snap.pointing, this.selected, name);
    if (result.play) {
      this.play(result.play);
    } else if (result.choose) {
      this.selected = result.select;
      this.chooser = result.choose;
    } else if (result.select) {
      this.selected = result.select;
      this.chooser = null;
    } else {
      this.errorLine.textContent = result.illegal;
    }
    this.draw();
  }

  clearSelection() {
    this.selected = [];
    this.chooser = null;
    this.hint = null;
    this.errorLine.textContent = "";
    this.draw();
  }

  waitingText() {
    if (this.snap.thinking) return `${seatLabel(this.snap, this.snap.thinking.seat)} is thinking; your turn comes next.`;
    return `It is ${seatLabel(this.snap, this.snap.to_move)}'s turn.`;
  }

  onBoardClick(event) {
    const cell = event.target.closest && event.target.closest("[data-cell]");
    if (cell) this.clickCell(cell.dataset.cell);
  }

  onFocus(event) {
    const cell = event.target.closest && event.target.closest("[data-cell]");
    if (cell && cell.dataset.cell !== this.cursor) {
      this.cursor = cell.dataset.cell;
      this.describeCursor();
    }
  }

  onBoardKey(event) {
    const view = this.shownView();
    if (ARROWS[event.key] && view) {
      event.preventDefault();
      const [dx, dy] = ARROWS[event.key];
      const links = (view.links || []).map(([a, b]) => [view.cells[a].name, view.cells[b].name]);
      this.cursor = stepCursor(screenCells(view, this.flipped()), this.cursor, dx, dy, links);
      this.draw(true);
    } else if ((event.key === "Enter" || event.key === " ") && this.cursor) {
      event.preventDefault();
      this.clickCell(this.cursor);
      this.focusCursor();
    }
  }

  onGlobalKey(event) {
    if (event.target && /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName)) return;
    if (event.key === "Escape") {
      this.clearSelection();
    } else if (/^[1-9]$/.test(event.key)) {
      const entries = this.chooser || (this.myTurn() ? cellFree(this.snap.pointing) : null);
      const index = entries ? entries.findIndex((_, i) => chooserKey(entries, i) === event.key) : -1;
      if (index < 0) return;
      event.preventDefault();
      this.play(entries[index].move);
    }
  }

  // ---- drawing ----
  shownView() { return this.viewing ? this.viewing.view : this.snap && this.snap.view; }

  marks(view) {
    const live = !this.viewing && this.myTurn() && !this.queued;
    // While another player's turn is staged, its current step stands for the last move.
    const step = !this.viewing ? this.stager.current() : null;
    const last = step ? new Set(step.cells)
      : new Set((view.last_move || []).map((i) => view.cells[i] && view.cells[i].name));
    // A kept move shows its cells as chosen until it goes out.
    const kept = this.queued && (this.snap.pointing || []).find((entry) => entry.move === this.queued.move);
    return {
      again: live ? againChoice(this.snap.pointing, this.selected) : null,
      targets: live ? targets(this.snap.pointing, this.selected) : new Set(),
      selected: live ? this.selected : (kept && !this.viewing ? kept.cells : []),
      hint: !this.viewing && this.hint ? this.hint.cells || [] : [],
      last,
      cursor: this.cursor,
    };
  }

  draw(keepFocus) {
    const snap = this.snap;
    const view = this.shownView();
    if (!snap || !view) return;
    document.title = this.turnAlert.title(`${snap.name} · Ludus`);
    this.heading.textContent = snap.name;
    if (!this.cursor || !view.cells.some((c) => c.name === this.cursor)) {
      const starts = [...targets(snap.pointing || [], [])];
      this.cursor = starts[0] || view.cells[Math.floor(view.cells.length / 2)].name;
    }
    const hadFocus = keepFocus || this.boardHolder.contains(document.activeElement);
    const main = this.context.main;
    main.dataset.seq = snap.seq;
    main.dataset.toMove = snap.to_move || "";
    main.dataset.myTurn = this.canAct() ? "true" : "false";
    main.dataset.over = snap.outcome ? "true" : "false";
    main.dataset.game = snap.game;
    // Once over, the server's summary says why (a flag, an agreed draw), which the rules' own
    // status line cannot know.
    const step = this.viewing ? null : this.stager.current();
    this.status.textContent = this.viewing ? this.viewingText()
      : snap.outcome ? snap.outcome.summary || view.status
        : step ? `${seatLabel(snap, (snap.history || []).at(-1)?.seat)}'s turn, ${step.text}` : view.status;
    main.dataset.stage = step ? String(step.index + 1) : "";
    const marks = this.marks(view);
    const board = drawBoard(snap.game, view, marks, this.flipped());
    replace(this.boardHolder, board);
    this.againNote.textContent = marks.again ? `Click ${marks.again.cell} again to ${marks.again.label}.` : "";
    if (this.slide && !this.viewing) {
      animateMoves(board, this.slide.before, this.slide.after, this.flipped(), performance.now() - this.slide.at);
    }
    replace(this.viewBanner, this.viewing ? h("p", { class: "notice row" },
      `You are looking at ${this.viewingText().toLowerCase()}; the game goes on meanwhile.`,
      h("button", { type: "button", id: "back-to-game", onclick: () => this.backToGame() }, "Back to the game")) : null);
    const free = this.myTurn() && !this.queued && !this.chooser ? cellFree(snap.pointing) : null;
    replace(this.chooserBox, chooserBar(this, this.chooser || free));
    this.moveForm.hidden = !this.holdsSeat() || Boolean(snap.outcome);
    this.replay.update();
    this.drawSide();
    this.describeCursor();
    this.fit();
    if (hadFocus) this.focusCursor();
  }

  drawSide() { drawSide(this, this.side); }

  /** The board as large as the window leaves room for, the players and actions still in sight. */
  fit() { fitBoard(this.boardArea, [this.boardHolder, this.againNote, this.seatsBottom, this.actionsBar]); }

  viewingText() {
    return this.viewing.ply === 0 ? "The start position" : `The position after turn ${this.viewing.ply}`;
  }

  describeCursor() {
    const view = this.shownView();
    const cell = view && view.cells.find((c) => c.name === this.cursor);
    this.cellInfo.textContent = cell ? `${cell.name}: ${describeStack(cell.stack)}` : "";
  }

  focusCursor() {
    const cell = this.boardHolder.querySelector(`[data-cell="${CSS.escape(this.cursor || "")}"]`);
    if (cell) cell.focus({ preventScroll: true });
  }

  tick() {
    tickClocks(this.context.main, this.snap, Date.now());
    tickGrace(this.side, Date.now());
    this.lowTime.check(this.snap, this.mySeats(), Date.now());
    if (this.snap && this.snap.thinking) {
      const line = this.side.querySelector("#thinking");
      if (line) line.textContent = thinkingText(this.snap, Date.now());
    }
  }
}
