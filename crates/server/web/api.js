// The server's JSON API (docs/API.md) and the per-game WebSocket; the seat tokens this browser holds.

/** An answer the server refused: its status, its one-line message and the snapshot it may carry. */
export class ApiError extends Error {
  constructor(status, message, snapshot) {
    super(message);
    this.status = status;
    this.snapshot = snapshot || null;
  }
}

/** One request to the API: the parsed JSON answer, or an `ApiError` with the server's message. */
export async function call(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, "the server did not answer; is `ludus serve` still running?");
  }
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (err) { data = null; }
  if (!response.ok) {
    const message = (data && data.error) || `${response.status} ${response.statusText}`;
    throw new ApiError(response.status, message, data && data.snapshot);
  }
  return data;
}

export const getMeta = () => call("GET", "/api/meta");
export const listGames = () => call("GET", "/api/games");
export const createGame = (request) => call("POST", "/api/games", request);
export const getGame = (id) => call("GET", `/api/games/${encodeURIComponent(id)}`);
export const getLobby = () => call("GET", "/api/lobby");
export const getView = (id, ply) =>
  call("GET", `/api/games/${encodeURIComponent(id)}/view?ply=${encodeURIComponent(ply)}`);

/**
 * POSTs an action (`moves`, `undo`, `redo`, `resign`, `hint`, `control`, `claim`, `offer`,
 * `answer`, `absent`) of game `id`.
 */
export const act = (id, action, body) =>
  call("POST", `/api/games/${encodeURIComponent(id)}/${action}`, body);

/** The address of a game's record file in `format` (`json` or `text`). */
export const recordUrl = (id, format) =>
  `/api/games/${encodeURIComponent(id)}/record?format=${format}`;

/**
 * Opens the live socket of game `id`; `onMessage` gets every frame, parsed. On loss it reconnects
 * with a growing delay (0.5 s doubling up to 8 s); `onState` hears `"open"` and
 * `("reconnecting", delayMs)` so the page can say so. The token makes its seat present.
 * The answer's `send(frame)` sends a message (the chat's lines) while the socket is open.
 */
export function connect(id, token, onMessage, onState = () => {}) {
  let socket = null;
  let closed = false;
  let delay = 500;
  const open = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = token ? `?token=${encodeURIComponent(token)}` : "";
    socket = new WebSocket(`${scheme}://${location.host}/api/games/${encodeURIComponent(id)}/ws${query}`);
    socket.onopen = () => { delay = 500; onState("open"); };
    socket.onmessage = (event) => {
      let frame = null;
      try { frame = JSON.parse(event.data); } catch (err) { return; }
      onMessage(frame);
    };
    socket.onclose = () => {
      if (closed) return;
      onState("reconnecting", delay);
      window.setTimeout(open, delay);
      delay = Math.min(delay * 2, 8000);
    };
  };
  open();
  return {
    close() { closed = true; if (socket) socket.close(); },
    /** Sends `frame` as JSON; false when the socket is not open (nothing is kept to send later). */
    send(frame) {
      if (!socket || socket.readyState !== WebSocket.OPEN) return false;
      socket.send(JSON.stringify(frame));
      return true;
    },
  };
}

const KEY = (id) => `ludus.game.${id}`;

/**
 * Remembers what a new game gave this browser: `{owner, seats:[{seat, token}], invites:[{seat,
 * invite, link}]}`. The invitation links are kept beside the tokens so a reload still shows them.
 */
export function saveTokens(id, created) {
  const held = { owner: created.owner || null, seats: created.seats || [], invites: created.invites || [] };
  try {
    localStorage.setItem(KEY(id), JSON.stringify(held));
  } catch (err) { /* private mode: the game still works until the tab closes */ }
  memory.set(id, held);
}

const memory = new Map();

/**
 * Adds the token of `seat` of game `id` to what this browser holds (a seat the account holds,
 * a game paired in the lobby), keeping the tokens and links it held before. Answers whether the
 * seat was new here.
 */
export function holdSeat(id, seat, token) {
  const held = tokensFor(id);
  if (held.seats.some((entry) => entry.seat === seat && entry.token === token)) return false;
  saveTokens(id, { owner: held.owner, invites: held.invites,
    seats: held.seats.filter((entry) => entry.seat !== seat).concat([{ seat, token }]) });
  return true;
}

/** The tokens this browser holds for game `id`: `{owner, seats, invites}`; empty for a spectator. */
export function tokensFor(id) {
  if (memory.has(id)) return memory.get(id);
  let stored = null;
  try { stored = JSON.parse(localStorage.getItem(KEY(id)) || "null"); } catch (err) { stored = null; }
  const tokens = stored && Array.isArray(stored.seats)
    ? { owner: stored.owner || null, seats: stored.seats, invites: Array.isArray(stored.invites) ? stored.invites : [] }
    : { owner: null, seats: [], invites: [] };
  memory.set(id, tokens);
  return tokens;
}

/** The ids of the games this browser holds tokens for (private ones included). */
export function heldIds() {
  const ids = [];
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (key && key.startsWith(KEY(""))) ids.push(key.slice(KEY("").length));
    }
  } catch (err) { /* private mode: only the listed games */ }
  return ids;
}

/** Forgets the tokens of game `id` (deleted or aborted). */
export function forgetGame(id) {
  memory.delete(id);
  try { localStorage.removeItem(KEY(id)); } catch (err) { /* private mode: nothing was kept */ }
}

/** The token of `seat` (1-based) if this browser plays it. */
export function seatToken(id, seat) {
  const found = tokensFor(id).seats.find((entry) => entry.seat === seat);
  return found ? found.token : null;
}
