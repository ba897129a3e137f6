//! Chat and sounds between two people's browsers and a watcher: the players' lines reach
//! everyone, the watcher's stay with spectators, a line written as markup is shown as text with
//! no dialog, a player mutes the other side (remembered across a reload) and unmutes it; the
//! chat is legible in every theme (4.5:1, computed from the drawn colours) and fits a phone;
//! a game against the computer has no chat. Sounds: the files are served as audio, nothing
//! plays before the person first interacted with the page, a move is heard by the watcher,
//! and the header's Sounds box turns them off. Screenshots `chat`, `chat-watcher`,
//! `chat-dark`, `chat-contrast` and `chat-phone`.

use fantoccini::Client;

use super::driver::{click, eval, find, wait_until};
use super::online::{clicks_of, invitation_link, play_clicks, REPLICA_GAME};
use super::page::{screenshot, start_game, wait_game_page};

const SCRIPT_TEXT: &str = "<script>alert(1)</script>";
const WATCHER_LINE: &str = "Watching from the stands";

/// No alert, confirm or prompt dialog is open in `client`.
async fn assert_no_dialog(client: &Client, where_: &str) {
    let dialog = client.get_alert_text().await;
    assert!(dialog.is_err(), "a dialog opened on {where_}: {dialog:?}");
}

/// Sets up Replica between Ana (this browser) and an invited Bo, without a clock.
async fn set_up(host: &Client, base: &str) -> String {
    host.goto(&format!("{base}?setup=replica"))
        .await
        .expect("set-up page");
    for (seat, player, name) in [(1, "human", "Ana"), (2, "invite", "Bo")] {
        find(host, &format!("select[name=\"seat-{seat}-player\"]"))
            .await
            .select_by_value(player)
            .await
            .expect("player choice");
        let field = find(host, &format!("[name=\"seat-{seat}-name\"]")).await;
        field.clear().await.expect("name cleared");
        field.send_keys(name).await.expect("name typed");
    }
    find(host, "#clock-preset")
        .await
        .select_by_value("none")
        .await
        .expect("no clock");
    click(host, "#start-game").await;
    wait_game_page(host).await
}

/// Types `text` in the chat box and sends it.
async fn say(client: &Client, text: &str) {
    click(client, "#chat-text").await;
    find(client, "#chat-text")
        .await
        .send_keys(text)
        .await
        .expect("line typed");
    click(client, "#chat-send").await;
}

/// The texts of the chat's lines, shown or hidden.
async fn lines(client: &Client) -> Vec<String> {
    let texts = eval(
        client,
        "return [...document.querySelectorAll('#chat-lines .chat-text')].map(e => e.textContent);",
    )
    .await;
    serde_json::from_value(texts).expect("texts")
}

/// Waits for a line saying `text` from `from`.
async fn wait_line(client: &Client, from: &str, text: &str) {
    let script = format!(
        "return [...document.querySelectorAll('#chat-lines .chat-line')].some(l =>
           l.querySelector('.chat-text').textContent === {text:?}
           && l.querySelector('.chat-from').textContent.startsWith({from:?}));"
    );
    wait_until(client, &script, &format!("{from}'s line '{text}'")).await;
}

/// The whole scenario; see the module's summary.
pub async fn chat_mute_and_sounds(host: &Client, friend: &Client, watcher: &Client, base: &str) {
    let id = set_up(host, base).await;
    let link = invitation_link(host, 2).await;
    friend.goto(&link).await.expect("the invitation link");
    wait_game_page(friend).await;
    watcher
        .goto(&format!("{base}g/{id}"))
        .await
        .expect("the game");
    wait_game_page(watcher).await;
    silent_until_an_interaction(watcher).await;
    lines_reach_who_may_read_them(host, friend, watcher).await;
    heard_and_turned_off(host, watcher).await;
    muted_and_unmuted(host, friend).await;
    legible_in_every_theme(host, watcher).await;
    fits_a_phone(host).await;
    none_against_the_computer(host, base).await;
}

/// The sound files are audio; before any click or key on a fresh page nothing plays, after
/// one it does.
async fn silent_until_an_interaction(watcher: &Client) {
    let types = eval(
        watcher,
        "return ['move', 'capture', 'low_time', 'end', 'turn'].map(name => {
           const x = new XMLHttpRequest();
           x.open('GET', '/sounds/' + name + '.wav', false);
           x.send();
           return x.status + ' ' + x.getResponseHeader('content-type');
         });",
    )
    .await;
    for served in types.as_array().expect("types") {
        let served = served.as_str().unwrap_or_default();
        assert!(served.starts_with("200 audio/"), "{served}");
    }
    let before = eval(
        watcher,
        "return [window.ludusSound('move'), document.documentElement.dataset.lastSound || null];",
    )
    .await;
    assert_eq!(
        before,
        serde_json::json!([false, null]),
        "nothing plays before an interaction"
    );
    click(watcher, "#chat-text").await;
    let after = eval(
        watcher,
        "return [window.ludusSound('turn'), document.documentElement.dataset.lastSound];",
    )
    .await;
    assert_eq!(
        after,
        serde_json::json!([true, "turn"]),
        "sounds are on by default"
    );
}

/// Bo's and Ana's lines reach both players and the watcher (Ana's markup as text, no dialog);
/// the watcher's line reaches spectators only.
async fn lines_reach_who_may_read_them(host: &Client, friend: &Client, watcher: &Client) {
    for client in [host, friend, watcher] {
        find(client, "#chat:not([hidden]) #chat-text").await;
    }
    say(friend, "Hello from Bo").await;
    for client in [host, friend, watcher] {
        wait_line(client, "Bo", "Hello from Bo").await;
    }
    say(host, SCRIPT_TEXT).await;
    for client in [host, friend, watcher] {
        wait_line(client, "Ana", SCRIPT_TEXT).await;
        let injected = eval(
            client,
            "return document.querySelectorAll('#chat script, #chat img').length;",
        )
        .await;
        assert_eq!(injected, 0, "no element was made from a line");
        assert_no_dialog(client, "a page with a markup line").await;
    }
    say(watcher, WATCHER_LINE).await;
    wait_line(watcher, "spectator (watching)", WATCHER_LINE).await;
    // Ana's next line comes after the watcher's: once it is shown, the watcher's would be too.
    say(host, "Your move, Bo").await;
    for client in [host, friend] {
        wait_line(client, "Ana", "Your move, Bo").await;
        let shown = lines(client).await;
        assert!(
            !shown.iter().any(|line| line == WATCHER_LINE),
            "a player sees no spectator's line: {shown:?}"
        );
    }
    wait_line(watcher, "Ana", "Your move, Bo").await;
}

/// Ana's move is heard on the watcher's page; with the Sounds box unticked nothing plays.
async fn heard_and_turned_off(host: &Client, watcher: &Client) {
    let clicks = clicks_of(&REPLICA_GAME);
    play_clicks(host, &clicks[0]).await;
    wait_until(
        watcher,
        "return document.documentElement.dataset.lastSound === 'move';",
        "the move heard",
    )
    .await;
    click(watcher, "#sounds").await;
    let off = eval(
        watcher,
        "return [document.querySelector('#sounds').checked, window.ludusSound('end'), localStorage.getItem('ludus.sounds')];",
    )
    .await;
    assert_eq!(off, serde_json::json!([false, false, "off"]));
    click(watcher, "#sounds").await;
    let on = eval(watcher, "return window.ludusSound('end');").await;
    assert_eq!(on, true, "on again");
}

/// Ana mutes Bo: his lines are hidden and counted, still after a reload; then shown again.
async fn muted_and_unmuted(host: &Client, friend: &Client) {
    click(host, "#chat-mute-button").await;
    let hidden =
        "const e = document.querySelector('#chat-hidden'); return e ? e.textContent : null;";
    assert_eq!(
        wait_until(host, hidden, "the hidden count").await,
        "1 hidden"
    );
    say(friend, "Are you still there?").await;
    wait_line(friend, "Bo", "Are you still there?").await;
    let two = "const e = document.querySelector('#chat-hidden'); return e && e.textContent === '2 hidden';";
    wait_until(host, two, "Bo's new line hidden").await;
    let shown = eval(
        host,
        "return [...document.querySelectorAll('#chat-lines .chat-line')]
           .filter(l => l.offsetParent !== null).map(l => l.querySelector('.chat-text').textContent);",
    )
    .await;
    assert_eq!(
        shown,
        serde_json::json!([SCRIPT_TEXT, "Your move, Bo"]),
        "only Ana's own lines show"
    );
    host.refresh().await.expect("reload");
    wait_game_page(host).await;
    wait_until(host, two, "still muted after a reload").await;
    eval(
        host,
        "document.querySelector('#chat').scrollIntoView({block: 'end'}); return true;",
    )
    .await;
    screenshot(host, "chat-muted").await;
    click(host, "#chat-unmute").await;
    wait_until(
        host,
        "return document.querySelector('#chat-mute-button') !== null
           && [...document.querySelectorAll('#chat-lines .chat-line')].every(l => !l.hidden);",
        "every line shown again",
    )
    .await;
    assert_eq!(lines(host).await.len(), 4);
}

/// The contrast of every text the chat draws against the colour behind it, in each theme.
const CONTRASTS: &str = "
  const lum = (c) => {
    const [r, g, b] = c.match(/[\\d.]+/g).slice(0, 3).map((v) => {
      v = Number(v) / 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const behind = (e) => {
    for (; e; e = e.parentElement) {
      const c = getComputedStyle(e).backgroundColor;
      const parts = c.match(/[\\d.]+/g);
      if (parts && (parts.length < 4 || Number(parts[3]) > 0)) return c;
    }
    return getComputedStyle(document.body).backgroundColor;
  };
  const worst = {};
  for (const theme of ['light', 'dark', 'contrast']) {
    document.documentElement.dataset.theme = theme;
    worst[theme] = 99;
    for (const e of document.querySelectorAll('#chat h2, #chat-note, #chat .chat-from, #chat .chat-text, #chat button, #chat input, #chat-hidden')) {
      const [a, b] = [lum(getComputedStyle(e).color), lum(behind(e))];
      worst[theme] = Math.min(worst[theme], (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05));
    }
  }
  return worst;";

/// Every text of the chat has 4.5:1 in every theme; screenshots of each theme.
async fn legible_in_every_theme(host: &Client, watcher: &Client) {
    for client in [host, watcher] {
        let worst = eval(client, CONTRASTS).await;
        for theme in ["light", "dark", "contrast"] {
            let ratio = worst[theme].as_f64().expect("a ratio");
            assert!(ratio >= 4.5, "chat text in the {theme} theme: {ratio:.2}:1");
        }
    }
    for (client, theme, name) in [
        (host, "light", "chat"),
        (watcher, "light", "chat-watcher"),
        (host, "dark", "chat-dark"),
        (host, "contrast", "chat-contrast"),
    ] {
        eval(
            client,
            &format!("document.documentElement.dataset.theme = '{theme}'; document.querySelector('#chat').scrollIntoView({{block: 'end'}}); return true;"),
        )
        .await;
        screenshot(client, name).await;
    }
    eval(
        host,
        "document.documentElement.dataset.theme = 'light'; return true;",
    )
    .await;
}

/// At a phone's width the chat fits without sideways scrolling.
async fn fits_a_phone(host: &Client) {
    host.set_window_size(390, 844).await.expect("phone width");
    let widths = eval(
        host,
        "document.querySelector('#chat').scrollIntoView({block: 'end'});
         const box = document.querySelector('#chat').getBoundingClientRect();
         return [document.documentElement.scrollWidth, window.innerWidth, Math.ceil(box.right)];",
    )
    .await;
    let [page, window, chat] = [0, 1, 2].map(|i| widths[i].as_u64().unwrap_or(u64::MAX));
    assert!(
        page <= window && chat <= window,
        "the chat scrolls sideways on a phone: {widths}"
    );
    screenshot(host, "chat-phone").await;
    host.set_window_size(1280, 900).await.expect("back to wide");
}

/// Against the computer the page shows no chat.
async fn none_against_the_computer(host: &Client, base: &str) {
    start_game(host, base, "replica", &[], &["human", "ai:1"]).await;
    let hidden = eval(host, "return document.querySelector('#chat').hidden;").await;
    assert_eq!(hidden, true, "no chat against the computer");
}
