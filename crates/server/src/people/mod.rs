//! People on the server: accounts, sessions, ratings, pairing.

pub mod ratings;
