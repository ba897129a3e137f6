//! An invitation link as three people meet it: its creator opening it (the friend's seat stays
//! free, a note says why), the friend claiming it (each one's moves read out to the other's
//! screen reader, a declined draw offer told to the one who made it), and someone opening the
//! spent link (the game to watch, with a note).

use fantoccini::Client;

use super::driver::{click, eval, find, wait_until, Browser};
use super::online::{clicks_of, create_online, invitation_link, play_clicks, REPLICA_GAME};
use super::page::wait_game_page;

/// Whether seat `seat` of game `id` still waits for its invited player, as the server says.
async fn seat_free(client: &Client, id: &str, seat: usize) -> bool {
    eval(
        client,
        &format!(
            "const x = new XMLHttpRequest(); x.open('GET', '/api/games/{id}', false); x.send();
             return JSON.parse(x.responseText).seats[{}].free;",
            seat - 1
        ),
    )
    .await
        == true
}

async fn note(client: &Client) -> String {
    let value = wait_until(
        client,
        "const n = document.querySelector('#game-note'); return n && !n.hidden ? n.textContent : null;",
        "a note on the game page",
    )
    .await;
    value.as_str().unwrap_or_default().to_string()
}

async fn announced(client: &Client, words: &str) {
    wait_until(
        client,
        &format!("return document.querySelector('#announcer').textContent.includes('{words}');"),
        &format!("\"{words}\" read out"),
    )
    .await;
}

/// The whole scenario: the creator, the friend and a latecomer open the same link.
pub async fn invitation_links(browser: &Browser, base: &str) {
    let host = &browser.client;
    let id = create_online(
        host,
        base,
        "replica",
        &[("human", "Ana"), ("invite", "Bo")],
        "none",
    )
    .await;
    let link = invitation_link(host, 2).await;
    host.goto(&link).await.expect("the creator opens the link");
    wait_game_page(host).await;
    let said = note(host).await;
    assert!(said.contains("your invitation for seat 2"), "{said}");
    assert!(
        seat_free(host, &id, 2).await,
        "the friend's seat is still free"
    );

    let friend = browser.another_person().await;
    friend
        .client
        .goto(&link)
        .await
        .expect("the friend opens the link");
    wait_game_page(&friend.client).await;
    wait_until(
        &friend.client,
        "return document.querySelector('#move-form') && !document.querySelector('#move-form').hidden;",
        "the friend's seat",
    )
    .await;
    assert!(!seat_free(host, &id, 2).await, "the friend holds seat 2");
    let clicks = clicks_of(&REPLICA_GAME);
    play_clicks(host, &clicks[0]).await;
    announced(&friend.client, &format!("played {}", REPLICA_GAME[0])).await;
    play_clicks(&friend.client, &clicks[1]).await;
    announced(host, &format!("played {}", REPLICA_GAME[1])).await;

    click(host, "#offer-draw").await;
    click(&friend.client, "#decline-offer").await;
    wait_until(
        host,
        "return document.querySelector('#game-note').textContent.includes('Your draw offer was declined.');",
        "the declined offer told to its maker",
    )
    .await;

    let latecomer = browser.another_person().await;
    latecomer.client.goto(&link).await.expect("the spent link");
    wait_game_page(&latecomer.client).await;
    let said = note(&latecomer.client).await;
    assert!(
        said.contains("already used") && said.contains("watching"),
        "{said}"
    );
    find(&latecomer.client, "#watching").await;
    super::page::assert_no_page_fault(&friend.client, "the friend's browser").await;
    super::page::assert_no_page_fault(&latecomer.client, "the latecomer's browser").await;
    friend.stop().await;
    latecomer.stop().await;
}
