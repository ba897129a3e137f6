//! Accounts in the page, typed as a person would: a name made of markup refused with the
//! server's reason in an alert line (no dialog); signing up and the header's account bar; the
//! account page's password change and profile text (markup shown as text on the profile);
//! a bot account's API token shown once; signing out; and a signed-in person continuing their
//! game from a fresh browser after signing in there.

use fantoccini::Client;

use super::driver::{click, eval, find, wait_until};
use super::page::{play_first_decision, screenshot, seq, start_game, wait_game_page, wait_my_turn};

pub const SCRIPT_TEXT: &str = "<script>alert(1)</script>";
pub const IMAGE_TEXT: &str = "<img src=x onerror=alert(1)>";

/// The password each test account signs up with.
pub fn password_of(name: &str) -> String {
    format!("{name}-secret-1")
}

/// The password the accounts scenario changes `name`'s to.
pub fn changed_password(name: &str) -> String {
    format!("{name}-changed-2")
}

/// No alert, confirm or prompt dialog is open in `client`.
pub async fn assert_no_dialog(client: &Client, where_: &str) {
    let dialog = client.get_alert_text().await;
    assert!(dialog.is_err(), "a dialog opened on {where_}: {dialog:?}");
}

/// Elements the page made that could only come from parsing a text as HTML.
pub async fn injected(client: &Client) -> serde_json::Value {
    eval(
        client,
        "return document.querySelectorAll('main img, main script, #challenge-inbox img, #account-bar img').length;",
    )
    .await
}

async fn type_into(client: &Client, css: &str, text: &str) {
    let input = find(client, css).await;
    input.clear().await.expect("clear");
    input.send_keys(text).await.expect("typing");
}

/// Waits until the header names `name` as signed in.
pub async fn wait_signed_in(client: &Client, name: &str) {
    wait_until(
        client,
        &format!(
            "const e = document.querySelector('#account-name'); return e && e.textContent === {name:?};"
        ),
        "the header naming the account",
    )
    .await;
}

/// Fills the form of `/account` (`mode=signup` or sign-in) and submits it.
async fn submit_account_form(
    client: &Client,
    base: &str,
    signup: bool,
    name: &str,
    password: &str,
    bot: bool,
) {
    let mode = if signup { "?mode=signup" } else { "" };
    client
        .goto(&format!("{base}account{mode}"))
        .await
        .expect("the account page");
    type_into(client, "#auth-name", name).await;
    type_into(client, "#auth-password", password).await;
    if bot {
        click(client, "#auth-bot").await;
    }
    click(client, "#auth-submit").await;
}

/// Signs up `name` in the page; waits for the header to name it.
pub async fn sign_up(client: &Client, base: &str, name: &str, bot: bool) {
    submit_account_form(client, base, true, name, &password_of(name), bot).await;
    wait_signed_in(client, name).await;
}

/// Signs in as `name` with `password` in the page; waits for the header to name it.
pub async fn sign_in(client: &Client, base: &str, name: &str, password: &str) {
    submit_account_form(client, base, false, name, password, false).await;
    wait_signed_in(client, name).await;
}

/// A name made of markup: the server refuses it, the page says why as text.
async fn markup_name_refused(client: &Client, base: &str) {
    submit_account_form(client, base, true, SCRIPT_TEXT, "long-enough-1", false).await;
    let said = wait_until(
        client,
        "const e = document.querySelector('#auth-error'); return e ? e.textContent : null;",
        "the refusal",
    )
    .await;
    let said = said.as_str().unwrap_or_default();
    assert!(
        said.contains("name"),
        "the refusal names the problem: {said}"
    );
    assert_eq!(injected(client).await, 0, "nothing was made from the name");
    assert_no_dialog(client, "the sign-up form").await;
    screenshot(client, "account-sign-up-refused").await;
    let header = eval(
        client,
        "return document.querySelector('#sign-in-link') !== null;",
    )
    .await;
    assert_eq!(header, true, "still signed out");
}

/// The account page: a new password, and the profile text (markup) saved.
async fn account_page(client: &Client, name: &str, new_password: &str) {
    click(client, "#account-link").await;
    type_into(client, "#password-current", &password_of(name)).await;
    type_into(client, "#password-new", new_password).await;
    click(client, "#password-form-submit").await;
    wait_until(
        client,
        "const e = document.querySelector('#password-form-done'); return e && /changed/.test(e.textContent);",
        "the password changed",
    )
    .await;
    type_into(
        client,
        "#about-text",
        &format!("Hi! {SCRIPT_TEXT} {IMAGE_TEXT}"),
    )
    .await;
    click(client, "#about-form-submit").await;
    wait_until(
        client,
        "const e = document.querySelector('#about-form-done'); return e && e.textContent === 'Saved.';",
        "the profile text saved",
    )
    .await;
    assert!(
        eval(
            client,
            "return document.querySelector('#token-form') === null;"
        )
        .await
            == true,
        "a person's account has no API tokens"
    );
}

/// The profile shows the text as typed, markup and all, as text.
pub async fn profile_text_as_text(client: &Client, base: &str, name: &str) {
    client
        .goto(&format!("{base}@/{name}"))
        .await
        .expect("the profile");
    let about = wait_until(
        client,
        "const e = document.querySelector('#profile-about'); return e ? e.textContent : null;",
        "the profile text",
    )
    .await;
    assert_eq!(about, format!("Hi! {SCRIPT_TEXT} {IMAGE_TEXT}"));
    assert_eq!(
        injected(client).await,
        0,
        "nothing was made from the profile text"
    );
    assert_no_dialog(client, "the profile").await;
}

/// A bot account gets an API token, shown once; then it signs out.
async fn bot_token(client: &Client, base: &str) {
    sign_up(client, base, "robo-1", true).await;
    let mark = eval(
        client,
        "return document.querySelector('#account-bar .bot-mark').textContent;",
    )
    .await;
    assert_eq!(mark, "BOT", "the bar marks a bot in words");
    click(client, "#account-link").await;
    type_into(client, "#token-label", "engine").await;
    click(client, "#token-form-submit").await;
    let token = wait_until(
        client,
        "const e = document.querySelector('#token-value'); return e ? e.value : null;",
        "the new token",
    )
    .await;
    assert!(
        token.as_str().unwrap_or_default().starts_with("ludus_"),
        "{token}"
    );
    click(client, "#sign-out").await;
    wait_until(
        client,
        "return document.querySelector('#sign-in-link') !== null && document.querySelector('#auth-form, #auth-name') !== null;",
        "signed out, the sign-in form shown",
    )
    .await;
}

/// A game the account plays, opened in a fresh browser after signing in there: the home page
/// lists it, and the seat's token comes with it, so a move can be made from there.
async fn continued_elsewhere(
    host: &Client,
    other: &Client,
    base: &str,
    name: &str,
    password: &str,
) {
    let id = start_game(host, base, "replica", &[], &["human", "ai:1"]).await;
    let held = eval(
        other,
        &format!("return localStorage.getItem('ludus.game.{id}');"),
    )
    .await;
    assert_eq!(
        held,
        serde_json::Value::Null,
        "the other browser holds no token yet"
    );
    sign_in(other, base, name, password).await;
    other.goto(base).await.expect("home page");
    click(other, &format!(".continue-list [data-id=\"{id}\"] a")).await;
    assert_eq!(wait_game_page(other).await, id);
    assert!(wait_my_turn(other).await, "the account's seat moves here");
    let before = seq(other).await;
    play_first_decision(other).await;
    assert!(seq(other).await > before);
    let watching = eval(
        other,
        "return document.querySelector('#watching') === null;",
    )
    .await;
    assert_eq!(watching, true, "the page plays the seat, it does not watch");
}

/// The accounts scenario: `host` becomes `name`, `other` a bot and then `name` again.
pub async fn accounts_in_the_page(host: &Client, other: &Client, base: &str, name: &str) {
    markup_name_refused(host, base).await;
    sign_up(host, base, name, false).await;
    let link = eval(
        host,
        "return document.querySelector('#account-name').getAttribute('href');",
    )
    .await;
    assert_eq!(link, format!("/@/{name}"), "the name links to the profile");
    let new_password = changed_password(name);
    account_page(host, name, &new_password).await;
    bot_token(other, base).await;
    continued_elsewhere(host, other, base, name, &new_password).await;
    assert_no_dialog(host, "the accounts scenario").await;
}
