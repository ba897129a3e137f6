//! The lab tools, which tune and feed the computer players rather than play: `datagen` and
//! `tune` (self-play data and the evaluation weights fitted to it), `spsa` (weights tuned for
//! strength) and `book` (openings files for `ludus arena --openings`). Their arguments live
//! together in `args/lab.rs`.
//!
//! A module folder of the `ludus` binary rather than a crate of their own: they bring no
//! third-party crate (their work is `ludus_ai::tuning` and `ludus_ai::arena`, in a crate the
//! player's binary depends on anyway), so a binary of their own would not take a dependency
//! out of the player's.

pub mod book;
pub mod spsa;
pub mod tuning;
