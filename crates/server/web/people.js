// The page's people side, started once: the account bar, the incoming challenges, and the lobby
// socket kept open while signed in, whose `started` frame takes the person to their new game.

import { loadAccount, onAccount } from "./session.js";
import { startAccountBar } from "./account_bar.js";
import { startInbox } from "./challenge_inbox.js";
import { challengesFor } from "./challenges.js";
import { want, reopen, listen } from "./lobby_socket.js";
import { openStartedGame } from "./started.js";

let started = false;

/** Starts the people side for the page (once); `navigate` goes to a path inside the page. */
export async function startPeople(meta, navigate) {
  if (started) return;
  started = true;
  const me = await loadAccount();
  startAccountBar(navigate);
  startInbox(meta, navigate);
  listen((frame) => {
    if (frame.type === "started") openStartedGame(navigate, frame);
  });
  want("signed-in", Boolean(me));
  challengesFor(me);
  onAccount((account) => {
    want("signed-in", Boolean(account));
    // The handshake carries the cookie: the socket must hear who is signed in now.
    reopen();
    challengesFor(account);
  });
}
