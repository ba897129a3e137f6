//! Scenarios of the home page (games to continue, the theme remembered, the rules) and the game
//! screen's other controls: the set-up screen's seats following Splut!'s number of players, a
//! hint, flipping the board, and pause / step / speed in a game between two computers, whose
//! move list grows by the turns played rather than being built again at every move.

use fantoccini::Client;

use super::driver::{click, eval, find, wait_until};
use super::page::{history, seq, start_game, wait_game_page, wait_my_turn, wait_seq_after};

/// The home page lists the games in progress to continue, and the theme chosen stays chosen.
pub async fn home_continue_and_theme(client: &Client, base: &str) {
    client.goto(base).await.expect("home page");
    wait_until(
        client,
        "return document.querySelectorAll('.continue-list a[href^=\"/g/\"]').length > 0;",
        "games to continue",
    )
    .await;
    find(client, "#theme")
        .await
        .select_by_value("contrast")
        .await
        .expect("theme");
    client.refresh().await.expect("reload");
    wait_until(client, "return document.documentElement.dataset.theme === 'contrast' && document.querySelector('#theme').value === 'contrast';", "the theme remembered").await;
    find(client, "#theme")
        .await
        .select_by_value("light")
        .await
        .expect("theme");
    // Each game's rules are readable from its card.
    click(
        client,
        ".game-card[data-game=\"qawale\"] a[href*=\"rules\"]",
    )
    .await;
    let rules = find(client, ".rules-text")
        .await
        .text()
        .await
        .expect("rules text");
    assert!(
        rules.len() > 40,
        "the rules of Qawale say something: {rules}"
    );
}

/// Splut!'s set-up shows one seat row per player of its `players` option.
pub async fn splut_seats_follow_players(client: &Client, base: &str) {
    client
        .goto(&format!("{base}?setup=splut"))
        .await
        .expect("set-up page");
    wait_until(
        client,
        "return document.querySelectorAll('.seat-row').length === 2;",
        "two seats by default",
    )
    .await;
    eval(
        client,
        "const e = document.querySelector('[name=\"players\"]'); e.value = '4'; e.dispatchEvent(new Event('change')); return true;",
    )
    .await;
    wait_until(
        client,
        "return document.querySelectorAll('.seat-row').length === 4;",
        "four seat rows",
    )
    .await;
}

/// A hint lights the suggested move's cells and names it; the flip button turns the board.
pub async fn hint_and_flip(client: &Client, base: &str) {
    start_game(client, base, "replica", &[], &["human", "ai:1"]).await;
    assert!(wait_my_turn(client).await);
    click(client, "#hint").await;
    let text = find(client, "#hint-text")
        .await
        .text()
        .await
        .expect("hint text");
    assert!(text.starts_with("Hint: "), "{text}");
    wait_until(
        client,
        "return document.querySelectorAll('.cell.hint').length >= 1;",
        "hinted cells",
    )
    .await;
    let flipped = "return document.querySelector('svg.board').dataset.flipped;";
    assert_eq!(
        eval(client, flipped).await,
        "false",
        "the first seat sees its side at the bottom"
    );
    click(client, "#flip").await;
    assert_eq!(
        eval(client, flipped).await,
        "true",
        "the flip button turns the board"
    );
}

/// Seat 2 played by a person against the computer sees the board turned.
pub async fn second_seat_sees_its_side(client: &Client, base: &str) {
    start_game(client, base, "replica", &[], &["ai:1", "human"]).await;
    assert!(wait_my_turn(client).await);
    let flipped = eval(
        client,
        "return document.querySelector('svg.board').dataset.flipped;",
    )
    .await;
    assert_eq!(flipped, "true", "the board is turned for the second seat");
}

/// Two computers: pause stops them, step lets one decision through, speed is set.
pub async fn computers_paused_and_stepped(client: &Client, base: &str) {
    start_game(client, base, "yoxii", &[], &["ai:1", "ai:1"]).await;
    wait_game_page(client).await;
    click(client, "#pause").await;
    wait_until(
        client,
        "return document.querySelector('#pause').textContent === 'Resume';",
        "the game paused",
    )
    .await;
    // A search already under way may still land; then nothing moves.
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    let paused = seq(client).await;
    tokio::time::sleep(std::time::Duration::from_millis(900)).await;
    assert_eq!(seq(client).await, paused, "nothing moves while paused");
    click(client, "#step").await;
    wait_seq_after(client, paused).await;
    find(client, "#speed")
        .await
        .select_by_value("0")
        .await
        .expect("speed 0");
    wait_until(
        client,
        "return document.querySelector('#speed').value === '0';",
        "speed 0",
    )
    .await;
    eval(client, COUNT_NEW_LIST_ITEMS).await;
    let turns_before = history(client).await.len();
    click(client, "#pause").await;
    wait_until(
        client,
        "return document.querySelector('main').dataset.over === 'true';",
        "the computers to finish",
    )
    .await;
    let shown = history(client).await;
    let played = shown.len() - turns_before;
    let added = eval(client, "return window.newListItems.count;").await;
    let added = added.as_u64().expect("a count") as usize;
    assert!(played >= 5, "the computers played {played} turns");
    // Built again at every move, the list would have added about played² / 2 items.
    assert!(
        added <= 2 * played + 2,
        "{added} list items were made for {played} turns"
    );
    let kept = eval(client, "return fetch('/api/games/' + location.pathname.slice(3)).then((r) => r.json()).then((s) => s.history.map((t) => `${t.turn}. ${t.text}`));").await;
    let kept: Vec<String> = serde_json::from_value(kept).expect("the server's history");
    assert_eq!(shown, kept, "the move list shows the game's history");
}

/// Counts the move list's items the page makes from now on (`window.newListItems.count`): an
/// item moved with its list, as when the game-over summary is put above it, is not new.
const COUNT_NEW_LIST_ITEMS: &str = "
  const counter = { seen: new WeakSet(), count: 0 };
  document.querySelectorAll('ol.history > li').forEach((item) => counter.seen.add(item));
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (!(node instanceof Element)) continue;
        const items = [...node.querySelectorAll('ol.history > li')];
        if (node.matches('li') && record.target.matches('ol.history')) items.push(node);
        for (const item of items) {
          if (counter.seen.has(item)) continue;
          counter.seen.add(item);
          counter.count += 1;
        }
      }
    }
  }).observe(document.body, { childList: true, subtree: true });
  window.newListItems = counter;
  return true;";
