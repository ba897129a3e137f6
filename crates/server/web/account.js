// `/account`: for a visitor, signing in or signing up (name and password; the server's refusal
// is said in an alert line); once signed in, changing the password, the profile text, and for a
// bot account a new API token (shown once).

import { h, replace, announce } from "./dom.js";
import { signIn, signUp, changePassword, setAbout, newToken, getPlayer } from "./people_api.js";
import { loadAccount, setAccount } from "./session.js";
import { profilePath, botBadge } from "./player_name.js";

/** Where to go after signing in: the `next` of the address when it is a path of this page. */
function nextPath() {
  const next = new URLSearchParams(location.search).get("next");
  return next && next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/account") ? next : "/";
}

function field(id, label, attrs, help) {
  return h("div", { class: "option" },
    h("label", { for: id }, label),
    h("input", { id, name: id, ...attrs }),
    help ? h("span", { class: "help", id: `${id}-help` }, help) : null);
}

/** A form whose submit runs `act(form)`; its alert line says the server's refusal. */
function actionForm(id, children, buttonText, act) {
  const errorLine = h("p", { class: "error", role: "alert", id: `${id}-error` });
  const done = h("p", { class: "done", role: "status", id: `${id}-done` });
  const submit = h("button", { type: "submit", class: "primary", id: `${id}-submit` }, buttonText);
  const form = h("form", { class: "account-form", id, novalidate: true }, children, h("div", { class: "row" }, submit), errorLine, done);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    errorLine.textContent = "";
    done.textContent = "";
    submit.disabled = true;
    try {
      const said = await act(form);
      if (said) done.textContent = said;
    } catch (err) {
      errorLine.textContent = err.message;
    }
    submit.disabled = false;
  });
  return form;
}

function signInPage(context) {
  const signup = new URLSearchParams(location.search).get("mode") === "signup";
  document.title = `${signup ? "Sign up" : "Sign in"} · Ludus`;
  const other = new URLSearchParams(location.search);
  if (signup) other.delete("mode"); else other.set("mode", "signup");
  const otherLink = `/account${other.toString() ? `?${other}` : ""}`;
  const form = actionForm("auth", [
    field("auth-name", "Name", { type: "text", autocomplete: "username", required: true, minlength: 3, maxlength: 20,
      autocapitalize: "none", spellcheck: "false", "aria-describedby": signup ? "auth-name-help" : null },
    signup ? "3 to 20 letters, digits, _ or -, starting with a letter or digit." : null),
    field("auth-password", "Password", { type: "password", required: true, minlength: 8, maxlength: 128,
      autocomplete: signup ? "new-password" : "current-password", "aria-describedby": signup ? "auth-password-help" : null },
    signup ? "8 to 128 characters." : null),
    signup ? h("div", { class: "option" },
      h("label", { for: "auth-bot", class: "check" }, h("input", { type: "checkbox", id: "auth-bot", name: "auth-bot" }),
        " A bot account"),
      h("span", { class: "help" }, "For a program that plays through the API with tokens; it is marked BOT everywhere.")) : null,
  ], signup ? "Sign up" : "Sign in", async (node) => {
    const name = node.querySelector("#auth-name").value.trim();
    const password = node.querySelector("#auth-password").value;
    const answer = signup
      ? await signUp(name, password, node.querySelector("#auth-bot").checked)
      : await signIn(name, password);
    setAccount(answer.account);
    announce(`Signed in as ${answer.account.name}.`);
    context.navigate(nextPath());
    return null;
  });
  replace(context.main, h("section", { class: "panel account-panel" },
    h("h1", {}, signup ? "Sign up" : "Sign in"),
    h("p", { class: "muted" }, signup
      ? "An account keeps your rating and your games: you can continue them from any browser."
      : "Sign in to play rated games, seek an opponent in the lobby and continue your games from any browser."),
    form,
    h("p", {}, signup ? "Already have an account? " : "No account yet? ",
      h("a", { href: otherLink, "data-link": true, id: "auth-switch" }, signup ? "Sign in" : "Sign up"))));
  context.main.querySelector("#auth-name").focus();
}

async function accountPage(context, me) {
  document.title = `${me.name} · Account · Ludus`;
  let about = "";
  try { about = (await getPlayer(me.name)).about || ""; } catch (err) { about = ""; }
  const password = actionForm("password-form", [
    h("input", { type: "text", name: "username", autocomplete: "username", value: me.name, hidden: true, readonly: true }),
    field("password-current", "Current password", { type: "password", autocomplete: "current-password", required: true }),
    field("password-new", "New password", { type: "password", autocomplete: "new-password", required: true, minlength: 8,
      maxlength: 128, "aria-describedby": "password-new-help" }, "8 to 128 characters."),
  ], "Change the password", async (node) => {
    await changePassword(node.querySelector("#password-current").value, node.querySelector("#password-new").value);
    node.reset();
    return "The password is changed. Your other sessions were signed out.";
  });
  const text = h("textarea", { id: "about-text", name: "about", rows: 4, maxlength: 400, "aria-describedby": "about-help" });
  text.value = about;
  const profile = actionForm("about-form", [h("div", { class: "option" },
    h("label", { for: "about-text" }, "Profile text"), text,
    h("span", { class: "help", id: "about-help" }, "At most 400 characters, shown as plain text on your profile."))],
  "Save the profile text", async () => {
    await setAbout(text.value);
    return "Saved.";
  });
  const tokenBox = h("div", { id: "token-shown" });
  const tokens = me.bot ? actionForm("token-form", [
    field("token-label", "Label", { type: "text", maxlength: 60, placeholder: "my engine", autocomplete: "off" },
      "A name for this token, to tell your tokens apart."),
  ], "New API token", async (node) => {
    const answer = await newToken(node.querySelector("#token-label").value.trim());
    const shown = h("input", { type: "text", id: "token-value", class: "invite-link", readonly: true, value: answer.token,
      "aria-label": "The new API token", onfocus: (event) => event.target.select() });
    replace(tokenBox, h("p", { class: "notice" }, h("strong", {}, "Copy it now: "),
      "the token is shown this once. Your bot sends it as ", h("code", {}, "Authorization: Bearer …"), "."), shown);
    shown.focus();
    return null;
  }) : null;
  replace(context.main,
    h("h1", {}, "Your account: ", h("span", { id: "account-title-name" }, me.name), " ", botBadge(me.bot)),
    h("p", {}, h("a", { href: profilePath(me.name), "data-link": true, id: "own-profile" }, "Your profile, ratings and games")),
    h("div", { class: "account-grid" },
      h("section", { class: "panel", "aria-labelledby": "password-title" }, h("h2", { id: "password-title" }, "Password"), password),
      h("section", { class: "panel", "aria-labelledby": "about-title" }, h("h2", { id: "about-title" }, "Profile"), profile),
      tokens ? h("section", { class: "panel", "aria-labelledby": "token-title" }, h("h2", { id: "token-title" }, "API tokens"),
        h("p", { class: "muted" }, "Your bot plays through the API with a token."), tokens, tokenBox) : null));
}

/** The `/account` page (signing out from the header draws it again, as the sign-in form). */
export async function showAccount(context) {
  const me = await loadAccount();
  if (me) await accountPage(context, me); else signInPage(context);
}
