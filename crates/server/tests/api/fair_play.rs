//! Between people the server is the referee: neither seat nor a stranger gets a hint (the
//! computer would play for one side); against the computer hints work (`games.rs`).

use reqwest::StatusCode;
use serde_json::json;

use crate::support::{assert_error, Api};
use crate::takeback::between_people;

#[tokio::test]
async fn between_people_no_one_gets_a_hint() {
    let api = Api::start();
    let (id, [first, second]) = between_people(&api, "replica").await;
    let before = api.snapshot(&id).await;
    for token in [&first, &second] {
        let refused = api
            .post(&format!("/api/games/{id}/hint"), &json!({ "token": token }))
            .await;
        assert_error(
            &refused,
            StatusCode::UNPROCESSABLE_ENTITY,
            "hints are off in a game between people",
        );
    }
    let (status, refused) = api
        .post(
            &format!("/api/games/{id}/hint"),
            &json!({ "token": "a-spectator" }),
        )
        .await;
    assert_ne!(status, StatusCode::OK, "{refused}");
    // The refusals change nothing.
    assert_eq!(api.snapshot(&id).await, before);
}
