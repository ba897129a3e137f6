//! A game of three (Splut!) as a new player meets it: three computers come with their speed
//! control, a throw that knocks a team out is said ("South knocked West out"), also to a page
//! opened afterwards, and the end names the last sorcerer standing.

use fantoccini::Client;
use serde_json::{json, Value};

use super::driver::{click, eval, find, wait_until};
use super::page::{screenshot, start_game, wait_game_page, wait_seq_after};

/// Splut!'s §9.9 position (docs/rules): South's troll on d4 throws the rock on c4 north and
/// kills West's sorcerer on c7. `north` is North's team ("-" when it is already out).
fn position(north: &str) -> String {
    format!(
        "size=9 seats=south,west,north tomove=south turn=6 used=1 lev=unused locked=-
south: Sd2 De2 Td4
west: Sc7 Db5 Tb4
north: {north}
rocks: c4 e1 e9 i5"
    )
}

/// Creates a game of three from `position`, every seat a person on this screen, keeps its tokens
/// as the set-up screen would, and opens its page. Returns the game's id.
async fn open_position(client: &Client, base: &str, position: &str) -> String {
    client.goto(base).await.expect("home page");
    let body = json!({
        "record": {"format": 1, "game": "splut", "options": {"players": 3}, "position": position, "moves": []},
        "players": ["human", "human", "human"],
    });
    let created = eval(
        client,
        &format!(
            "const x = new XMLHttpRequest(); x.open('POST', '/api/games', false);
             x.setRequestHeader('content-type', 'application/json'); x.send(JSON.stringify({body}));
             const c = JSON.parse(x.responseText); if (!c.id) return x.responseText;
             localStorage.setItem('ludus.game.' + c.id, JSON.stringify({{owner: c.owner, seats: c.seats, invites: []}}));
             return c.id;"
        ),
    )
    .await;
    let id = created.as_str().expect("a game's id").to_string();
    assert!(!id.starts_with('{'), "the game was created: {id}");
    client
        .goto(&format!("{base}g/{id}"))
        .await
        .expect("the game's page");
    wait_game_page(client).await;
    id
}

/// Types South's throw into the move field and waits for the new snapshot.
async fn throw_at_west(client: &Client) {
    let before = super::page::seq(client).await;
    let throw = eval(
        client,
        "const x = new XMLHttpRequest(); x.open('GET', '/api/games/' + location.pathname.slice(3), false); x.send();
         return JSON.parse(x.responseText).legal.find(m => m.startsWith('Td4-c4*n'));",
    )
    .await;
    let throw = throw.as_str().expect("the throw is legal");
    find(client, "#move-text")
        .await
        .send_keys(throw)
        .await
        .expect("typed");
    click(client, "#move-form button").await;
    wait_seq_after(client, before).await;
}

async fn note(client: &Client) -> String {
    let value = wait_until(
        client,
        "const n = document.querySelector('#game-note'); return n && !n.hidden && n.textContent ? n.textContent : null;",
        "the note above the board",
    )
    .await;
    value.as_str().unwrap_or_default().to_string()
}

/// The seats as the page names them ("Blue", or "Ana (Blue)"), from the server's snapshot.
async fn labels(client: &Client) -> Vec<String> {
    let value = eval(
        client,
        "const x = new XMLHttpRequest(); x.open('GET', '/api/games/' + location.pathname.slice(3), false); x.send();
         return JSON.parse(x.responseText).seats.map(s => s.side && s.side !== s.name ? `${s.name} (${s.side})` : s.name);",
    )
    .await;
    value
        .as_array()
        .map(|l| {
            l.iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

/// Three computers at level 1 in a game of three, set up as a person does it: the number of
/// players typed, then each seat's menu (the first press on a menu blurs the number field, whose
/// change redraws the seats: it must not swallow that press). The owner's page then has the
/// speed control, which a game with a person in it has not.
pub async fn three_computers_have_their_speed(client: &Client, base: &str) {
    start_game(
        client,
        base,
        "splut",
        &[("players", "3")],
        &["ai:1", "ai:1", "ai:1"],
    )
    .await;
    let state = wait_until(
        client,
        "const m = document.querySelector('main');
         return m.dataset.seq ? {speed: document.querySelector('#speed') !== null,
           seats: document.querySelectorAll('[data-seat]').length} : null;",
        "the game of three computers",
    )
    .await;
    assert_eq!(
        state,
        json!({"speed": true, "seats": 3}),
        "a speed control and three seats"
    );
}

/// A throw knocks West out: the page says who knocked whom out, a page opened afterwards says
/// it too; in a game where North is already out the same throw ends it, and the end names South;
/// the board leaves room for the note: players and actions stay in sight at 1280 × 900.
pub async fn knock_outs_are_said(client: &Client, base: &str) {
    super::newcomer_fit::page_size(client, 1280, 900).await;
    open_position(client, base, &position("Sf8 De8 Td8")).await;
    let seats = labels(client).await;
    assert_eq!(seats.len(), 3, "three seats: {seats:?}");
    throw_at_west(client).await;
    let said = format!("{} knocked {} out (Td4-c4*n", seats[0], seats[1]);
    let live = note(client).await;
    assert!(live.contains(&said), "{said:?} in {live:?}");
    client.refresh().await.expect("reloaded");
    wait_game_page(client).await;
    let later = note(client).await;
    assert!(
        later.contains(&said),
        "after a reload: {said:?} in {later:?}"
    );

    open_position(client, base, &position("-")).await;
    throw_at_west(client).await;
    let end = wait_until(
        client,
        "const m = document.querySelector('main'); return m.dataset.over === 'true'
           ? {status: document.querySelector('#status').textContent, summary: document.querySelector('#game-over strong').textContent} : null;",
        "the end of the game",
    )
    .await;
    let winner = format!("{} wins", seats[0]);
    for part in ["status", "summary"] {
        let text = end[part].as_str().unwrap_or_default();
        assert!(
            text.contains(&winner) && text.contains("last sorcerer standing"),
            "the {part} names the winner: {end}"
        );
    }
    let last = note(client).await;
    assert!(last.contains(&said), "{said:?} in {last:?}");
    // Typing the move scrolled to its field: back at the top, the note above the board has not
    // pushed the players and actions out of sight.
    eval(client, "window.scrollTo(0, 0); return true;").await;
    let seen = super::newcomer_fit::boxes(client).await;
    super::newcomer_fit::assert_in_sight(&seen, "with a note above the board");
    screenshot(client, "knock-out").await;
}
