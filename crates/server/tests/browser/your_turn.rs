//! Knowing it is your turn: two browsers play a Replica game with a correspondence clock (3 days
//! per move); the invited friend's page is put behind another tab (a real tab switch, WebDriver's
//! new window) and, when the creator moves, its title gets the "• Your turn — " prefix, gone
//! once the tab is in front again. The friend's "My games" then lists that game first, with its
//! time left in days, before a game where it is the other side's turn (changed more recently),
//! and aborts the latter from there.

use fantoccini::Client;

use super::driver::{click, eval, find, wait_until};
use super::online::{create_online, invitation_link};
use super::page::{play_first_decision, wait_game_page, wait_my_turn};

const PREFIX: &str = "• Your turn — ";

/// The creator sets up Replica with seat 2 invited and 3 days per move. Answers the game's id
/// and the invitation link.
async fn invited_game(host: &Client, base: &str) -> (String, String) {
    let seats = [("human", "Ana"), ("invite", "Bo")];
    let id = create_online(host, base, "replica", &seats, "days-3").await;
    (id, invitation_link(host, 2).await)
}

/// `friend` opens `link`: it claims the seat, and the game page shows.
async fn claim(friend: &Client, link: &str, id: &str) {
    friend.goto(link).await.expect("the invitation link");
    assert_eq!(wait_game_page(friend).await, id);
}

/// The game page of `client` writes every title it takes, with whether the page was hidden
/// then, and the sound it asks for, where another tab of the same browser reads them (local
/// storage is shared).
async fn record_titles(client: &Client) {
    eval(
        client,
        "const title = document.querySelector('title');
         new MutationObserver(() => localStorage.setItem('test.title',
             JSON.stringify({title: document.title, state: document.visibilityState})))
           .observe(title, {childList: true, characterData: true, subtree: true});
         const sound = window.ludusSound;
         window.ludusSound = (name) => { localStorage.setItem('test.sound', name); return sound && sound(name); };
         return true;",
    )
    .await;
}

/// The "Notify me when it's my turn" button is there while the choice is not made.
async fn notification_choice(friend: &Client) {
    let permission = eval(
        friend,
        "return typeof Notification === 'function' ? Notification.permission : 'none';",
    )
    .await;
    let button = eval(
        friend,
        "return document.querySelector('#notify-turn button') !== null;",
    )
    .await;
    assert_eq!(
        button,
        permission == "default",
        "the notification choice is offered while not yet made ({permission})"
    );
}

pub async fn title_and_my_games(host: &Client, friend: &Client, base: &str) {
    let (first, link) = invited_game(host, base).await;
    claim(friend, &link, &first).await;
    let clock = wait_until(
        friend,
        "const e = document.querySelector('[data-clock-seat=\"2\"]'); return e ? e.textContent : null;",
        "the correspondence clock",
    )
    .await;
    assert_eq!(clock, "3 d 0 h", "the waiting seat's days");
    notification_choice(friend).await;
    let (second, second_link) = invited_game(host, base).await;

    // The friend opens another tab: the game's page is hidden behind it.
    record_titles(friend).await;
    let game_tab = friend.window().await.expect("the game's tab");
    let other = friend.new_window(true).await.expect("a new tab");
    friend
        .switch_to_window(other.handle)
        .await
        .expect("to the new tab");
    friend.goto(base).await.expect("the home page");
    host.goto(&format!("{base}g/{first}"))
        .await
        .expect("the creator's game");
    wait_game_page(host).await;
    assert!(wait_my_turn(host).await);
    play_first_decision(host).await;
    let seen = wait_until(
        friend,
        &format!(
            "const t = JSON.parse(localStorage.getItem('test.title') || 'null');
             return t && t.title.startsWith('{PREFIX}') ? t : null;"
        ),
        "the hidden tab's title to say it is your turn",
    )
    .await;
    assert_eq!(seen["state"], "hidden", "a real background tab: {seen}");
    assert_eq!(seen["title"], format!("{PREFIX}Replica · Ludus"));
    let sound = eval(friend, "return localStorage.getItem('test.sound');").await;
    assert_eq!(
        sound, "turn",
        "the sounds module is asked for its turn sound"
    );

    // In the other tab the friend joins the second game: it changed last, and its seat to
    // move is the creator's.
    claim(friend, &second_link, &second).await;
    friend.close_window().await.expect("the new tab closed");
    friend
        .switch_to_window(game_tab)
        .await
        .expect("back to the game's tab");
    let title = wait_until(
        friend,
        "return document.title.startsWith('• Your turn') ? null : document.title;",
        "the prefix to go once the page is seen",
    )
    .await;
    assert_eq!(title, "Replica · Ludus");
    my_games_ranked(friend, base, &first, &second).await;
}

/// The friend's "My games": the game where it is their turn first, with its days left, then
/// the other; the other is aborted from there.
async fn my_games_ranked(friend: &Client, base: &str, first: &str, second: &str) {
    friend.goto(base).await.expect("the home page");
    find(friend, ".continue-list li").await;
    let rows = eval(
        friend,
        "return [...document.querySelectorAll('.continue-list li')].map(li =>
           ({id: li.dataset.id, yours: li.dataset.yourTurn, text: li.textContent}));",
    )
    .await;
    let rows = rows.as_array().expect("rows").clone();
    let ids: Vec<&str> = rows.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids, [first, second], "your turn first: {rows:?}");
    assert_eq!(rows[0]["yours"], "true");
    assert_eq!(rows[1]["yours"], "false");
    let text = rows[0]["text"].as_str().unwrap();
    assert!(
        text.contains("Your turn · 2 d 23 h left"),
        "the time left in days: {text}"
    );
    assert!(
        rows[1]["text"].as_str().unwrap().contains("Ana to move"),
        "{rows:?}"
    );
    click(
        friend,
        &format!(".continue-list [data-id=\"{second}\"] button[data-remove=\"abort\"]"),
    )
    .await;
    let said = wait_until(
        friend,
        "return document.querySelector('#my-games-status').textContent;",
        "the abort answered",
    )
    .await;
    assert_eq!(said, "Game aborted.");
    let gone = eval(
        friend,
        &format!(
            "const x = new XMLHttpRequest(); x.open('GET', '/api/games/{second}', false); x.send();
             return [x.status, document.querySelector('[data-id=\"{second}\"]') === null];"
        ),
    )
    .await;
    assert_eq!(gone, serde_json::json!([404, true]));
}
