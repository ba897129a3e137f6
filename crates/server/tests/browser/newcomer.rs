//! A new player's scenarios in one browser: each starts from the set-up screen (or the lobby)
//! and checks what the page shows as a person would see it: computed styles, boxes on screen,
//! accessible names and the words of the status, notes and set-up.

use fantoccini::key::Key;
use fantoccini::Client;
use serde_json::Value;

use super::driver::{click, eval, find, wait_until};
use super::page::{
    click_cell, play_first_decision, screenshot, seq, start_game, wait_game_page, wait_my_turn,
    wait_seq_after,
};

/// `shown(el)`: the element is drawn (not `display: none`, a box of some size).
const SHOWN: &str = "const shown = (el) => { if (!el) return false; const st = getComputedStyle(el);
    const r = el.getBoundingClientRect(); return st.display !== 'none' && st.visibility !== 'hidden' && r.width > 0 && r.height > 0; };";

async fn text(client: &Client, css: &str) -> String {
    find(client, css).await.text().await.expect("text")
}

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

/// How many turns the page's move list shows as complete.
const COMPLETE_TURNS: &str = "return [...document.querySelectorAll('.history button[data-ply]')]
    .filter(b => b.dataset.ply !== '0' && !b.textContent.includes('…')).length;";

/// This person's whole turn, decision by decision as a person clicks it (a computer may answer
/// at once: the turn is over when the move list has one more complete turn).
async fn play_one_turn(client: &Client) {
    let before = eval(client, COMPLETE_TURNS).await;
    while eval(client, COMPLETE_TURNS).await == before {
        play_first_decision(client).await;
    }
}

/// Two people on this screen with a three-second clock: White's time runs out, and the status
/// line above the board says so (not "resigned"), once, as the summary does.
pub async fn time_out_said_in_the_status(client: &Client, base: &str) {
    client
        .goto(&format!("{base}?setup=replica"))
        .await
        .expect("set-up page");
    find(client, "select[name=\"seat-2-player\"]")
        .await
        .select_by_value("human")
        .await
        .expect("a person for seat 2");
    find(client, "#clock-preset")
        .await
        .select_by_value("custom")
        .await
        .expect("a custom clock");
    for (css, value) in [("#clock-minutes", "0.05"), ("#clock-increment", "0")] {
        let field = find(client, css).await;
        field.clear().await.expect("cleared");
        field.send_keys(value).await.expect("typed");
    }
    click(client, "#start-game").await;
    wait_game_page(client).await;
    wait_until(
        client,
        "return document.querySelector('main').dataset.over === 'true';",
        "White's time to run out",
    )
    .await;
    let status = text(client, "#status").await;
    assert!(
        status.contains("White ran out of time") && !status.contains("resigned"),
        "the status says who ran out of time: {status}"
    );
    let summary = text(client, "#game-over").await;
    assert_eq!(
        summary.matches("ran out of time").count(),
        1,
        "said once: {summary}"
    );
    assert!(
        !summary.contains("(White)"),
        "no 'White (White)': {summary}"
    );
}

/// Qawale between two people on this screen: after a turn, every last-move cell keeps its
/// corner brackets even where a target's fill covers its own; targets, the selection and the
/// hint each have a shape of their own, drawn above the pieces; a stack's name says its height.
pub async fn cues_beside_hue(client: &Client, base: &str) {
    start_game(client, base, "qawale", &[], &["human", "human"]).await;
    let first = seq(client).await;
    // Seat 1's whole turn, decision by decision, as a person clicks it.
    play_one_turn(client).await;
    assert!(wait_my_turn(client).await, "the second turn");
    assert!(seq(client).await > first);
    let state = eval(
        client,
        &format!(
            "{SHOWN}
        const last = [...document.querySelectorAll('.cell.last')];
        const above = (c) => {{ const cue = c.querySelector('.cues'); const back = c.querySelector('.backdrop');
          return Boolean(cue) && [...c.querySelectorAll('.mover, .badge, .dot')].every(p => p.compareDocumentPosition(cue) & Node.DOCUMENT_POSITION_FOLLOWING)
            && Boolean(back.compareDocumentPosition(cue) & Node.DOCUMENT_POSITION_FOLLOWING); }};
        return {{ last: last.length,
          both: last.filter(c => c.classList.contains('target')).length,
          unmarked: last.filter(c => !shown(c.querySelector('.cue-last'))).map(c => c.dataset.cell),
          targets: [...document.querySelectorAll('.cell.target')].filter(c => !shown(c.querySelector('.cue-target'))).length,
          above: last.every(above),
          stacks: [...document.querySelectorAll('.cell')].filter(c => c.querySelector('.badge')).map(c => c.getAttribute('aria-label')) }};"
        ),
    )
    .await;
    assert!(state["last"].as_u64() > Some(0), "{state}");
    assert!(
        state["both"].as_u64() > Some(0),
        "a last-move cell that is also a target: {state}"
    );
    assert_eq!(state["unmarked"], Value::Array(vec![]), "{state}");
    assert_eq!(state["targets"], 0, "every target has its ring: {state}");
    assert_eq!(
        state["above"], true,
        "cues are drawn above backdrop and pieces: {state}"
    );
    let stacks = state["stacks"].as_array().cloned().unwrap_or_default();
    assert!(
        !stacks.is_empty()
            && stacks
                .iter()
                .all(|l| l.as_str().is_some_and(|l| l.contains("stack of "))),
        "a stack's name says its height: {stacks:?}"
    );
    selection_and_hint_cues(client).await;
    screenshot(client, "board-cues").await;
}

async fn selection_and_hint_cues(client: &Client) {
    click(client, "#hint").await;
    let hint = wait_until(
        client,
        &format!(
            "{SHOWN} const cells = [...document.querySelectorAll('.cell.hint')];
          return cells.length ? cells.every(c => shown(c.querySelector('path.cue-hint'))) : null;"
        ),
        "the hint's cells",
    )
    .await;
    assert_eq!(hint, true, "every hinted cell has its corner triangle");
    let start = eval(
        client,
        "const t = document.querySelector('.cell.target'); return t ? t.dataset.cell : null;",
    )
    .await;
    click_cell(client, start.as_str().expect("a lit cell")).await;
    let selected = eval(
        client,
        &format!("{SHOWN} const cells = [...document.querySelectorAll('.cell.selected')];
          return {{count: cells.length, framed: cells.every(c => shown(c.querySelector('rect.cue-selected')))}};"),
    )
    .await;
    if selected["count"].as_u64() > Some(0) {
        assert_eq!(
            selected["framed"], true,
            "the selection has its frame: {selected}"
        );
    }
}

/// Qilin against the computer: arrow keys follow the line the cursor is on (a1 → d1, not the
/// diagonal's b2; d1 ↑ d2), the focus ring shows for keys and not after a mouse click.
pub async fn keys_follow_lines_and_focus_ring(client: &Client, base: &str) {
    start_game(client, base, "qilin", &[], &["human", "ai:1"]).await;
    assert!(wait_my_turn(client).await);
    eval(
        client,
        "document.querySelector('[data-cell=\"a1\"]').focus(); return true;",
    )
    .await;
    let focused = "const c = document.activeElement.closest('[data-cell]'); return c ? c.dataset.cell : null;";
    let ring = "const c = document.activeElement.closest('[data-cell]'); const r = c && c.querySelector('.focus-ring');
        return r ? getComputedStyle(r).display : 'no ring';";
    press(client, Key::Right).await;
    assert_eq!(
        eval(client, focused).await,
        "d1",
        "right from a1 follows the bottom line"
    );
    press(client, Key::Up).await;
    assert_eq!(
        eval(client, focused).await,
        "d2",
        "up from d1 follows the middle line"
    );
    assert_ne!(
        eval(client, ring).await,
        "none",
        "the keyboard's cursor shows its ring"
    );
    let before = seq(client).await;
    click_cell(client, "g1").await;
    wait_seq_after(client, before).await;
    let rings = "return [...document.querySelectorAll('.focus-ring')].filter(r => getComputedStyle(r).display !== 'none').length;";
    assert_eq!(
        eval(client, rings).await,
        0,
        "no focus ring after a mouse click"
    );
}

/// Replica between two people on this screen: the first piece that may transform, once
/// selected, carries a "click again" badge, its name and a line under the board say so; the
/// second click transforms it.
pub async fn click_again_is_said(client: &Client, base: &str) {
    let (moves, square) = first_transform();
    start_game(client, base, "replica", &[], &["human", "human"]).await;
    for cells in moves {
        super::online::play_clicks(client, &cells).await;
    }
    click_cell(client, &square).await;
    let state = eval(
        client,
        &format!(
            "{SHOWN} const c = document.querySelector('[data-cell=\"{square}\"]');
             return {{badge: shown(c.querySelector('.cue-again')), name: c.getAttribute('aria-label'),
                      note: document.querySelector('#again-note').textContent}};"
        ),
    )
    .await;
    assert_eq!(state["badge"], true, "{state}");
    assert!(
        state["name"]
            .as_str()
            .is_some_and(|n| n.contains("click again to transform")),
        "{state}"
    );
    assert_eq!(state["note"], format!("Click {square} again to transform."));
    screenshot(client, "click-again").await;
    let before = seq(client).await;
    click_cell(client, &square).await;
    wait_seq_after(client, before).await;
    let note = text(client, "#again-note").await;
    assert_eq!(note, "", "the line goes with the selection");
}

/// The clicks of the shortest run of moves (the first legal one each time) after which the side
/// to move may transform a piece, and that piece's square.
fn first_transform() -> (Vec<Vec<String>>, String) {
    let mut game = ludus_games::new_game("replica", &[], None, 0).expect("replica");
    let mut moves = Vec::new();
    for _ in 0..12 {
        let legal = game.legal_moves();
        let view = game.view();
        let name = |c: &ludus_engine::CellId| view.cells[c.to_usize()].name.to_string();
        if let Some(found) = legal
            .iter()
            .find(|m| m.input.label.as_deref() == Some("transform"))
        {
            return (moves, name(&found.input.cells[0]));
        }
        let first = legal.first().expect("a legal move");
        moves.push(first.input.cells.iter().map(name).collect());
        let text = first.notation.clone();
        game.play(&text).expect("legal");
    }
    panic!("no transform within 12 moves");
}

/// A 390 × 844 window (a phone): during play the players above and below the board, the board
/// and the actions bar are all on screen without scrolling.
pub async fn phone_keeps_everything_in_sight(client: &Client, base: &str) {
    super::newcomer_fit::page_size(client, 390, 844).await;
    start_game(client, base, "qawale", &[], &["human", "ai:1"]).await;
    assert!(wait_my_turn(client).await);
    let boxes = super::newcomer_fit::boxes(client).await;
    screenshot(client, "phone-play").await;
    super::newcomer_fit::page_size(client, 1280, 900).await;
    computer_turn_staged(client).await;
    super::newcomer_fit::assert_in_sight(&boxes, "on a 390 × 844 screen");
}

/// The set-up screen names options and values in words, and each seat its side, its colour
/// and who moves first (while the options are the defaults).
pub async fn set_up_in_words(client: &Client, base: &str) {
    client
        .goto(&format!("{base}?setup=qawale"))
        .await
        .expect("set-up");
    find(client, "[data-seat-title]").await;
    let words = "const form = document.querySelector('form.setup');
        const seen = [...form.querySelectorAll('label, .help, option, .seat-title, legend')].map(e => e.textContent).join(' | ');
        return {seen, first: [...document.querySelectorAll('[data-seat-title]')].filter(t => /moves first/.test(t.textContent)).length,
                titles: [...document.querySelectorAll('[data-seat-title]')].map(t => t.textContent + (t.querySelector('svg') ? ' +icon' : ''))};";
    let shown = eval(client, words).await;
    let seen = shown["seen"].as_str().unwrap_or_default().to_string();
    assert!(!seen.contains('_'), "no raw keys or values: {seen}");
    assert!(
        seen.contains("First player") && seen.contains("Mover wins"),
        "{seen}"
    );
    assert_eq!(shown["first"], 1, "one seat moves first: {shown}");
    assert!(
        shown["titles"].as_array().is_some_and(|t| t.len() == 2
            && t.iter().all(|t| {
                let t = t.as_str().unwrap_or_default();
                t.contains(" · ") && t.ends_with("+icon")
            })),
        "each seat has its side and its piece: {shown}"
    );
    let other = eval(client, "const s = document.querySelector('[name=\"first_player\"]');
        s.value = [...s.options].map(o => o.value).find(v => v !== s.value); s.dispatchEvent(new Event('change')); return s.value;").await;
    assert!(other.is_string());
    let changed = eval(client, words).await;
    assert_eq!(
        changed["first"], 0,
        "with other options the page does not guess: {changed}"
    );
}

/// A game against the computer that its player left is not listed until asked for; a game
/// created meanwhile appears without a reload.
pub async fn lobby_hides_left_games_and_refreshes(client: &Client, base: &str) {
    let left = start_game(client, base, "replica", &[], &["human", "ai:1"]).await;
    client.goto(&format!("{base}lobby")).await.expect("lobby");
    let listed =
        format!("return document.querySelector('#lobby-lists [data-id=\"{left}\"]') !== null;");
    wait_until(client, &format!("return !(function() {{ {listed} }})() && document.querySelector('#lobby-lists') !== null;"), "the left game hidden").await;
    click(client, "#show-abandoned").await;
    assert_eq!(eval(client, &listed).await, true, "shown when asked for");
    click(client, "#show-abandoned").await;
    let created = eval(
        client,
        "const x = new XMLHttpRequest(); x.open('POST', '/api/games', false);
         x.setRequestHeader('content-type', 'application/json');
         x.send(JSON.stringify({game: 'yoxii', players: ['human', 'human']}));
         return JSON.parse(x.responseText).id;",
    )
    .await;
    let id = created.as_str().expect("a new game's id");
    wait_until(
        client,
        &format!("return document.querySelector('#lobby-lists [data-id=\"{id}\"]') !== null;"),
        "the new game in the lobby without a reload",
    )
    .await;
}

/// After this person's Qawale turn, the computer's sowing is shown a step at a time: the page
/// marks step 1, 2, … of its turn in order (`main[data-stage]`), then the whole turn.
async fn computer_turn_staged(client: &Client) {
    eval(client, "window.stages = []; new MutationObserver(() => { const s = document.querySelector('main').dataset.stage;
        if (window.stages.at(-1) !== s) window.stages.push(s); }).observe(document.querySelector('main'), {attributes: true});
        return true;").await;
    play_one_turn(client).await;
    let answered = wait_my_turn(client).await;
    let state = super::page::page_state(client).await;
    assert!(answered, "the computer answered: {state}");
    wait_until(
        client,
        "return document.querySelector('main').dataset.stage === '';",
        "the staged turn's end",
    )
    .await;
    let stages = eval(client, "return window.stages.filter(s => s);").await;
    let shown: Vec<&str> = stages
        .as_array()
        .map(|s| s.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let counted: Vec<String> = (1..=shown.len()).map(|i| i.to_string()).collect();
    assert!(
        shown.len() >= 2 && shown == counted,
        "the computer's steps one by one: {stages}"
    );
}
