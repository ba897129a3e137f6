// The page's entry: the theme switch and a router on the address (`/` home, `/?setup=GAME` its
// set-up, `/?rules=GAME` its rules, `/g/{id}` a game, `/lobby` the lobby, `/account` signing in
// and the account, `/@/{name}` a player's profile, `/leaderboard`), the only paths the server
// sends the page on.

import { h, replace } from "./dom.js";
import { getMeta } from "./api.js";
import { showHome } from "./home.js";
import { showSetup } from "./setup.js";
import { showRules } from "./rules.js";
import { showGame } from "./game.js";
import { claimFromLink } from "./online.js";
import { showLobby } from "./lobby.js";
import { startPeople } from "./people.js";
import { adoptAccountSeats } from "./account_seats.js";
import { showAccount } from "./account.js";
import { showProfile } from "./profile.js";
import { showLeaderboard } from "./leaderboard.js";

const main = document.getElementById("main");
let meta = null;
let leave = null;

function setupTheme() {
  const select = document.getElementById("theme");
  select.value = document.documentElement.dataset.theme;
  select.addEventListener("change", () => {
    document.documentElement.dataset.theme = select.value;
    try { localStorage.setItem("ludus.theme", select.value); } catch (err) { /* not remembered */ }
  });
}

/** Goes to `path` inside the page without reloading it. */
export function navigate(path) {
  if (path !== location.pathname + location.search) history.pushState(null, "", path);
  route();
}

let routes = 0;

/** The leaving function of a page drawn by route `turn`: run at once if a newer route began meanwhile. */
function settle(turn, done) {
  if (turn === routes) return done || null;
  if (done) done();
  return null;
}

async function route() {
  if (leave) { leave(); leave = null; }
  routes += 1;
  const turn = routes;
  const parts = location.pathname.split("/").filter(Boolean).map(decodeURIComponent);
  const query = new URLSearchParams(location.search);
  try {
    if (!meta) meta = await getMeta();
    await startPeople(meta, navigate);
    const context = { main, meta, navigate };
    document.dispatchEvent(new Event("ludus:route"));
    if (parts[0] === "g" && parts[1]) {
      const note = await claimFromLink(parts[1], query);
      await adoptAccountSeats(parts[1]);
      leave = settle(turn, await showGame({ ...context, note }, parts[1]));
    } else if (parts[0] === "lobby") {
      leave = settle(turn, await showLobby(context));
    } else if (parts[0] === "account") {
      await showAccount(context);
    } else if (parts[0] === "@" && parts[1]) {
      await showProfile(context, parts[1]);
    } else if (parts[0] === "leaderboard") {
      await showLeaderboard(context);
    } else if (query.get("setup")) {
      showSetup(context, query.get("setup"));
    } else if (query.get("rules")) {
      showRules(context, query.get("rules"));
    } else {
      await showHome(context);
    }
  } catch (err) {
    replace(main, h("h1", {}, "Something went wrong"), h("p", { class: "error", role: "alert" }, err.message),
      h("p", {}, h("a", { href: "/", "data-link": true }, "Back to the games")));
  }
  main.focus({ preventScroll: true });
}

// Links marked `data-link` stay inside the page.
document.addEventListener("click", (event) => {
  const link = event.target.closest && event.target.closest("a[data-link]");
  if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  navigate(link.getAttribute("href"));
});
window.addEventListener("popstate", route);

// A fault in the page itself is said on the page (and the game goes on from the next snapshot).
function reportFault(message) {
  const line = document.getElementById("page-error");
  if (line) line.textContent = `The page hit a problem: ${message}. Reloading the page continues the game.`;
}
window.addEventListener("error", (event) => reportFault(event.message));
window.addEventListener("unhandledrejection", (event) => reportFault(String(event.reason && event.reason.message || event.reason)));

setupTheme();
route();
