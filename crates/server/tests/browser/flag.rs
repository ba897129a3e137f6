//! A clock typed by hand on the set-up screen, short enough to run out: the running clock is
//! marked low, reaches zero, and the game-over summary says whose time ran out.

use fantoccini::Client;

use super::driver::{click, find, wait_until};
use super::page::wait_game_page;

/// Types `value` into the number field `css`.
async fn type_number(client: &Client, css: &str, value: &str) {
    let field = find(client, css).await;
    field.clear().await.expect("field cleared");
    field.send_keys(value).await.expect("number typed");
}

/// Two seats on this screen with a custom clock of six seconds: White's time runs out.
pub async fn custom_clock_runs_out(client: &Client, base: &str) {
    client
        .goto(&format!("{base}?setup=replica"))
        .await
        .expect("set-up page");
    find(client, "select[name=\"seat-2-player\"]")
        .await
        .select_by_value("human")
        .await
        .expect("a person for seat 2");
    let custom = "return document.querySelector('#clock-custom').hidden;";
    assert_eq!(
        super::driver::eval(client, custom).await,
        true,
        "custom times wait for 'Custom…'"
    );
    find(client, "#clock-preset")
        .await
        .select_by_value("custom")
        .await
        .expect("a custom clock");
    assert_eq!(
        super::driver::eval(client, custom).await,
        false,
        "custom times shown"
    );
    // Six seconds: short, and long enough that the page is up while it still runs.
    type_number(client, "#clock-minutes", "0.1").await;
    type_number(client, "#clock-increment", "0").await;
    click(client, "#start-game").await;
    wait_game_page(client).await;
    wait_until(
        client,
        "const c = document.querySelector('[data-clock-seat=\"1\"]'); return c && c.classList.contains('low') && c.classList.contains('running');",
        "White's clock running and low",
    )
    .await;
    wait_until(
        client,
        "return document.querySelector('main').dataset.over === 'true';",
        "White's time to run out",
    )
    .await;
    // The page says it (`#flag`) unless the server's outcome reason already does.
    let summary = find(client, "#game-over")
        .await
        .text()
        .await
        .expect("summary text");
    assert!(summary.contains("White ran out of time"), "{summary}");
    let shown = find(client, "[data-clock-seat=\"1\"]")
        .await
        .text()
        .await
        .expect("clock text");
    assert_eq!(shown, "0:00.0", "the flagged clock shows zero");
}
