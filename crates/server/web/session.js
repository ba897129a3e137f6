// Who is signed in in this browser: the account `GET /api/account` names (the cookie itself is
// HttpOnly and never read here), kept for the page's parts and told to them when it changes.

import { whoAmI } from "./people_api.js";

let current = null;
let loaded = null;
const listeners = new Set();

/** The signed-in account `{name, bot}`, or null; asks the server the first time. */
export async function loadAccount() {
  if (!loaded) {
    loaded = whoAmI().then((answer) => { current = (answer && answer.account) || null; return current; },
      () => { current = null; return current; });
  }
  return loaded;
}

/** The account as last known (null before `loadAccount` answers, or when signed out). */
export function account() { return current; }

/** After a sign-in, sign-up or sign-out: the new account (or null) for every listener. */
export function setAccount(next) {
  current = next || null;
  loaded = Promise.resolve(current);
  for (const listener of [...listeners]) listener(current);
}

/** Calls `listener(account)` on every change; answers the function that stops it. */
export function onAccount(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

