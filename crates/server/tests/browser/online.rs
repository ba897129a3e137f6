//! Play between browsers: a game set up with an invited seat, its link opened in another
//! person's browser (another WebDriver session, so its own local storage), a third browser
//! watching, and the whole game played by clicks to the summary all three see; then the
//! watcher replays it move by move.

use fantoccini::Client;

use super::driver::{click, eval, find, wait_until};
use super::page::{click_cell, history, seq, wait_game_page, wait_my_turn, wait_seq_after};

/// A short Replica game (White's king walks up the long diagonal and takes Black's king),
/// checked through the rules by [`clicks_of`].
pub const REPLICA_GAME: [&str; 11] = [
    "a1-c3", "h5-h4", "c3-d4", "h4-h3", "d4-e5", "h3-h2", "e5-f6", "h2-h1", "f6xg7", "g5-g4",
    "g7xh8",
];

/// The cells a person clicks for each move, from the rules; the moves must end the game.
pub fn clicks_of(moves: &[&str]) -> Vec<Vec<String>> {
    let mut game = ludus_games::new_game("replica", &[], None, 0).expect("replica");
    let clicks = moves
        .iter()
        .map(|text| {
            let legal = game.legal_moves();
            let found = legal
                .iter()
                .find(|m| m.notation == *text)
                .unwrap_or_else(|| panic!("{text} is not legal here"));
            let view = game.view();
            let cells = found
                .input
                .cells
                .iter()
                .map(|c| view.cells[c.to_usize()].name.to_string())
                .collect();
            game.play(text).expect("a legal move");
            cells
        })
        .collect();
    assert!(game.outcome().is_some(), "the moves end the game");
    clicks
}

/// Sets up `game` with a player kind (`human`, `invite`, `ai:N`) and a name per seat, and the
/// clock preset `clock` (`none`, or a preset's index); starts it and answers its id.
pub async fn create_online(
    client: &Client,
    base: &str,
    game: &str,
    seats: &[(&str, &str)],
    clock: &str,
) -> String {
    client
        .goto(&format!("{base}?setup={game}"))
        .await
        .expect("set-up page");
    for (i, (player, name)) in seats.iter().enumerate() {
        find(client, &format!("select[name=\"seat-{}-player\"]", i + 1))
            .await
            .select_by_value(player)
            .await
            .expect("player choice");
        find(client, &format!("[name=\"seat-{}-name\"]", i + 1))
            .await
            .send_keys(name)
            .await
            .expect("name typed");
    }
    find(client, "#clock-preset")
        .await
        .select_by_value(clock)
        .await
        .expect("clock preset");
    click(client, "#start-game").await;
    wait_game_page(client).await
}

/// The invitation link the creator's page shows for `seat`.
pub async fn invitation_link(client: &Client, seat: u32) -> String {
    let value = wait_until(
        client,
        &format!(
            "const e = document.querySelector('#invite-link-{seat}'); return e ? e.value : null;"
        ),
        "the invitation link",
    )
    .await;
    value.as_str().expect("link text").to_string()
}

/// Plays `cells` by clicks once it is this person's turn, and waits for the answer.
pub async fn play_clicks(client: &Client, cells: &[String]) {
    assert!(
        wait_my_turn(client).await,
        "the game ended before {cells:?}"
    );
    let before = seq(client).await;
    for cell in cells {
        click_cell(client, cell).await;
    }
    wait_seq_after(client, before).await;
}

/// The history a page lists, as `"1. a1-c3"` entries.
fn numbered(moves: &[&str]) -> Vec<String> {
    moves
        .iter()
        .enumerate()
        .map(|(i, m)| format!("{}. {m}", i + 1))
        .collect()
}

async fn wait_history(client: &Client, length: usize) -> Vec<String> {
    wait_until(
        client,
        &format!(
            "return document.querySelectorAll('.history button[data-ply]').length === {};",
            length + 1
        ),
        "the moves listed",
    )
    .await;
    history(client).await
}

async fn summary(client: &Client) -> String {
    find(client, "#game-over")
        .await
        .text()
        .await
        .expect("summary text")
}

/// The watcher sees a read-only game: no move controls, no hints, no lit targets.
async fn assert_watching(watcher: &Client) {
    find(watcher, "#watching").await;
    let controls = eval(
        watcher,
        "return {form: document.querySelector('#move-form').hidden,
                 buttons: ['#hint', '#undo', '#resign', '#offer-draw', '#accept-offer'].filter(s => document.querySelector(s)),
                 targets: document.querySelectorAll('.cell.target').length};",
    )
    .await;
    assert_eq!(
        controls,
        serde_json::json!({"form": true, "buttons": [], "targets": 0}),
        "a spectator has no move controls"
    );
}

/// The creator sets up Replica with seat 2 invited; the friend opens the link (its seat is
/// claimed and the link leaves both pages); the watcher opens the plain link. Answers the id.
async fn friend_joins(host: &Client, friend: &Client, watcher: &Client, base: &str) -> String {
    let id = create_online(
        host,
        base,
        "replica",
        &[("human", "Ana"), ("invite", "Bo")],
        "none",
    )
    .await;
    let link = invitation_link(host, 2).await;
    assert!(
        link.starts_with(&format!("{base}g/{id}?seat=2&invite=")),
        "{link}"
    );
    let warning = eval(
        host,
        "const e = document.querySelector('#invite-local'); return e ? e.textContent : '';",
    )
    .await;
    assert!(
        warning
            .as_str()
            .is_some_and(|w| w.contains("--addr 0.0.0.0:8080")),
        "a page on 127.0.0.1 says its links open on this computer only: {warning}"
    );
    friend.goto(&link).await.expect("the invitation link");
    wait_game_page(friend).await;
    let address = eval(friend, "return location.pathname + location.search;").await;
    assert_eq!(
        address,
        format!("/g/{id}"),
        "the invitation leaves the address bar"
    );
    wait_until(friend, "return document.querySelector('#watching') === null && document.querySelector('#offer-draw') !== null;", "the friend's seat").await;
    // Once claimed, the creator's page no longer offers the link.
    wait_until(
        host,
        "return document.querySelector('#invites') === null;",
        "the link panel gone",
    )
    .await;
    watcher
        .goto(&format!("{base}g/{id}"))
        .await
        .expect("the plain game link");
    wait_game_page(watcher).await;
    assert_watching(watcher).await;
    id
}

/// Two people play a whole Replica game from an invitation link while a third watches.
pub async fn replica_from_an_invitation(
    host: &Client,
    friend: &Client,
    watcher: &Client,
    base: &str,
) {
    let clicks = clicks_of(&REPLICA_GAME);
    friend_joins(host, friend, watcher, base).await;
    for (i, cells) in clicks.iter().enumerate() {
        let player = if i % 2 == 0 { host } else { friend };
        play_clicks(player, cells).await;
        if i == 4 {
            let seen = wait_history(watcher, 5).await;
            assert_eq!(
                seen,
                numbered(&REPLICA_GAME[..5]),
                "the watcher sees the moves live"
            );
        }
    }
    let expected = numbered(&REPLICA_GAME);
    for client in [host, friend, watcher] {
        wait_until(
            client,
            "return document.querySelector('main').dataset.over === 'true';",
            "the game over",
        )
        .await;
        assert_eq!(wait_history(client, REPLICA_GAME.len()).await, expected);
    }
    let seen = summary(watcher).await;
    assert!(seen.contains("Ana (White) wins"), "{seen}");
    assert_eq!(
        summary(host).await,
        seen,
        "both sides read the same summary"
    );
    assert_eq!(summary(friend).await, seen);
    replayed_by_the_watcher(watcher).await;
}

/// The finished game's replay bar steps through the positions.
async fn replayed_by_the_watcher(watcher: &Client) {
    let status = "return document.querySelector('#status').textContent;";
    click(watcher, "#replay-start").await;
    wait_until(
        watcher,
        "return document.querySelector('#status').textContent === 'The start position';",
        "the start position",
    )
    .await;
    click(watcher, "#replay-next").await;
    wait_until(
        watcher,
        "return document.querySelector('#replay-ply').value === '1';",
        "turn 1 shown",
    )
    .await;
    assert_eq!(eval(watcher, status).await, "The position after turn 1");
    click(watcher, "#replay-end").await;
    wait_until(
        watcher,
        "return document.querySelector('#viewing').textContent === '';",
        "back at the end",
    )
    .await;
}
