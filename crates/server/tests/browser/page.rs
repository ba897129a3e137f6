//! What a person does on the page, as helpers the scenarios share: start a game from the set-up
//! screen, wait for their turn, click cells, read what the page shows. Everything goes through
//! the page's visible controls; the scripts only read state the page exposes as attributes.

use std::path::Path;

use fantoccini::Client;
use serde_json::Value;

use super::driver::{click, eval, find, wait_until};

/// Opens the set-up screen of `game`, sets `options` and the seats' players, and starts the game.
/// Returns the game's id (from the address the page goes to).
pub async fn start_game(
    client: &Client,
    base: &str,
    game: &str,
    options: &[(&str, &str)],
    players: &[&str],
) -> String {
    client
        .goto(&format!("{base}?setup={game}"))
        .await
        .expect("set-up page");
    for (key, value) in options {
        let control = find(client, &format!("[name=\"{key}\"]")).await;
        if control.tag_name().await.expect("tag") == "select" {
            control.select_by_value(value).await.expect("option value");
        } else {
            control.clear().await.expect("clear");
            control.send_keys(value).await.expect("type option");
            eval(client, &format!("document.querySelector('[name=\"{key}\"]').dispatchEvent(new Event('change')); return true;")).await;
        }
    }
    for (i, player) in players.iter().enumerate() {
        find(client, &format!("select[name=\"seat-{}-player\"]", i + 1))
            .await
            .select_by_value(player)
            .await
            .expect("player choice");
    }
    click(client, "#start-game").await;
    wait_game_page(client).await
}

/// Waits for a game screen with a board and returns its id.
pub async fn wait_game_page(client: &Client) -> String {
    let id = wait_until(
        client,
        "return location.pathname.startsWith('/g/') && document.querySelector('main[data-seq] svg.board') ? location.pathname.slice(3) : null;",
        "the game screen",
    )
    .await;
    id.as_str().expect("game id").to_string()
}

/// The page's sequence number of the snapshot it shows.
pub async fn seq(client: &Client) -> u64 {
    eval(
        client,
        "return Number(document.querySelector('main').dataset.seq);",
    )
    .await
    .as_u64()
    .expect("seq")
}

/// Waits until it is this person's turn (true) or the game is over (false).
pub async fn wait_my_turn(client: &Client) -> bool {
    let state = wait_until(
        client,
        "const m = document.querySelector('main'); return m.dataset.over === 'true' ? 'over' : (m.dataset.myTurn === 'true' ? 'turn' : null);",
        "this person's turn or the end of the game",
    )
    .await;
    state == "turn"
}

/// Waits until the page shows a snapshot newer than `seq`.
pub async fn wait_seq_after(client: &Client, seq: u64) {
    wait_until(
        client,
        &format!("return Number(document.querySelector('main').dataset.seq) > {seq};"),
        "a new snapshot",
    )
    .await;
}

/// The names of the cells lit as legal targets.
pub async fn targets(client: &Client) -> Vec<String> {
    names(
        &eval(
            client,
            "return [...document.querySelectorAll('.cell.target')].map(c => c.dataset.cell);",
        )
        .await,
    )
}

fn names(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|list| {
            list.iter()
                .filter_map(|v| v.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// Clicks the board cell `name`.
pub async fn click_cell(client: &Client, name: &str) {
    click(client, &format!("[data-cell=\"{name}\"]")).await;
}

/// The history as the page lists it (turn notation).
pub async fn history(client: &Client) -> Vec<String> {
    names(&eval(client, "return [...document.querySelectorAll('.history button[data-ply]')].filter(b => b.dataset.ply !== '0').map(b => b.firstChild.textContent);").await)
}

/// Plays one decision by pointing: the first lit cell, then the first lit target, and so on
/// until the page sends a move; a chooser is answered with its first button.
pub async fn play_first_decision(client: &Client) {
    let before = seq(client).await;
    for _ in 0..8 {
        if eval(client, "return document.querySelector('.choice') !== null;").await == true {
            click(client, ".choice").await;
        } else {
            let lit = targets(client).await;
            let Some(cell) = lit.first() else {
                panic!(
                    "no lit cell to click on the board: {}",
                    page_state(client).await
                );
            };
            click_cell(client, cell).await;
        }
        wait_idle(client).await;
        if seq(client).await > before {
            return;
        }
    }
    panic!("eight clicks did not make a move");
}

/// Waits until no action of the page is on its way to the server.
pub async fn wait_idle(client: &Client) {
    wait_until(
        client,
        "return document.querySelector('main').dataset.busy !== 'true';",
        "the page's action to be answered",
    )
    .await;
}

/// Fails when the page reported a fault of its own (a script error) since it was loaded.
pub async fn assert_no_page_fault(client: &Client, scenario: &str) {
    let fault = eval(
        client,
        "const e = document.getElementById('page-error'); return e ? e.textContent : '';",
    )
    .await;
    assert_eq!(fault, "", "the page reported a fault during {scenario}");
}

/// What the page shows and what the server holds, for a failing test's message.
pub async fn page_state(client: &Client) -> Value {
    eval(
        client,
        "const m = document.querySelector('main');
         const x = new XMLHttpRequest();
         x.open('GET', '/api/games/' + location.pathname.slice(3), false);
         x.send();
         const s = x.status === 200 ? JSON.parse(x.responseText) : {};
         return {data: {...m.dataset}, status: (document.querySelector('#status') || {}).textContent,
                 error: (document.querySelector('#error') || {}).textContent,
                 chooser: (document.querySelector('#chooser') || {}).textContent,
                 selected: [...document.querySelectorAll('.cell.selected')].map(c => c.dataset.cell),
                 server: {legal: s.legal, pointing: s.pointing, history: s.history}};",
    )
    .await
}

/// Saves the page as a PNG `<name>.png`: into the workspace's `docs/screenshots/` when
/// `LUDUS_SCREENSHOTS=docs` (to refresh the documentation's pictures), else into the build's
/// temporary directory, so that a test run leaves the working tree as it was.
pub async fn screenshot(client: &Client, name: &str) {
    // Let the last piece finish sliding in: the picture shows the board at rest.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let png = client.screenshot().await.expect("screenshot");
    let dir = if std::env::var_os("LUDUS_SCREENSHOTS").is_some_and(|to| to == "docs") {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/screenshots")
    } else {
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots")
    };
    std::fs::create_dir_all(&dir).expect("a screenshot directory");
    std::fs::write(dir.join(format!("{name}.png")), png).expect("screenshot written");
}
