// The signed-in person's challenges, rematch offers included: the incoming ones waiting for an
// answer, the outgoing ones waiting for the other side, and the outgoing ones the other side
// declined (kept to say so). Read with `GET /api/challenges` at sign-in and kept current from
// the lobby socket's personal frames; the page's parts draw from here and hear every change.

import { listChallenges, postChallenge, acceptChallenge, declineChallenge, cancelChallenge, offerRematch } from "./people_api.js";
import { listen } from "./lobby_socket.js";
import { nameOf } from "./player_name.js";

const incoming = new Map();
const outgoing = new Map();
const declined = new Map();
const listeners = new Set();
let me = null;

function changed() {
  for (const listener of [...listeners]) listener();
}

/** Calls `listener()` after every change; answers the stopper. */
export function onChallenges(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const incomingChallenges = () => [...incoming.values()];
export const outgoingChallenges = () => [...outgoing.values()];
export const declinedChallenges = () => [...declined.values()];

/** Reads the lists again from the server (after a sign-in, a rematch frame, a started game). */
export async function refreshChallenges() {
  if (!me) return;
  let answer;
  try { answer = await listChallenges(); } catch (err) { return; }
  incoming.clear();
  outgoing.clear();
  for (const challenge of (answer && answer.incoming) || []) if (challenge && challenge.id) incoming.set(challenge.id, challenge);
  for (const challenge of (answer && answer.outgoing) || []) if (challenge && challenge.id) outgoing.set(challenge.id, challenge);
  changed();
}

/** Starts over for `account` (null: signed out, nothing held). */
export function challengesFor(account) {
  me = account ? account.name : null;
  incoming.clear();
  outgoing.clear();
  declined.clear();
  changed();
  if (me) refreshChallenges();
}

listen((frame) => {
  if (!me) return;
  if (frame.type === "challenge" && frame.challenge && frame.challenge.id) {
    const challenge = frame.challenge;
    if (nameOf(challenge.from) === me) outgoing.set(challenge.id, challenge); else incoming.set(challenge.id, challenge);
    changed();
  } else if (frame.type === "challenge_declined") {
    const challenge = outgoing.get(frame.id) || { id: frame.id, to: frame.by };
    outgoing.delete(frame.id);
    declined.set(frame.id, { ...challenge, declined_by: frame.by || challenge.to });
    changed();
  } else if (frame.type === "challenge_canceled") {
    if (incoming.delete(frame.id) || outgoing.delete(frame.id)) changed();
  } else if (frame.type === "started") {
    // A challenge of ours was accepted (or a seek, or a pool): the lists changed on the server.
    refreshChallenges();
  } else if (frame.type === "state" && frame.state === "open") {
    refreshChallenges();
  }
});

/** Sends a challenge; answers it (the server's `challenge` object). */
export async function challenge(request) {
  const answer = await postChallenge(request);
  if (answer && answer.challenge) { outgoing.set(answer.challenge.id, answer.challenge); changed(); }
  return answer && answer.challenge;
}

/**
 * Offers a rematch of finished game `gameId`. Answers the server's answer: `{challenge}` (now
 * waiting for the other player), or the new game `{game, seat, token}` when the other player had
 * offered it already.
 */
export async function rematch(gameId) {
  const answer = await offerRematch(gameId);
  if (answer && answer.challenge) { outgoing.set(answer.challenge.id, answer.challenge); changed(); }
  if (answer && answer.game) refreshChallenges();
  return answer;
}

/** Accepts incoming challenge `id`: answers `{game, seat, token}`. */
export async function accept(id) {
  const answer = await acceptChallenge(id);
  incoming.delete(id);
  changed();
  return answer;
}

/** Declines incoming challenge `id`. */
export async function decline(id) {
  await declineChallenge(id);
  incoming.delete(id);
  changed();
}

/** Withdraws outgoing challenge `id`. */
export async function withdraw(id) {
  await cancelChallenge(id);
  outgoing.delete(id);
  changed();
}

/** Forgets a declined challenge once the person has read it. */
export function dismiss(id) {
  if (declined.delete(id)) changed();
}

/** A challenge no longer there (answered elsewhere, expired): drops it here too. */
export function forget(id) {
  if (incoming.delete(id) || outgoing.delete(id)) changed();
}
