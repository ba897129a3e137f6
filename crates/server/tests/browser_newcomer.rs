//! What a new player meets on the page, each in a real headless Chromium against a real server:
//! the status line after a time-out, the board's cues that do not hang on hue (last move,
//! targets, selection, hint, "click again"), the keyboard's way along Qilin's lines and its focus
//! ring, a phone's window with names, clocks and actions beside the board, the set-up's words,
//! the lobby that hides games left against the computer and keeps itself up to date, and an
//! invitation link opened by its
//! creator, by the friend and once spent (with a friend's moves read out and a declined offer).
//!
//! Without Chromium and chromedriver the test says so and passes, except in CI (`CI=true`).

// The shared helpers serve several test binaries; not all of them are used by this one.
#[allow(dead_code)]
mod browser {
    pub mod driver;
    pub mod newcomer;
    pub mod newcomer_fit;
    pub mod newcomer_links;
    pub mod newcomer_teams;
    pub mod online;
    pub mod page;
}

/// The `ludus` tests' shared helpers, for the child process killed and reaped when dropped
/// (`Spawned`, which holds chromedriver).
#[path = "../../cli/tests/support/mod.rs"]
mod support;

use browser::driver::Browser;
use browser::{newcomer, newcomer_fit, newcomer_links, newcomer_teams};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_player_finds_their_way() {
    let Some(browser) = Browser::start().await else {
        return;
    };
    let server = ludus_server::Server::bind("127.0.0.1:0", ludus_server::Config::default())
        .await
        .expect("server binds");
    let base = server.url();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(server.run(async move {
        let _ = stopped.await;
    }));
    let client = &browser.client;
    let only = std::env::var("LUDUS_SCENARIO").unwrap_or_default();
    let wanted = |name: &str| only.is_empty() || only == name;
    if wanted("timeout") {
        newcomer::time_out_said_in_the_status(client, &base).await;
    }
    if wanted("cues") {
        newcomer::cues_beside_hue(client, &base).await;
    }
    if wanted("keys") {
        newcomer::keys_follow_lines_and_focus_ring(client, &base).await;
    }
    if wanted("again") {
        newcomer::click_again_is_said(client, &base).await;
    }
    if wanted("phone") {
        newcomer::phone_keeps_everything_in_sight(client, &base).await;
    }
    if wanted("desktop") {
        newcomer_fit::desktop_keeps_everything_in_sight(client, &base).await;
    }
    if wanted("teams") {
        newcomer_teams::three_computers_have_their_speed(client, &base).await;
        newcomer_teams::knock_outs_are_said(client, &base).await;
    }
    if wanted("setup") {
        newcomer::set_up_in_words(client, &base).await;
    }
    if wanted("lobby") {
        newcomer::lobby_hides_left_games_and_refreshes(client, &base).await;
    }
    if wanted("links") {
        newcomer_links::invitation_links(&browser, &base).await;
    }
    browser::page::assert_no_page_fault(client, "a new player's scenarios").await;
    browser.stop().await;
    let _ = stop.send(());
    let _ = running.await;
}
