// The server's people routes (accounts, players and ratings, pairing): thin calls over api.js's
// `call`. The session cookie is HttpOnly: the page never reads it, the browser sends it with
// every same-origin request, and `GET /api/account` says who it belongs to.

import { call } from "./api.js";

const part = encodeURIComponent;

// ---- accounts ----
export const whoAmI = () => call("GET", "/api/account");
export const signUp = (name, password, bot) => call("POST", "/api/account/signup", { name, password, bot: Boolean(bot) });
export const signIn = (name, password) => call("POST", "/api/account/signin", { name, password });
export const signOut = () => call("POST", "/api/account/signout", {});
export const changePassword = (current, next) => call("POST", "/api/account/password", { current, new: next });
export const setAbout = (about) => call("POST", "/api/account/about", { about });
export const newToken = (label) => call("POST", "/api/account/tokens", { label });
export const accountGames = () => call("GET", "/api/account/games");

// ---- players and ratings ----
export const getPlayer = (name) => call("GET", `/api/players/${part(name)}`);
export const getLeaderboard = (game, cls) =>
  call("GET", `/api/leaderboard?game=${part(game)}&class=${part(cls)}`);

// ---- pairing ----
export const listSeeks = () => call("GET", "/api/seeks");
export const postSeek = (seek) => call("POST", "/api/seeks", seek);
export const cancelSeek = (id) => call("DELETE", `/api/seeks/${part(id)}`);
export const acceptSeek = (id) => call("POST", `/api/seeks/${part(id)}/accept`, {});
export const listPools = () => call("GET", "/api/pools");
export const joinPool = (id) => call("POST", `/api/pools/${part(id)}/join`, {});
export const leavePool = (id) => call("POST", `/api/pools/${part(id)}/leave`, {});
export const postChallenge = (challenge) => call("POST", "/api/challenges", challenge);
export const listChallenges = () => call("GET", "/api/challenges");
export const acceptChallenge = (id) => call("POST", `/api/challenges/${part(id)}/accept`, {});
export const declineChallenge = (id) => call("POST", `/api/challenges/${part(id)}/decline`, {});
export const cancelChallenge = (id) => call("DELETE", `/api/challenges/${part(id)}`);
export const offerRematch = (gameId) => call("POST", `/api/games/${part(gameId)}/rematch`, {});
