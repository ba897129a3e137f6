// The account bar in the page's header, on every page: "Sign in" and "Sign up" for a visitor;
// the signed-in name (a link to the profile) and "Sign out" once signed in.

import { h, replace, announce } from "./dom.js";
import { signOut } from "./people_api.js";
import { account, onAccount, setAccount } from "./session.js";
import { profilePath, botBadge } from "./player_name.js";

/** `/account?next=…` leading back to the page the person is on. */
function accountLink(mode) {
  const here = location.pathname + location.search;
  const query = new URLSearchParams();
  if (mode === "signup") query.set("mode", "signup");
  if (!here.startsWith("/account")) query.set("next", here);
  const text = query.toString();
  return `/account${text ? `?${text}` : ""}`;
}

function draw(bar, navigate) {
  const me = account();
  if (!me) {
    replace(bar,
      h("a", { class: "button", id: "sign-in-link", href: accountLink("signin"), "data-link": true }, "Sign in"),
      h("a", { class: "button", id: "sign-up-link", href: accountLink("signup"), "data-link": true }, "Sign up"));
    return;
  }
  const out = h("button", { type: "button", id: "sign-out" }, "Sign out");
  out.addEventListener("click", async () => {
    out.disabled = true;
    try {
      await signOut();
    } catch (err) {
      // Signed out on the server or not, this page forgets the account.
    }
    setAccount(null);
    announce("Signed out.");
    navigate(location.pathname + location.search);
  });
  replace(bar,
    h("span", { class: "signed-in" }, h("span", { class: "visually-hidden" }, "Signed in as "),
      h("a", { id: "account-name", href: profilePath(me.name), "data-link": true }, me.name), botBadge(me.bot)),
    h("a", { href: "/account", "data-link": true, id: "account-link" }, "Account"),
    out);
}

/** Draws the bar into `#account-bar` and redraws it on every sign-in or sign-out. */
export function startAccountBar(navigate) {
  const bar = document.getElementById("account-bar");
  if (!bar) return;
  const redraw = () => draw(bar, navigate);
  onAccount(redraw);
  // The links carry the page to come back to: redraw them when the address changes.
  window.addEventListener("popstate", redraw);
  document.addEventListener("ludus:route", redraw);
  redraw();
}
