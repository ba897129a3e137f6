//! The game page fits the window: on a desktop (1280 × 900, 1440 × 900) and a phone (390 × 844)
//! the status, the players above and below the board, the board and the actions bar under it
//! are all on screen during play, without scrolling, in every game.

use fantoccini::Client;
use serde_json::Value;

use super::driver::eval;
use super::page::{start_game, wait_my_turn};

/// What must stay in sight during play, as CSS selectors.
pub const IN_SIGHT: [&str; 8] = [
    "#status",
    "#seats-top [data-seat]",
    "svg.board",
    "#seats-bottom [data-seat]",
    "#hint",
    "#undo",
    "#resign",
    ".actions-holder .actions",
];

/// Sizes the window so that the page itself (`innerWidth` × `innerHeight`) is `width` ×
/// `height`: the window's own bars take some of a window's size.
pub async fn page_size(client: &Client, width: u32, height: u32) {
    let want = serde_json::json!([width, height]);
    let (mut window_width, mut window_height) = (width, height);
    let mut now = Value::Null;
    // The window's bars are measured from the page once the window took its size, which a
    // busy machine may apply late: measured again until the page is the size asked.
    for _ in 0..3 {
        client
            .set_window_size(window_width, window_height)
            .await
            .expect("a window size");
        now = eval(client, "return [innerWidth, innerHeight];").await;
        if now == want {
            return;
        }
        let grow = |i: usize, want: u32, window: u32| {
            let got = now[i].as_u64().unwrap_or(u64::from(want));
            u32::try_from((u64::from(window) + u64::from(want)).saturating_sub(got)).unwrap_or(want)
        };
        (window_width, window_height) =
            (grow(0, width, window_width), grow(1, height, window_height));
    }
    assert_eq!(now, want, "the page's own size");
}

/// For each of [`IN_SIGHT`]: "in sight", or where its box lies; with the page's scroll.
pub async fn boxes(client: &Client) -> Value {
    let list = serde_json::to_string(&IN_SIGHT).expect("selectors as JSON");
    eval(
        client,
        &format!(
            "const out = {{}}; for (const css of {list}) {{
               const el = document.querySelector(css); const r = el ? el.getBoundingClientRect() : null;
               out[css] = r && r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth
                 ? 'in sight' : (r ? [r.left, r.top, r.right, r.bottom].map(Math.round).join(',') : 'missing'); }}
             out.scroll = scrollY; const b = document.querySelector('svg.board').getBoundingClientRect(); out.board = Math.round(Math.max(b.width, b.height));
             return out;"
        ),
    )
    .await
}

/// Fails unless everything of [`IN_SIGHT`] is on screen in `boxes` and the page is not scrolled.
pub fn assert_in_sight(boxes: &Value, what: &str) {
    for css in IN_SIGHT {
        assert_eq!(boxes[css], "in sight", "{css} {what}: {boxes}");
    }
    assert_eq!(boxes["scroll"], 0, "{what}: {boxes}");
}

/// Every game against the computer at 1280 × 900 and 1440 × 900: everything around the board in
/// sight, and the board no smaller than 60 % of the window's height (fitting it by shrinking the
/// board to nothing would pass the first check).
pub async fn desktop_keeps_everything_in_sight(client: &Client, base: &str) {
    for (width, height) in [(1280, 900), (1440, 900)] {
        page_size(client, width, height).await;
        for info in ludus_games::GAMES {
            start_game(client, base, info.id, &[], &["human", "ai:1"]).await;
            assert!(
                wait_my_turn(client).await,
                "{} begins with a person",
                info.id
            );
            let seen = boxes(client).await;
            let what = format!("in {} at {width} × {height}", info.id);
            assert_in_sight(&seen, &what);
            let board = seen["board"].as_u64().unwrap_or(0);
            assert!(
                board * 10 >= u64::from(height) * 6,
                "a board of {board} px {what}: {seen}"
            );
        }
    }
    page_size(client, 1280, 900).await;
}
