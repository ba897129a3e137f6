//! Scenarios of multi-decision turns and choosers, undo, and records: a Qawale turn sown by
//! clicks, a Yoxii value picked in the chooser (then a move typed in notation and a resignation
//! confirmed), a Splut! throw picked in the chooser, undoing a turn, and a record downloaded and
//! loaded back.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use fantoccini::Client;
use ludus_engine::PlayerRecord;

use super::driver::{click, eval, find, wait_until, PATIENCE};
use super::page::{
    click_cell, history, page_state, play_first_decision, screenshot, seq, start_game, targets,
    wait_game_page, wait_idle, wait_seq_after,
};

async fn to_move(client: &Client) -> String {
    eval(
        client,
        "return document.querySelector('main').dataset.toMove;",
    )
    .await
    .as_str()
    .unwrap_or_default()
    .to_string()
}

/// Plays the whole turn of the seat to move by clicks (a Qawale turn is a stack, then each
/// sowing step); returns how many decisions it took.
async fn play_turn(client: &Client) -> usize {
    let seat = to_move(client).await;
    let mut decisions = 0;
    while to_move(client).await == seat {
        play_first_decision(client).await;
        decisions += 1;
        assert!(decisions < 40, "a turn of more than 40 decisions");
    }
    decisions
}

/// Two Qawale turns between two people at one screen, each sown by clicks; then undo takes the
/// last turn back. Returns the game's id.
pub async fn qawale_turns_and_undo(client: &Client, base: &str) -> String {
    let id = start_game(client, base, "qawale", &[], &["human", "human"]).await;
    let decisions = play_turn(client).await;
    assert!(
        decisions >= 3,
        "a Qawale turn is a stack and at least two sowing steps, got {decisions}"
    );
    let first = history(client).await;
    assert_eq!(first.len(), 1, "one whole turn in the history: {first:?}");
    assert!(
        first[0].contains(':'),
        "turn notation stack:steps, got {first:?}"
    );
    play_turn(client).await;
    assert_eq!(history(client).await.len(), 2);
    screenshot(client, "qawale").await;
    let before = seq(client).await;
    click(client, "#undo").await;
    wait_seq_after(client, before).await;
    assert_eq!(
        history(client).await,
        first,
        "undo took back the second turn"
    );
    assert_eq!(
        to_move(client).await,
        "2",
        "the second seat is to move again"
    );
    id
}

/// The record saved by the page's download links (JSON, then the game's text format), loaded
/// back through the page's file control, gives a new game with the same history.
pub async fn record_download_and_load(client: &Client, downloads: &Path) {
    let original = history(client).await;
    assert!(!original.is_empty());
    click(client, "#save-json").await;
    let saved = wait_for_download(downloads, "json").await;
    let text = std::fs::read_to_string(&saved).expect("saved record");
    let record: serde_json::Value = serde_json::from_str(&text).expect("the record is JSON");
    assert_eq!(record["game"], "qawale");
    load_record_file(client, &saved).await;
    assert_eq!(
        history(client).await,
        original,
        "the loaded game has the saved moves"
    );
    // The game's own text format goes the same way round.
    click(client, "#save-text").await;
    let saved = wait_for_download(downloads, "txt").await;
    let text = std::fs::read_to_string(&saved).expect("saved text record");
    assert!(
        serde_json::from_str::<serde_json::Value>(&text).is_err(),
        "a text record, not JSON"
    );
    load_record_file(client, &saved).await;
    assert_eq!(
        history(client).await,
        original,
        "the game loaded from text has the saved moves"
    );
}

async fn wait_for_download(dir: &Path, extension: &str) -> PathBuf {
    let started = Instant::now();
    loop {
        let found = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|entry| entry.path())
            .find(|path| path.extension().is_some_and(|ext| ext == extension));
        if let Some(path) = found {
            return path;
        }
        assert!(
            started.elapsed() < PATIENCE,
            "no .{extension} download in {}",
            dir.display()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Loads the record file at `path` through the page's "load a record" control.
async fn load_record_file(client: &Client, path: &Path) {
    let before = client.current_url().await.expect("url");
    find(client, "#load-record")
        .await
        .send_keys(&path.display().to_string())
        .await
        .expect("file chosen");
    wait_until(
        client,
        &format!("return location.href !== '{before}' && document.querySelector('main[data-seq] svg.board') !== null;"),
        "the loaded game",
    )
    .await;
    wait_game_page(client).await;
}

/// Yoxii: the Totem moved by a click, then a square clicked, and the value 3 chosen by its digit
/// in the chooser, which shows the counts left.
pub async fn yoxii_value_picked(client: &Client, base: &str) {
    start_game(client, base, "yoxii", &[], &["human", "human"]).await;
    play_first_decision(client).await;
    let square = targets(client)
        .await
        .first()
        .cloned()
        .expect("a square to place on");
    click_cell(client, &square).await;
    let choices = eval(
        client,
        "return [...document.querySelectorAll('.choice')].map(b => b.textContent);",
    )
    .await;
    let choices: Vec<String> = serde_json::from_value(choices).expect("choice texts");
    assert_eq!(choices.len(), 4, "four values to choose from: {choices:?}");
    assert!(
        choices.iter().all(|c| c.contains("left")),
        "counts left shown: {choices:?}"
    );
    let before = seq(client).await;
    // The digit goes to whatever has focus (the clicked cell), as a person's key press does.
    client
        .active_element()
        .await
        .expect("focus")
        .send_keys("3")
        .await
        .expect("digit 3");
    wait_seq_after(client, before).await;
    wait_idle(client).await;
    let placed = eval(
        client,
        &format!(
            "return document.querySelector('[data-cell=\"{square}\"]').getAttribute('aria-label');"
        ),
    )
    .await;
    assert!(
        placed.as_str().is_some_and(|label| label.contains('3')),
        "a 3 on {square}: {placed}"
    );
    assert!(
        history(client).await[0].contains("3@"),
        "the turn reads value 3 placed"
    );
    screenshot(client, "yoxii").await;
    typed_move(client).await;
    resign_confirmed(client).await;
}

/// A throw among the legal moves that shares its cells with another decision (so the page must
/// ask which one), with the names of its cells.
fn shared_throw(game: &ludus_engine::AnyGame) -> Option<(Vec<String>, String)> {
    let moves = game.legal_moves();
    let throw = moves.iter().find(|m| {
        let is_throw = m
            .input
            .label
            .as_deref()
            .is_some_and(|l| l.starts_with("throw"));
        is_throw
            && moves
                .iter()
                .filter(|o| o.input.cells == m.input.cells)
                .count()
                > 1
    })?;
    let view = game.view();
    let cells = throw
        .input
        .cells
        .iter()
        .map(|c| view.cells[c.to_usize()].name.to_string());
    Some((cells.collect(), throw.notation.clone()))
}

/// A Splut! record (from seeded random play through the rules) that stops at the start of a
/// turn where the side to move may throw a rock, with the throw's cells and notation.
fn splut_with_a_throw() -> (String, Vec<String>, String) {
    let mut rng = 0x9e37_79b9_7f4a_7c15_u64;
    for seed in 0..200 {
        let mut game =
            ludus_games::new_game("splut", &["players=2".to_string()], None, seed).expect("splut");
        let mut seat = None;
        while let Some(now) = game.to_move() {
            if seat != Some(now) {
                if let Some((cells, throw)) = shared_throw(&game) {
                    let human = |name: &str| PlayerRecord {
                        name: name.into(),
                        kind: "human".into(),
                    };
                    game.set_players(vec![human("South"), human("North")]);
                    return (game.record().to_json(), cells, throw);
                }
            }
            seat = Some(now);
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let moves = game.legal_moves();
            let pick = &moves[(rng % moves.len() as u64) as usize];
            game.play(&pick.notation).expect("a legal move");
            if game.turn() > 300 {
                break;
            }
        }
    }
    panic!("no Splut! position with a throw found");
}

/// Splut!: a throw chosen in the chooser among the decisions that share the troll's two cells.
pub async fn splut_throw_chosen(client: &Client, base: &str, scratch: &Path) {
    let (record, cells, throw) = splut_with_a_throw();
    let file = scratch.join("splut-throw.json");
    std::fs::write(&file, record).expect("record written");
    client.goto(base).await.expect("home");
    load_record_file(client, &file).await;
    for cell in &cells {
        click_cell(client, cell).await;
    }
    wait_idle(client).await;
    let css = format!(".choice[data-move=\"{throw}\"]");
    if eval(
        client,
        &format!("return document.querySelector('{css}') === null;"),
    )
    .await
        == true
    {
        panic!(
            "no chooser entry {throw} after clicking {cells:?}: {}",
            page_state(client).await
        );
    }
    let chooser = find(client, &css).await;
    let labels = eval(
        client,
        "return [...document.querySelectorAll('.choice')].map(b => b.textContent);",
    )
    .await;
    assert!(
        labels.as_array().is_some_and(|l| l.len() >= 2),
        "a chooser with several decisions: {labels}"
    );
    screenshot(client, "splut").await;
    let before = seq(client).await;
    chooser.click().await.expect("throw chosen");
    wait_seq_after(client, before).await;
    let moves = history(client).await;
    assert!(
        moves.last().is_some_and(|m| m.contains(&throw)),
        "the throw {throw} is in the history {moves:?}"
    );
}

/// The text box takes a move in notation (here the first legal decision the server lists).
async fn typed_move(client: &Client) {
    let legal = eval(
        client,
        "const x = new XMLHttpRequest(); x.open('GET', '/api/games/' + location.pathname.slice(3), false); x.send(); return JSON.parse(x.responseText).legal[0];",
    )
    .await;
    let legal = legal.as_str().expect("a legal decision").to_string();
    let before = seq(client).await;
    let input = find(client, "#move-text").await;
    input.send_keys(&legal).await.expect("typed");
    input
        .send_keys(&fantoccini::key::Key::Enter.to_string())
        .await
        .expect("Enter");
    wait_seq_after(client, before).await;
    assert_eq!(
        input.prop("value").await.expect("value").as_deref(),
        Some(""),
        "the box empties after the move"
    );
}

/// Resigning asks first; "Keep playing" changes nothing, "Resign" ends the game.
async fn resign_confirmed(client: &Client) {
    click(client, "#resign").await;
    click(client, "#cancel-resign").await;
    assert_eq!(
        eval(
            client,
            "return document.querySelector('main').dataset.over;"
        )
        .await,
        "false"
    );
    click(client, "#resign").await;
    click(client, "#confirm-resign").await;
    let summary = find(client, "#game-over")
        .await
        .text()
        .await
        .expect("summary");
    assert!(
        summary.to_lowercase().contains("resign"),
        "the reason names the resignation: {summary}"
    );
}
