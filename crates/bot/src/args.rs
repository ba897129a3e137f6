//! The command line of `ludus-bot`.

use clap::{Parser, ValueEnum};

/// Connect a UGI engine to a Ludus server as a bot account: it answers challenges, keeps seeks
/// posted and plays its games (docs/UGI.md, "Bots").
#[derive(Debug, Parser)]
#[command(name = "ludus-bot", version)]
pub struct BotArgs {
    /// The server, http://HOST:PORT (a running `ludus serve`).
    #[arg(long, value_name = "URL")]
    pub server: String,
    /// The bot account's API token (POST /api/account/tokens).
    #[arg(long, value_name = "TOKEN")]
    pub token: String,
    /// The engine's command line, "COMMAND ARGS" (split at spaces; a fresh process per game;
    /// `{game}` is replaced by the game's id), e.g. "ludus ugi qawale".
    #[arg(long, value_name = "COMMAND ARGS")]
    pub engine: String,
    /// Which challenges to accept: any, casual, rated or none (the others are declined).
    #[arg(long, value_name = "WHICH", value_enum, default_value_t = AcceptChallenges::Any)]
    pub accept_challenges: AcceptChallenges,
    /// The games the engine plays, comma-separated (default: every game); challenges for
    /// others are declined.
    #[arg(long, value_name = "GAME,...", value_delimiter = ',')]
    pub games: Vec<String>,
    /// A seek to keep posted while the bot has room for a game (repeatable): GAME, or
    /// GAME:INITIAL+INC with the clock's minutes and increment in seconds (qawale:5+3).
    #[arg(long, value_name = "GAME[:INITIAL+INC]")]
    pub seek: Vec<String>,
    /// Games played at once, 1 to 100; challenges beyond are declined.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=100))]
    pub max_games: u64,
    /// Milliseconds per decision (go movetime), 1 to 3600000; without it the engine gets the
    /// game's clocks, or 1000 ms in a game without a clock.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub movetime: Option<u64>,
    /// One JSON object per event on stdout (started, move, over, challenge, seek).
    #[arg(long)]
    pub json: bool,
}

/// Which challenges the bot accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AcceptChallenges {
    /// Casual and rated ones.
    Any,
    /// Casual ones only.
    Casual,
    /// Rated ones only.
    Rated,
    /// None: every challenge is declined.
    None,
}
