//! Scenarios of playing by pointing and by keyboard: a whole Replica game against the computer to
//! the game-over summary, Qilin placements, one move made with the arrow keys and Enter, and
//! looking at an earlier position from the history.

use fantoccini::key::Key;
use fantoccini::Client;

use super::driver::{click, eval, find, wait_until};
use super::page::{
    history, play_first_decision, screenshot, seq, start_game, targets, wait_my_turn,
    wait_seq_after,
};

/// A whole Replica game against the level-1 computer, played by clicks until the page shows the
/// game-over summary with a winner or a draw and its reason.
pub async fn replica_against_the_computer(client: &Client, base: &str) {
    start_game(client, base, "replica", &[], &["human", "ai:1"]).await;
    let mut turns = 0;
    let mut latencies = Vec::new();
    while wait_my_turn(client).await {
        play_first_decision(client).await;
        let latency = eval(
            client,
            "return Number(document.querySelector('main').dataset.clickToDrawMs);",
        )
        .await;
        latencies.extend(latency.as_f64());
        turns += 1;
        if turns == 2 {
            // The computer's reply was announced in the live region for screen readers.
            wait_until(
                client,
                "return /played/.test(document.getElementById('announcer').textContent);",
                "the computer's move announced",
            )
            .await;
        }
        if turns == 8 {
            screenshot(client, "replica").await;
        }
        assert!(
            turns < 400,
            "the game did not end within 400 of this person's decisions"
        );
    }
    latencies.sort_by(f64::total_cmp);
    if let (Some(first), Some(last)) = (latencies.first(), latencies.last()) {
        // A measurement for docs/WEB.md, not an assertion: machines differ.
        eprintln!(
            "click to answer drawn over {} moves: min {first:.1} ms, median {:.1} ms, max {last:.1} ms",
            latencies.len(),
            latencies[latencies.len() / 2]
        );
    }
    let summary = find(client, "#game-over")
        .await
        .text()
        .await
        .expect("summary text");
    assert!(summary.contains("Game over"), "{summary}");
    // One line names the result and its reason, and the status above the board says the same.
    let status = find(client, "#status").await.text().await.expect("status");
    assert!(
        summary.contains(&status) && !summary.contains("Reason:"),
        "the summary says {status:?} once: {summary}"
    );
    assert!(
        summary.contains("wins") || summary.contains("Winner") || summary.contains("draw"),
        "the summary names the result: {summary}"
    );
    // No legal target is lit once the game is over.
    assert!(targets(client).await.is_empty());
}

/// Qilin's points and lines: three placements against the computer, then the board's picture.
pub async fn qilin_placements(client: &Client, base: &str) {
    start_game(client, base, "qilin", &[], &["human", "ai:1"]).await;
    for _ in 0..3 {
        assert!(
            wait_my_turn(client).await,
            "Qilin ended during the placements"
        );
        play_first_decision(client).await;
    }
    assert!(wait_my_turn(client).await);
    wait_until(
        client,
        "return document.querySelector('.lift') === null;",
        "the board at rest",
    )
    .await;
    let pieces = eval(
        client,
        "return document.querySelectorAll('.cell.point .piece').length;",
    )
    .await;
    assert!(
        pieces.as_u64() >= Some(4),
        "my three pieces and the computer's replies on the points, found {pieces}"
    );
    screenshot(client, "qilin").await;
}

const CURSOR_AND_TARGET: &str = "
    const place = (el) => { const m = /translate\\(([-\\d.]+),([-\\d.]+)\\)/.exec(el.getAttribute('transform')); return [Number(m[1]), Number(m[2])]; };
    const cursor = document.activeElement.closest('[data-cell]');
    const target = document.querySelector('.cell.target');
    if (!cursor || !target) return null;
    return { cursor: cursor.dataset.cell, target: target.dataset.cell, from: place(cursor), to: place(target) };";

/// Presses `key` on whatever has the keyboard focus, as a person's key press goes.
async fn press(client: &Client, key: Key) {
    client
        .active_element()
        .await
        .expect("focus")
        .send_keys(&key.to_string())
        .await
        .unwrap_or_else(|err| panic!("key {key:?}: {err}"));
}

async fn wait_selected(client: &Client, selected: bool) {
    let script =
        format!("return (document.querySelector('.cell.selected') !== null) === {selected};");
    wait_until(client, &script, "the selection to change").await;
}

/// Walks the focus with arrow keys to the first lit target.
async fn arrows_to_a_target(client: &Client) {
    for _ in 0..24 {
        let state = eval(client, CURSOR_AND_TARGET).await;
        let (Some(cursor), Some(target)) = (state["cursor"].as_str(), state["target"].as_str())
        else {
            panic!("no focused cell or no lit target: {state}");
        };
        if cursor == target {
            return;
        }
        let dx = state["to"][0].as_f64().unwrap_or(0.0) - state["from"][0].as_f64().unwrap_or(0.0);
        let dy = state["to"][1].as_f64().unwrap_or(0.0) - state["from"][1].as_f64().unwrap_or(0.0);
        let key = match (dx.abs() >= dy.abs(), dx > 0.0, dy > 0.0) {
            (true, true, _) => Key::Right,
            (true, false, _) => Key::Left,
            (false, _, true) => Key::Down,
            (false, _, false) => Key::Up,
        };
        press(client, key).await;
    }
    panic!("24 arrow keys did not reach a lit target");
}

/// Watches, frame by frame, whether a piece is shifted on its way to a new cell (`window.slid`).
const WATCH_SLIDE: &str = "window.slid = false; const t0 = performance.now();
    const watch = () => {
      if ([...document.querySelectorAll('.mover')].some(m => getComputedStyle(m).transform !== 'none')) window.slid = true;
      if (performance.now() - t0 < 1500 && !window.slid) requestAnimationFrame(watch);
    };
    requestAnimationFrame(watch); return true;";

/// One Replica move by keyboard alone: Enter on the focused piece, arrow keys to a lit target,
/// Enter again; Escape clears a selection. The moved piece slides to its cell.
pub async fn keyboard_move(client: &Client, base: &str) {
    start_game(client, base, "replica", &[], &["human", "human"]).await;
    // The board's one tabbable cell is where keyboard focus lands.
    eval(
        client,
        "document.querySelector('[data-cell][tabindex=\"0\"]').focus(); return true;",
    )
    .await;
    let before = seq(client).await;
    press(client, Key::Enter).await;
    wait_selected(client, true).await;
    press(client, Key::Escape).await;
    wait_selected(client, false).await;
    press(client, Key::Enter).await;
    wait_selected(client, true).await;
    arrows_to_a_target(client).await;
    eval(client, WATCH_SLIDE).await;
    press(client, Key::Enter).await;
    wait_seq_after(client, before).await;
    assert_eq!(history(client).await.len(), 1, "one move made by keyboard");
    wait_until(client, "return window.slid;", "the moved piece to slide").await;
    looking_back(client).await;
}

/// Clicking "start" in the history shows the first position (the move's piece back home) with a
/// way back; nothing is playable meanwhile.
async fn looking_back(client: &Client) {
    const PIECES: &str = "return [...document.querySelectorAll('[data-cell]')].filter(c => c.querySelector('.piece')).map(c => c.dataset.cell).sort().join(' ');";
    wait_until(
        client,
        "return document.querySelector('.lift') === null;",
        "the board at rest",
    )
    .await;
    let now = eval(client, PIECES).await;
    click(client, ".history button[data-ply=\"0\"]").await;
    find(client, "#back-to-game").await;
    // The move list marks the entry shown, and only that one.
    assert_eq!(eval(client, MARKED).await, "0", "start marked in the list");
    let start = eval(client, PIECES).await;
    assert_ne!(
        start, now,
        "the start position differs from the position after the move"
    );
    assert!(
        targets(client).await.is_empty(),
        "nothing lit in an earlier position"
    );
    click(client, "#back-to-game").await;
    wait_until(
        client,
        "return document.querySelector('#back-to-game') === null;",
        "the live position",
    )
    .await;
    assert_eq!(
        eval(client, PIECES).await,
        now,
        "back to the position after the move"
    );
    assert_eq!(
        eval(client, MARKED).await,
        "",
        "nothing marked in the present"
    );
}

/// The plies of the move list's entries marked as the position shown.
const MARKED: &str = "return [...document.querySelectorAll('.history button[aria-current]')].map(b => b.dataset.ply).join(' ');";
