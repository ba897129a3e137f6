//! The page in a real headless Chromium, driven over WebDriver as a person would use it, against
//! a real server on 127.0.0.1:0 in this process. One chromedriver and one browser session run
//! every scenario in turn (they share nothing but the browser); the five games' scenarios leave
//! a screenshot of their board (in `docs/screenshots/` with `LUDUS_SCREENSHOTS=docs`). Each scenario prints its wall time, and
//! the Replica game prints the time from a click to the answer drawn (for docs/WEB.md).
//!
//! Play between browsers runs two more sessions on the same chromedriver (an invited friend and
//! a watcher, each with a profile of its own, so separate local storage), for the game, its
//! chat and its sounds.
//!
//! Without Chromium and chromedriver the test says so and passes, except in CI (`CI=true`),
//! where `.ci/run` installs them and a missing browser fails.

mod browser {
    pub mod accounts;
    pub mod chat;
    pub mod choosing;
    pub mod controls;
    pub mod driver;
    pub mod flag;
    pub mod online;
    pub mod page;
    pub mod pairing;
    pub mod people;
    pub mod reconnect;
    pub mod whole_game;
    pub mod your_turn;
}

/// The `ludus` tests' shared helpers, for the child process killed and reaped when dropped
/// (`Spawned`, which holds chromedriver).
#[path = "../../cli/tests/support/mod.rs"]
mod support;

use std::future::Future;
use std::path::Path;
use std::time::Instant;

use browser::{
    accounts, chat, choosing, controls, driver::Browser, flag, online, pairing, people, reconnect,
    whole_game, your_turn,
};
use fantoccini::Client;

/// Runs a scenario, says how long it took, and checks the page reported no fault of its own.
async fn timed<F: Future>(client: &Client, name: &str, scenario: F) -> F::Output {
    let started = Instant::now();
    let output = scenario.await;
    eprintln!(
        "browser scenario {name}: {:.1} s",
        started.elapsed().as_secs_f64()
    );
    browser::page::assert_no_page_fault(client, name).await;
    output
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_played_in_chromium() {
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
    let scratch = tempfile::tempdir().expect("scratch directory");
    the_five_games(client, &base, &browser.downloads, scratch.path()).await;
    the_other_controls(client, &base).await;
    between_browsers(&browser, &base).await;
    your_turn_while_away(&browser, &base).await;
    accounts_and_pairing(&browser, &base).await;
    let flagged = flag::custom_clock_runs_out(client, &base);
    timed(client, "a custom clock runs out", flagged).await;
    let kept = reconnect::move_kept_across_a_restart(client, scratch.path());
    timed(client, "a move kept across a lost connection", kept).await;
    browser.stop().await;
    let _ = stop.send(());
    let _ = running.await;
}

/// Playing each game by pointing and keyboard, choosers, undo and records.
async fn the_five_games(client: &Client, base: &str, downloads: &Path, scratch: &Path) {
    timed(
        client,
        "keyboard move",
        whole_game::keyboard_move(client, base),
    )
    .await;
    let qawale = choosing::qawale_turns_and_undo(client, base);
    timed(client, "Qawale turns and undo", qawale).await;
    let records = choosing::record_download_and_load(client, downloads);
    timed(client, "record download and load", records).await;
    timed(
        client,
        "Yoxii value",
        choosing::yoxii_value_picked(client, base),
    )
    .await;
    let splut = choosing::splut_throw_chosen(client, base, scratch);
    timed(client, "Splut! throw", splut).await;
    let qilin = whole_game::qilin_placements(client, base);
    timed(client, "Qilin placements", qilin).await;
    let replica = whole_game::replica_against_the_computer(client, base);
    timed(client, "Replica against the computer", replica).await;
}

/// The home page, the set-up of seats, hint, flip, and the computers' controls.
async fn the_other_controls(client: &Client, base: &str) {
    let home = controls::home_continue_and_theme(client, base);
    timed(client, "home: continue and theme", home).await;
    let seats = controls::splut_seats_follow_players(client, base);
    timed(client, "Splut! seats", seats).await;
    timed(
        client,
        "hint and flip",
        controls::hint_and_flip(client, base),
    )
    .await;
    let side = controls::second_seat_sees_its_side(client, base);
    timed(client, "second seat's side", side).await;
    let computers = controls::computers_paused_and_stepped(client, base);
    timed(client, "computers paused and stepped", computers).await;
}

/// Accounts and pairing: the first browser signs up as Ana, a second as Bo, and a third, fresh
/// one is first a bot account and then Ana again, continuing her games from there.
async fn accounts_and_pairing(browser: &Browser, base: &str) {
    let friend = browser.another_person().await;
    let third = browser.another_person().await;
    let (ana, bo, elsewhere) = (&browser.client, &friend.client, &third.client);
    let names = ["ana_1", "bo-2"];
    let signed = accounts::accounts_in_the_page(ana, elsewhere, base, names[0]);
    timed(
        ana,
        "accounts: sign-up, account page, bot token, another browser",
        signed,
    )
    .await;
    accounts::sign_up(bo, base, names[1], false).await;
    let paired = pairing::seek_game_rematch_and_challenge(ana, bo, elsewhere, base, names);
    timed(ana, "pairing: seek, rated game, rematch, challenge", paired).await;
    browser::page::assert_no_page_fault(bo, "Bo's browser").await;
    browser::page::assert_no_page_fault(elsewhere, "the third browser").await;
    friend.stop().await;
    third.stop().await;
}

/// Two more people's browsers beside the first: an invited friend and a watcher.
async fn between_browsers(browser: &Browser, base: &str) {
    let friend = browser.another_person().await;
    let watcher = browser.another_person().await;
    let (host, other, third) = (&browser.client, &friend.client, &watcher.client);
    let game = online::replica_from_an_invitation(host, other, third, base);
    timed(host, "Replica between two browsers, watched", game).await;
    let people = people::names_clock_and_takeback(host, other, third, base);
    timed(host, "names, clocks, takeback and away", people).await;
    let chat = chat::chat_mute_and_sounds(host, other, third, base);
    timed(host, "chat, mute and sounds", chat).await;
    browser::page::assert_no_page_fault(other, "the friend's browser").await;
    browser::page::assert_no_page_fault(third, "the watcher's browser").await;
    friend.stop().await;
    watcher.stop().await;
}

/// A correspondence game between the first browser and a fresh one: "Your turn" in the title
/// of a background tab, and "My games" with the game to play first.
async fn your_turn_while_away(browser: &Browser, base: &str) {
    let friend = browser.another_person().await;
    let scenario = your_turn::title_and_my_games(&browser.client, &friend.client, base);
    timed(
        &browser.client,
        "your turn in a background tab, and My games",
        scenario,
    )
    .await;
    browser::page::assert_no_page_fault(&friend.client, "the friend's browser").await;
    friend.stop().await;
}
