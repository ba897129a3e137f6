//! Pairing between two signed-up people's browsers: one posts a rated seek in the lobby, the
//! other sees it appear without a reload and accepts it, and both pages land in the same game;
//! part of it is played from a third browser signed in as the seeker; they play it to the end
//! by clicks and both read the new ratings in the summary and on the profile; a rematch offered
//! by one and accepted by the other swaps the seats; a challenge declined says so to the
//! challenger. Screenshots: the lobby with a seek, the game with ratings, the profile with its
//! plotted line, the leaderboard.

use fantoccini::Client;
use serde_json::Value;

use super::accounts::{assert_no_dialog, injected, profile_text_as_text};
use super::driver::{click, eval, find, wait_until};
use super::online::{clicks_of, play_clicks, REPLICA_GAME};
use super::page::{screenshot, wait_game_page};

/// The seat this browser plays in the game on screen (the seats panel marks it "you").
async fn my_seat(client: &Client) -> u64 {
    let seat = wait_until(
        client,
        "const li = [...document.querySelectorAll('.seat-bar .seats li')].find(l => / · you/.test(l.textContent));
         return li ? Number(li.dataset.seat) : null;",
        "this browser's seat",
    )
    .await;
    seat.as_u64().expect("a seat number")
}

/// `seeker` posts a rated Replica seek (5 min + 0 s: fast) in the lobby; `taker`, whose lobby
/// was open before, sees it come and accepts it; answers the game's id, the same on both pages.
async fn seek_taken(seeker: &Client, taker: &Client, base: &str, seeker_name: &str) -> String {
    for client in [seeker, taker] {
        client.goto(&format!("{base}lobby")).await.expect("lobby");
        wait_until(
            client,
            "const e = document.querySelector('#seeks-live'); return e && e.textContent === 'live';",
            "the lobby live",
        )
        .await;
    }
    find(seeker, "#seek-game")
        .await
        .select_by_value("replica")
        .await
        .expect("the game");
    find(seeker, "#seek-clock-preset")
        .await
        .select_by_value("2")
        .await
        .expect("the clock");
    click(seeker, "#seek-rated").await;
    click(seeker, "#seek-submit").await;
    wait_until(
        seeker,
        "const e = document.querySelector('#seek-done'); return e && e.textContent !== '';",
        "the seek posted",
    )
    .await;
    let row = wait_until(
        taker,
        "const li = document.querySelector('.seek[data-seek]'); return li ? li.textContent : null;",
        "the seek arriving without a reload",
    )
    .await;
    let row = row.as_str().unwrap_or_default();
    assert!(
        row.contains(seeker_name)
            && row.contains("Replica")
            && row.contains("5 min + 0 s")
            && row.contains("rated"),
        "the seek names who, the game, the clock and rated: {row}"
    );
    assert!(row.contains('('), "the seeker's rating is shown: {row}");
    screenshot(taker, "lobby-seeks").await;
    click(taker, ".seek [data-accept-seek]").await;
    let taken = wait_game_page(taker).await;
    let seeking = wait_game_page(seeker).await;
    assert_eq!(taken, seeking, "both pages land on the same game");
    taken
}

/// The seats panel shows each seat's account with a rating.
async fn seats_show_accounts(client: &Client, names: [&str; 2]) {
    let shown = wait_until(
        client,
        "const seats = [...document.querySelectorAll('.seat-bar [data-account-seat]')].map(e => e.textContent);
         return seats.length === 2 ? seats : null;",
        "both seats' accounts",
    )
    .await;
    let text = shown.to_string();
    for name in names {
        assert!(text.contains(name), "{name} is shown on a seat: {text}");
    }
    let offers = wait_until(
        client,
        "return document.querySelector('#offer-draw') ? document.querySelector('#offer-takeback') === null : null;",
        "the offers of a rated game",
    )
    .await;
    assert_eq!(offers, true, "a rated game offers a draw but no takeback");
    assert!(
        text.contains("(1500?)"),
        "a new account's rating is provisional: {text}"
    );
}

/// The rating lines of the summary, once the game is over.
async fn rating_lines(client: &Client) -> Vec<String> {
    let lines = wait_until(
        client,
        "const e = document.querySelectorAll('#rating-changes li'); return e.length ? [...e].map(l => l.textContent) : null;",
        "the rating changes in the summary",
    )
    .await;
    lines
        .as_array()
        .map(|list| {
            list.iter()
                .filter_map(|v| v.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// Plays the short Replica game by clicks; seat 1's moves from `first`, seat 2's from `second`,
/// the seeker's fourth move (turn 7, or 8) from `elsewhere`, a third browser signed in as them.
async fn played_to_the_end(
    players: [&Client; 2],
    seeker: usize,
    elsewhere: &Client,
    base: &str,
    id: &str,
) {
    let clicks = clicks_of(&REPLICA_GAME);
    for (i, cells) in clicks.iter().enumerate() {
        let seat = i % 2;
        if seat == seeker && (i == 6 || i == 7) {
            elsewhere.goto(base).await.expect("home page");
            click(elsewhere, &format!(".continue-list [data-id=\"{id}\"] a")).await;
            assert_eq!(wait_game_page(elsewhere).await, id);
            play_clicks(elsewhere, cells).await;
            continue;
        }
        play_clicks(players[seat], cells).await;
    }
}

/// Both people see their ratings change in the summary; the winner (seat 1) gains.
async fn ratings_in_the_summary(players: [&Client; 2], names: [&str; 2]) {
    for client in players {
        let lines = rating_lines(client).await;
        assert_eq!(lines.len(), 2, "{lines:?}");
        let winner = lines
            .iter()
            .find(|l| l.starts_with(names[0]))
            .expect("the winner's line");
        let loser = lines
            .iter()
            .find(|l| l.starts_with(names[1]))
            .expect("the loser's line");
        assert!(
            winner.contains("1500? → ") && winner.contains("(+"),
            "{winner}"
        );
        assert!(
            loser.contains("1500? → ") && loser.contains("(−"),
            "{loser}"
        );
    }
    screenshot(players[0], "game-ratings").await;
}

/// The profile lists the new rating and plots its history; the leaderboard opens.
async fn profile_and_leaderboard(client: &Client, base: &str, name: &str, opponent: &str) {
    profile_text_as_text(client, base, name).await;
    let row = wait_until(
        client,
        "const r = document.querySelector('#ratings [data-rating^=\"replica-\"]'); return r ? r.textContent : null;",
        "the Replica rating on the profile",
    )
    .await;
    let row = row.as_str().unwrap_or_default();
    assert!(row.contains("Replica") && row.contains("fast"), "{row}");
    let chart = eval(
        client,
        "const svg = document.querySelector('.rating-chart');
         return svg ? {points: svg.querySelectorAll('.point').length,
                       labels: [...svg.querySelectorAll('.axis-label')].map(t => t.textContent)} : null;",
    )
    .await;
    assert_eq!(chart["points"], 1, "one rated game, one point: {chart}");
    assert_eq!(
        chart["labels"],
        serde_json::json!(["Rating", "Rated games, oldest to newest"]),
        "both axes are labelled"
    );
    let recent = eval(
        client,
        "return [...document.querySelectorAll('#recent-games li')].map(l => l.textContent);",
    )
    .await;
    assert!(
        recent.as_array().is_some_and(|games| games.iter().any(|g| {
            let g = g.as_str().unwrap_or_default();
            g.starts_with(&format!("Replica against {opponent}"))
                && (g.ends_with(" · won · rated") || g.ends_with(" · lost · rated"))
        })),
        "the recent games name the opponent, the result and rated: {recent}"
    );
    let links = eval(
        client,
        "return document.querySelectorAll('#recent-games a[href^=\"/g/\"]').length;",
    )
    .await;
    assert!(
        links.as_u64().unwrap_or(0) >= 1,
        "recent games link to them: {links}"
    );
    screenshot(client, "profile").await;
    click(client, "a[href=\"/leaderboard\"]").await;
    find(client, "#board-game")
        .await
        .select_by_value("replica")
        .await
        .expect("game");
    wait_until(
        client,
        "return location.search.includes('game=replica') && document.querySelector('#leaderboard, #leaderboard-empty') !== null;",
        "the Replica leaderboard",
    )
    .await;
    screenshot(client, "leaderboard").await;
}

/// `offerer` offers a rematch; `answerer` accepts it: both pages open the new game, seats swapped.
async fn rematch_accepted(
    offerer: &Client,
    answerer: &Client,
    id: &str,
    seats: [u64; 2],
) -> String {
    click(offerer, "#rematch").await;
    wait_until(
        offerer,
        "const e = document.querySelector('#rematch-text'); return e && /waiting/.test(e.textContent);",
        "the offer waiting",
    )
    .await;
    let offer = wait_until(
        answerer,
        "const e = document.querySelector('#rematch-text'); return e && document.querySelector('#accept-rematch') ? e.textContent : null;",
        "the rematch offered on the other page",
    )
    .await;
    assert!(
        offer
            .as_str()
            .unwrap_or_default()
            .contains("offers a rematch"),
        "{offer}"
    );
    screenshot(answerer, "game-rematch-offer").await;
    click(answerer, "#accept-rematch").await;
    let leave = format!("return location.pathname !== '/g/{id}' && document.querySelector('main[data-seq] svg.board') ? location.pathname.slice(3) : null;");
    let new_id = wait_until(answerer, &leave, "the new game").await;
    let other_id = wait_until(offerer, &leave, "the new game on the offerer's page").await;
    assert_eq!(new_id, other_id, "both land on the same new game");
    let swapped = [my_seat(offerer).await, my_seat(answerer).await];
    assert_eq!(swapped, [seats[1], seats[0]], "the seats are swapped");
    new_id.as_str().unwrap_or_default().to_string()
}

/// `challenger` challenges `other_name`, who declines from the challenges under the header.
async fn challenge_declined(
    challenger: &Client,
    challenged: &Client,
    base: &str,
    other_name: &str,
) {
    challenger
        .goto(&format!("{base}lobby"))
        .await
        .expect("lobby");
    let input = find(challenger, "#challenge-to").await;
    input.send_keys(other_name).await.expect("name");
    find(challenger, "#challenge-game")
        .await
        .select_by_value("qawale")
        .await
        .expect("game");
    click(challenger, "#challenge-casual").await;
    click(challenger, "#challenge-submit").await;
    wait_until(
        challenger,
        "const e = document.querySelector('#challenges-sent .outgoing'); return e ? e.textContent : null;",
        "the challenge waiting",
    )
    .await;
    let incoming = wait_until(
        challenged,
        "const e = document.querySelector('#challenge-inbox .incoming'); return e ? e.textContent : null;",
        "the challenge arriving",
    )
    .await;
    assert!(
        incoming
            .as_str()
            .unwrap_or_default()
            .contains("challenges you"),
        "{incoming}"
    );
    assert!(
        incoming.as_str().unwrap_or_default().contains("Qawale"),
        "{incoming}"
    );
    screenshot(challenged, "challenge-incoming").await;
    click(challenged, "#challenge-inbox [data-decline-challenge]").await;
    let said = wait_until(
        challenger,
        "const e = document.querySelector('#challenges-sent .declined'); return e ? e.textContent : null;",
        "the challenger told",
    )
    .await;
    assert!(
        said.as_str().unwrap_or_default().contains("declined"),
        "{said}"
    );
    wait_until(
        challenged,
        "return document.querySelector('#challenge-inbox .incoming') === null;",
        "the challenge gone",
    )
    .await;
}

/// Quick pairing: `first` presses a Yoxii pool and waits, cancels, presses it again; `second`
/// presses the same pool and both pages open the same game.
async fn pool_paired(first: &Client, second: &Client, base: &str) {
    let pool = "[data-pool^=\"yoxii-\"]";
    first.goto(&format!("{base}lobby")).await.expect("lobby");
    click(first, pool).await;
    find(first, "#pool-waiting").await;
    click(first, "#pool-cancel").await;
    wait_until(
        first,
        "return document.querySelector('#pool-waiting') === null && document.querySelector('[data-pool]') !== null;",
        "the pool left",
    )
    .await;
    let chosen = eval(
        first,
        &format!("return document.querySelector('{pool}').dataset.pool;"),
    )
    .await;
    click(first, pool).await;
    let waiting = find(first, "#pool-waiting")
        .await
        .text()
        .await
        .expect("text");
    assert!(
        waiting.contains("Waiting") && waiting.contains("Yoxii"),
        "{waiting}"
    );
    second.goto(&format!("{base}lobby")).await.expect("lobby");
    let count = wait_until(
        second,
        &format!("const b = document.querySelector('[data-pool=\"' + {chosen} + '\"]'); return b ? b.getAttribute('aria-label') : null;"),
        "the pool on the other page",
    )
    .await;
    assert!(
        count.as_str().unwrap_or_default().ends_with("1 waiting"),
        "{count}"
    );
    click(second, &format!("[data-pool={chosen}]")).await;
    assert_eq!(
        wait_game_page(second).await,
        wait_game_page(first).await,
        "both land on the same game"
    );
}

/// At a phone's width (390 px) the lobby, the profile, the leaderboard and the game need no
/// sideways scrolling.
async fn fits_a_phone(client: &Client, base: &str, pages: &[(&str, &str)]) {
    client.set_window_size(390, 844).await.expect("phone width");
    for (path, name) in pages {
        client.goto(&format!("{base}{path}")).await.expect("page");
        wait_until(
            client,
            "return document.querySelector('main h1, main svg.board') !== null && !document.querySelector('main .loading');",
            "the page drawn",
        )
        .await;
        let widths = eval(
            client,
            "return [document.documentElement.scrollWidth, window.innerWidth];",
        )
        .await;
        assert!(
            widths[0].as_u64() <= widths[1].as_u64(),
            "{path} scrolls sideways on a phone: {widths}"
        );
        if ["lobby", "profile"].contains(name) {
            screenshot(client, &format!("phone-{name}")).await;
        }
    }
    client
        .set_window_size(1280, 900)
        .await
        .expect("back to wide");
}

/// The whole pairing scenario: `seeker` (signed in as `names[0]`), `taker` (`names[1]`), and
/// `elsewhere`, a third browser signed in as the seeker too, which holds no token of the game.
pub async fn seek_game_rematch_and_challenge(
    seeker: &Client,
    taker: &Client,
    elsewhere: &Client,
    base: &str,
    names: [&str; 2],
) {
    let id = seek_taken(seeker, taker, base, names[0]).await;
    let seats = [my_seat(seeker).await, my_seat(taker).await];
    assert_ne!(seats[0], seats[1]);
    seats_show_accounts(seeker, names).await;
    seats_show_accounts(taker, names).await;
    // REPLICA_GAME is won by seat 1.
    let (by_seat, winner_first) = if seats[0] == 1 {
        ([seeker, taker], names)
    } else {
        ([taker, seeker], [names[1], names[0]])
    };
    let seeker_index = usize::from(seats[0] != 1);
    played_to_the_end(by_seat, seeker_index, elsewhere, base, &id).await;
    ratings_in_the_summary(by_seat, winner_first).await;
    let new_id = rematch_accepted(seeker, taker, &id, seats).await;
    assert_ne!(new_id, id);
    challenge_declined(seeker, taker, base, names[1]).await;
    pool_paired(seeker, taker, base).await;
    profile_and_leaderboard(seeker, base, names[0], names[1]).await;
    let profile = format!("@/{}", names[0]);
    let game = format!("g/{id}");
    let pages = [
        ("lobby", "lobby"),
        (profile.as_str(), "profile"),
        ("leaderboard", "leaderboard"),
        (game.as_str(), "game"),
    ];
    fits_a_phone(seeker, base, &pages).await;
    for client in [seeker, taker, elsewhere] {
        assert_eq!(injected(client).await, Value::from(0));
        assert_no_dialog(client, "the pairing scenario").await;
    }
}
