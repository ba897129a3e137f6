// The side panel's parts for a game between browsers: the invitation link of each free seat (for
// its creator), "you are watching" for a spectator, a draw offer or a takeback request and the
// answer to the other side's, and what the person who stayed may do about an absent player once
// the grace period has passed. Names come from other people: they are only ever set as text.

import { h } from "./dom.js";
import { seatLabel } from "./panel.js";
import { clockText } from "./clocks.js";

/** The whole address of an invitation: the server's (built from its public address, or the
 * address it was reached by), else the path it gave made absolute here. */
function inviteUrl(invite) {
  if (invite.url) return String(invite.url);
  try { return new URL(invite.link, location.origin).href; } catch (err) { return String(invite.link); }
}

/** Copies the link in `input`; says whether it worked in `note`. */
async function copyLink(input, note) {
  let copied = false;
  try {
    await navigator.clipboard.writeText(input.value);
    copied = true;
  } catch (err) {
    // Without clipboard permission, select the text and let the older command copy it.
    input.focus();
    input.select();
    try { copied = document.execCommand("copy"); } catch (inner) { copied = false; }
  }
  note.textContent = copied ? "Copied." : "Select the link and copy it (Ctrl+C).";
}

function inviteRow(snap, invite) {
  const id = `invite-link-${invite.seat}`;
  const input = h("input", { type: "text", id, class: "invite-link", readonly: true, value: inviteUrl(invite),
    onfocus: (event) => event.target.select() });
  const note = h("span", { class: "muted", role: "status" });
  return h("div", { class: "invite", "data-invite-seat": invite.seat },
    h("label", { for: id }, `Link for seat ${invite.seat}, ${seatLabel(snap, invite.seat)}:`),
    h("div", { class: "row" }, input,
      h("button", { type: "button", id: `copy-invite-${invite.seat}`, onclick: () => copyLink(input, note) }, "Copy"),
      note));
}

/** Whether `url` names a host that only this computer answers to. */
function namesThisComputerOnly(url) {
  let host = location.hostname;
  try { host = new URL(url, location.origin).hostname; } catch (err) { /* the page's own */ }
  return host === "localhost" || host === "[::1]" || host.startsWith("127.");
}

/** Says that links naming this computer open nowhere else, and how to let a friend in. */
function localLinkWarning(invites) {
  if (!invites.some((invite) => namesThisComputerOnly(inviteUrl(invite)))) return null;
  return h("p", { class: "notice", id: "invite-local", role: "note" },
    h("strong", {}, "These links name this computer only"), ` (${location.host}): a friend on another `
    + "computer cannot open them. Start the server with ", h("code", {}, "ludus serve --addr 0.0.0.0:8080"),
    ", open this page at this computer's network address (or the server's public address), and copy the link there.");
}

/** The invitation links of the seats still free, for the browser that created the game. */
export function invitesPanel(screen) {
  const snap = screen.snap;
  const free = new Set((snap.seats || []).filter((seat) => seat.free).map((seat) => seat.seat));
  const invites = (screen.tokens().invites || []).filter((invite) => free.has(invite.seat));
  if (!invites.length || snap.outcome) return null;
  return h("section", { class: "panel invites", id: "invites", "aria-label": "Invitations" },
    h("h3", {}, "Invite a friend"),
    h("p", { class: "muted" }, "Send each link to one person: opening it takes the seat, once."),
    localLinkWarning(invites),
    invites.map((invite) => inviteRow(snap, invite)));
}

/** "You are watching" for a browser that holds no seat of the game. */
export function watchingPanel(screen) {
  if (screen.holdsSeat()) return null;
  return h("section", { class: "panel notice watching", id: "watching", role: "status" },
    h("strong", {}, "You are watching this game."), " The moves appear here as they are played.");
}

const KIND_TEXT = { draw: "offers a draw", takeback: "asks to take back their last turn" };

function incomingOffer(screen, offer) {
  const who = seatLabel(screen.snap, offer.from);
  const text = `${who} ${KIND_TEXT[offer.kind] || `asks: ${offer.kind}`}.`;
  const asked = (offer.waiting || []).some((seat) => screen.mySeats().includes(seat));
  if (!asked) {
    const waitingFor = (offer.waiting || []).map((seat) => seatLabel(screen.snap, seat)).join(", ");
    return h("p", { id: "offer-text" }, screen.holdsSeat() && waitingFor ? `${text} Waiting for ${waitingFor}.` : text);
  }
  return [h("p", { id: "offer-text" }, h("strong", {}, text)),
    h("div", { class: "row" },
      h("button", { type: "button", class: "primary", id: "accept-offer", onclick: () => screen.answerOffer(true) }, "Accept"),
      h("button", { type: "button", id: "decline-offer", onclick: () => screen.answerOffer(false) }, "Decline"))];
}

/** Draw offers and takeback requests between people, and the answer to the other side's. */
export function offersPanel(screen) {
  const snap = screen.snap;
  // Offers wait until every invited person has come.
  if (snap.outcome || !screen.againstPerson() || (snap.seats || []).some((seat) => seat.free)) return null;
  const offer = snap.offer;
  const mine = screen.mySeats();
  let body;
  if (offer && (offer.accepted || []).some((seat) => mine.includes(seat))) {
    body = h("p", { id: "offer-text" }, offer.kind === "draw"
      ? "You accepted the draw; waiting for the other players."
      : "You accepted the takeback; waiting for the other players whose turns it undoes.");
  } else if (offer && mine.includes(offer.from)) {
    body = h("p", { id: "offer-text" }, offer.kind === "draw" ? "You offered a draw; waiting for the answer."
      : "You asked to take back your last turn; waiting for the answer.");
  } else if (offer) {
    body = incomingOffer(screen, offer);
  } else {
    const played = (snap.history || []).some((turn) => mine.includes(turn.seat));
    body = h("div", { class: "row" },
      h("button", { type: "button", id: "offer-draw", onclick: () => screen.makeOffer("draw") }, "Offer a draw"),
      // A rated game takes nothing back (the server refuses it).
      snap.rated ? null : h("button", { type: "button", id: "offer-takeback", disabled: !played, onclick: () => screen.makeOffer("takeback"),
        title: played ? "The other side decides" : "You have not played a turn yet" }, "Ask to take back"));
  }
  return h("section", { class: `panel offers${offer ? " incoming" : ""}`, id: "offers", "aria-label": "Offers" }, body);
}

/** Milliseconds until the wait for an away seat may end at `fromMs` (0 once it may, or when the server gave no time). */
function graceLeftMs(fromMs, now) {
  const from = Number(fromMs);
  return Number.isFinite(from) ? Math.max(0, from - now) : 0;
}

function graceText(ms) {
  return ms > 0 ? `You may end the wait in ${clockText(ms)}.` : "The grace period is over: you may end the wait.";
}

function absentRow(screen, entry, now) {
  const seat = entry.seat;
  const left = graceLeftMs(entry.claim_from_ms, now);
  const level = h("select", { id: `hand-level-${seat}`, "aria-label": `Computer level for seat ${seat}` },
    screen.context.meta.levels.map((option) => h("option", { value: `ai:${option.level}`, selected: option.level === 3 },
      `level ${option.level} (${option.name})`)));
  // The buttons wait for the grace period (the server refuses earlier claims anyway).
  const waiting = { disabled: left > 0, "data-grace-button": "" };
  return h("div", { class: "absent", "data-absent-seat": seat },
    h("p", {}, h("strong", {}, `${seatLabel(screen.snap, seat)} is away.`), " ",
      h("span", { class: "grace", "data-claim-from": entry.claim_from_ms ?? "", role: "timer" }, graceText(left))),
    h("div", { class: "row" },
      h("button", { type: "button", id: `claim-win-${seat}`, ...waiting, onclick: () => screen.absent(seat, "win") }, "Claim the win"),
      // A rated game is never handed to a computer (the server refuses it).
      screen.snap.rated ? null : h("button", { type: "button", id: `hand-seat-${seat}`, ...waiting,
        onclick: () => screen.absent(seat, "computer", level.value) }, "Hand the seat to the computer"),
      screen.snap.rated ? null : level));
}

/** Moves every grace countdown under `root` on to `now`, and frees its buttons when it ends. */
export function tickGrace(root, now) {
  for (const line of root.querySelectorAll(".absent [data-claim-from]")) {
    const left = graceLeftMs(line.dataset.claimFrom, now);
    const text = graceText(left);
    if (line.textContent !== text) line.textContent = text;
    for (const button of line.closest(".absent").querySelectorAll("[data-grace-button]")) button.disabled = left > 0;
  }
}

/** For the person who stayed: claim the win or hand an absent person's seat to the computer. */
export function absentPanel(screen) {
  const snap = screen.snap;
  if (snap.outcome || !screen.holdsSeat()) return null;
  const mine = screen.mySeats();
  const away = (snap.seats || []).filter((seat) => seat.away && seat.player === "human" && !mine.includes(seat.seat));
  if (!away.length) return null;
  return h("section", { class: "panel absent-panel", id: "absent", "aria-label": "Absent players" },
    away.map((entry) => absentRow(screen, entry, Date.now())));
}
