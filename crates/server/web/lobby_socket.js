// The lobby's WebSocket (`/api/lobby/ws`): the open seeks, live, and for a signed-in person the
// personal frames (a game of theirs began, a challenge came, was declined or canceled). One
// socket for the whole page, open while someone wants it: the lobby page, and every page while
// signed in (the handshake carries the session cookie, so a sign-in or sign-out reopens it).
// It reconnects after a loss with a growing delay, like the game's socket.

const wanted = new Set();
const listeners = new Set();
const seeks = new Map();
let socket = null;
let delay = 500;
let retry = null;
let state = "closed";

function open() {
  window.clearTimeout(retry);
  retry = null;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const mine = new WebSocket(`${scheme}://${location.host}/api/lobby/ws`);
  socket = mine;
  mine.onopen = () => { delay = 500; state = "open"; tell({ type: "state", state }); };
  mine.onmessage = (event) => {
    let frame = null;
    try { frame = JSON.parse(event.data); } catch (err) { return; }
    if (frame && typeof frame === "object") take(frame);
  };
  mine.onclose = () => {
    if (socket !== mine) return;
    socket = null;
    if (!wanted.size) { state = "closed"; return; }
    state = "reconnecting";
    tell({ type: "state", state, delay });
    retry = window.setTimeout(open, delay);
    delay = Math.min(delay * 2, 8000);
  };
}

function take(frame) {
  if (frame.type === "seeks" && Array.isArray(frame.seeks)) {
    seeks.clear();
    for (const seek of frame.seeks) if (seek && seek.id) seeks.set(seek.id, seek);
  } else if (frame.type === "seek" && frame.seek && frame.seek.id) {
    seeks.set(frame.seek.id, frame.seek);
  } else if (frame.type === "unseek") {
    seeks.delete(frame.id);
  }
  tell(frame);
}

function tell(frame) {
  for (const listener of [...listeners]) listener(frame);
}

/** Opens the socket for `reason` (or keeps it open); `want(reason, false)` lets it go. */
export function want(reason, yes = true) {
  if (yes) wanted.add(reason); else wanted.delete(reason);
  if (wanted.size && !socket && !retry) open();
  if (!wanted.size && (socket || retry)) close();
}

function close() {
  window.clearTimeout(retry);
  retry = null;
  const old = socket;
  socket = null;
  state = "closed";
  if (old) old.close();
}

/** Closes and opens the socket again (the person signed in or out: a new handshake). */
export function reopen() {
  close();
  seeks.clear();
  delay = 500;
  if (wanted.size) open();
}

/** Calls `listener(frame)` for every frame (and `{type: "state"}` changes); answers the stopper. */
export function listen(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The open seeks as last heard, oldest first. */
export function openSeeks() { return [...seeks.values()]; }

/** Adds a seek the server answered with before its frame comes (the frame replaces it). */
export function noteSeek(seek) {
  if (seek && seek.id) { seeks.set(seek.id, seek); tell({ type: "seek", seek }); }
}

/** Drops a seek known gone (canceled or taken) before its frame comes. */
export function dropSeek(id) {
  if (seeks.delete(id)) tell({ type: "unseek", id });
}

/** "open", "reconnecting" or "closed". */
export function socketState() { return state; }
