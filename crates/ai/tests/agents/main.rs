//! Agent and arena tests on small games: two-step Nim (from the engine), m,n,k games and a
//! 3–4 seat Nim (in `games`).

mod arena;
mod games;
mod search;
mod shuffling;
mod support;

use games::{Mnk, MnkOptions, PartyNim, PartyNimOptions};
use ludus_engine::testkit::random_simulation;

/// The test games themselves keep the engine's contract.
#[test]
fn test_games_keep_the_contract() {
    random_simulation::<Mnk>(&MnkOptions::default(), 200, 1);
    random_simulation::<Mnk>(&MnkOptions { size: 6, k: 4 }, 30, 2);
    random_simulation::<PartyNim>(&PartyNimOptions::default(), 100, 3);
    random_simulation::<PartyNim>(
        &PartyNimOptions {
            pile: 30,
            players: 4,
        },
        100,
        4,
    );
}
