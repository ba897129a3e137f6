//! The model: one [`App`] holds everything on screen. `update` changes it, `view` draws it.

use std::path::PathBuf;

use ludus_ai::{AnyAnalysis, StopFlag};
use ludus_engine::{AnyGame, CellId, PlayerRecord, Seat};

use super::setup::{SeatChoice, Setup};
use super::worker::SharedAgent;
use crate::players::Player;
use ludus_engine::printable::printable;

/// The screen showing, with the state only that screen has: a set-up exists only on the
/// setup screen, a game only on the game screens (and under a rules page opened from one),
/// a replay only while it is watched. States such as "playing without a game" or "a replay
/// of nothing" cannot be written.
#[derive(Debug)]
pub enum Screen {
    /// The start screen: the games, load, theme, quit.
    Menu {
        /// The highlighted row.
        index: usize,
    },
    /// Players and options of the chosen game.
    Setup(Setup),
    /// A game: in progress, over, or stepped through.
    Game {
        /// The game and everything the game screen shows.
        play: Box<Play>,
        /// Which of the game's screens.
        phase: Phase,
    },
    /// Rules and keys of a game, over the screen it was opened from.
    Help {
        /// The page.
        help: Help,
        /// The screen Esc goes back to (with its game, which goes on meanwhile).
        back: Box<Screen>,
    },
}

/// The game screens.
#[derive(Debug)]
pub enum Phase {
    /// A game in progress.
    Playing,
    /// The summary of a finished game.
    Over,
    /// Stepping through a finished game.
    Replay(Replay),
}

/// Which screen is showing, without its state: for comparisons and dispatch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScreenKind {
    /// [`Screen::Menu`].
    Menu,
    /// [`Screen::Setup`].
    Setup,
    /// [`Phase::Playing`].
    Playing,
    /// [`Phase::Over`].
    GameOver,
    /// [`Phase::Replay`].
    Replay,
    /// [`Screen::Help`].
    Help,
}

impl Screen {
    /// Which screen this is.
    pub fn kind(&self) -> ScreenKind {
        match self {
            Screen::Menu { .. } => ScreenKind::Menu,
            Screen::Setup(_) => ScreenKind::Setup,
            Screen::Game { phase, .. } => match phase {
                Phase::Playing => ScreenKind::Playing,
                Phase::Over => ScreenKind::GameOver,
                Phase::Replay(_) => ScreenKind::Replay,
            },
            Screen::Help { .. } => ScreenKind::Help,
        }
    }

    /// The game, on a game screen or under a rules page opened from one.
    pub fn play(&self) -> Option<&Play> {
        match self {
            Screen::Game { play, .. } => Some(play),
            Screen::Help { back, .. } => back.play(),
            _ => None,
        }
    }

    /// The game, to change it.
    pub fn play_mut(&mut self) -> Option<&mut Play> {
        match self {
            Screen::Game { play, .. } => Some(play),
            Screen::Help { back, .. } => back.play_mut(),
            _ => None,
        }
    }

    /// The set-up, on the setup screen.
    pub fn setup(&self) -> Option<&Setup> {
        match self {
            Screen::Setup(setup) => Some(setup),
            _ => None,
        }
    }

    /// The set-up, to change it.
    pub fn setup_mut(&mut self) -> Option<&mut Setup> {
        match self {
            Screen::Setup(setup) => Some(setup),
            _ => None,
        }
    }

    /// The replay being watched.
    pub fn replay(&self) -> Option<&Replay> {
        match self {
            Screen::Game {
                phase: Phase::Replay(replay),
                ..
            } => Some(replay),
            _ => None,
        }
    }

    /// The game's screen phase, to switch between playing, over and replay.
    pub fn phase_mut(&mut self) -> Option<&mut Phase> {
        match self {
            Screen::Game { phase, .. } => Some(phase),
            _ => None,
        }
    }

    /// Takes the screen out, leaving the start screen in its place.
    pub fn take(&mut self) -> Screen {
        std::mem::replace(self, Screen::Menu { index: 0 })
    }
}

impl PartialEq<ScreenKind> for Screen {
    fn eq(&self, kind: &ScreenKind) -> bool {
        self.kind() == *kind
    }
}

/// What a text prompt is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromptKind {
    /// A file name to save the game to.
    Save,
    /// A file name to load a game from.
    Load,
    /// A move in notation.
    Move,
    /// A seat's name on the setup screen.
    Name(usize),
    /// The value of a range option on the setup screen, by index.
    Value(usize),
}

/// A one-line text input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prompt {
    /// What the text is for.
    pub kind: PromptKind,
    /// The text typed so far.
    pub text: String,
    /// Ready answers Tab steps through (the load prompt: saved games in this directory).
    pub choices: Vec<String>,
}

/// What a yes/no question confirms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Confirm {
    /// A seat gives up.
    Resign(Seat),
    /// Leave the game for the start screen.
    Menu,
    /// The person's team is out: leave, or keep watching the others.
    LeaveOrWatch,
    /// Leave the app.
    Quit,
}

/// A small list to choose among decisions that share the same cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chooser {
    /// Each entry's label and notation.
    pub entries: Vec<(String, String)>,
    /// The highlighted entry.
    pub index: usize,
    /// Whether a longer decision also continues from these cells ("select more").
    pub more: bool,
}

/// A player at the table.
#[derive(Clone)]
pub struct Seated {
    /// The name shown.
    pub name: String,
    /// `human` or the computer's spec.
    pub kind: String,
    /// The computer player, for a computer seat.
    pub agent: Option<SharedAgent>,
}

impl std::fmt::Debug for Seated {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.name, self.kind)
    }
}

/// A search in flight.
#[derive(Clone, Debug)]
pub struct Thinking {
    /// Its job id.
    pub job: u64,
    /// Raised to stop it.
    pub stop: StopFlag,
}

/// What a search said about a position, for the evaluation bar.
#[derive(Clone, Debug, PartialEq)]
pub struct Insight {
    /// The seat the evaluation is for (the seat that was to move).
    pub seat: Seat,
    /// The search's findings.
    pub analysis: AnyAnalysis,
    /// Who searched (`ai:4`).
    pub by: String,
    /// Still searching: the best found so far.
    pub live: bool,
}

/// A message line in the side panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// The text.
    pub text: String,
    /// Shown as an error.
    pub error: bool,
    /// About this position only (a hint and its search): dropped once the position changes,
    /// so that a played hint does not stay in the log.
    pub passing: bool,
}

/// The computer-move delays the speed setting steps through, in ticks.
pub const SPEEDS: [(u32, &str); 5] = [
    (0, "instant"),
    (2, "fast"),
    (5, "normal"),
    (10, "slow"),
    (20, "very slow"),
];

/// How often a tick comes, in milliseconds.
pub const TICK_MS: u64 = 100;

/// A game in progress, with everything the game screen shows.
#[derive(Debug)]
pub struct Play {
    /// The game and its history.
    pub game: AnyGame,
    /// The players, one per seat.
    pub seats: Vec<Seated>,
    /// How it was set up (to play again).
    pub setup: Setup,
    /// The cell under the cursor.
    pub cursor: CellId,
    /// Cells chosen so far for the next decision.
    pub selection: Vec<CellId>,
    /// The chooser, when several decisions share the selected cells.
    pub chooser: Option<Chooser>,
    /// The hinted decision and its cells.
    pub hint: Option<(String, Vec<CellId>)>,
    /// The computer player that gives hints, once asked for, and its spec.
    pub hint_agent: Option<(SharedAgent, &'static str)>,
    /// The hint job in flight.
    pub hint_job: Option<Thinking>,
    /// The computer search in flight.
    pub thinking: Option<Thinking>,
    /// Ticks left before the next computer decision starts.
    pub wait: u32,
    /// The latest evaluation of a computer search (its own move or a hint).
    pub insight: Option<Insight>,
    /// Each computer move's evaluation by the entry count its move led to, so that a replay
    /// shows each position's own evaluation rather than the final one.
    pub evaluations: Vec<(usize, Insight)>,
    /// Computer players wait for a step (`n`) or resume (`p`).
    pub paused: bool,
    /// Index into [`SPEEDS`].
    pub speed: usize,
    /// Messages, oldest first.
    pub notes: Vec<Note>,
    /// Where the game was last saved, or is to be saved by default.
    pub save_path: Option<PathBuf>,
    /// The number of entries when last saved.
    pub saved_entries: Option<usize>,
    /// The seats already out of the game (Splut!'s knocked-out teams), to announce new ones.
    pub out: Vec<Seat>,
}

impl Play {
    /// Seats `players` at `game` and builds their computer players.
    pub fn new(
        mut game: AnyGame,
        players: &[SeatChoice],
        setup: Setup,
        seed: u64,
    ) -> Result<Play, String> {
        let mut seats = Vec::new();
        for (i, choice) in players.iter().enumerate().take(game.seat_count()) {
            let agent = if choice.computer {
                match Player::parse(&choice.spec, game.info().id, seed.wrapping_add(i as u64)) {
                    Ok(Player::Computer(agent)) => Some(SharedAgent::new(agent)),
                    Ok(Player::Human) => None,
                    Err(e) => return Err(format!("{e:#}")),
                }
            } else {
                None
            };
            let name = choice.name.trim();
            let name = if name.is_empty() {
                game.seat_name(Seat::new(i as u8)).to_string()
            } else {
                printable(name)
            };
            seats.push(Seated {
                name,
                kind: choice.kind().to_string(),
                agent,
            });
        }
        if seats.len() < game.seat_count() {
            return Err(format!(
                "{} needs {} players",
                game.info().name,
                game.seat_count()
            ));
        }
        game.set_players(
            seats
                .iter()
                .map(|s| PlayerRecord {
                    name: s.name.clone(),
                    kind: s.kind.clone(),
                })
                .collect(),
        );
        Ok(Play {
            game,
            seats,
            setup,
            cursor: CellId(0),
            selection: Vec::new(),
            chooser: None,
            hint: None,
            hint_agent: None,
            hint_job: None,
            thinking: None,
            wait: 0,
            insight: None,
            evaluations: Vec::new(),
            paused: false,
            speed: 2,
            notes: Vec::new(),
            save_path: None,
            saved_entries: None,
            out: Vec::new(),
        })
    }

    /// Whether a computer plays `seat`.
    pub fn is_computer(&self, seat: Seat) -> bool {
        self.seats
            .get(seat.to_usize())
            .is_some_and(|s| s.agent.is_some())
    }

    /// Whether any seat is a person.
    pub fn has_human(&self) -> bool {
        self.seats.iter().any(|s| s.agent.is_none())
    }

    /// The seat to move when a person decides now.
    pub fn human_to_move(&self) -> Option<Seat> {
        self.game.to_move().filter(|s| !self.is_computer(*s))
    }

    /// "Ann (Dark)" or "Dark".
    pub fn label(&self, seat: Seat) -> String {
        let colour = self.game.seat_name(seat);
        match self.seats.get(seat.to_usize()) {
            Some(s) if s.name != colour => format!("{} ({colour})", s.name),
            _ => colour.to_string(),
        }
    }

    /// Adds a message line.
    pub fn note(&mut self, text: impl Into<String>) {
        self.push_note(&text.into(), false, false);
    }

    /// Adds an error line.
    pub fn warn(&mut self, text: impl Into<String>) {
        self.push_note(&text.into(), true, false);
    }

    /// Adds a line about this position only, gone after the next change.
    pub fn note_passing(&mut self, text: impl Into<String>) {
        self.push_note(&text.into(), false, true);
    }

    fn push_note(&mut self, text: &str, error: bool, passing: bool) {
        // Notes quote typed moves and file contents: shown escaped and cut, like everywhere.
        let text = printable(text);
        self.notes.push(Note {
            text,
            error,
            passing,
        });
        if self.notes.len() > 100 {
            self.notes.remove(0);
        }
    }

    /// Whether moves were played since the last save.
    pub fn unsaved(&self) -> bool {
        self.game.entry_count() > 0 && self.saved_entries != Some(self.game.entry_count())
    }
}

/// Stepping through a finished game: a copy of it moved back and forth with undo and redo.
#[derive(Debug)]
pub struct Replay {
    /// The copy shown.
    pub game: AnyGame,
    /// How many entries the whole game has.
    pub total: usize,
}

impl Replay {
    /// A replay of `game`, shown from the start.
    pub fn new(game: &AnyGame) -> Replay {
        let mut copy = game.clone();
        let total = copy.entry_count();
        while copy.undo() {}
        Replay { game: copy, total }
    }
}

/// A rules page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Help {
    /// The game's id, or `None` for the key list only.
    pub game: Option<&'static str>,
    /// Lines scrolled off the top.
    pub scroll: u16,
}

/// The whole app.
#[derive(Debug)]
pub struct App {
    /// The screen showing, with its own state.
    pub screen: Screen,
    /// The terminal's size (columns, rows).
    pub size: (u16, u16),
    /// Index into `theme::THEMES`.
    pub theme: usize,
    /// The terminal shows 24-bit colour; else RGB colours are drawn from the 256-colour palette.
    pub true_colour: bool,
    /// A text input, drawn over the current screen.
    pub prompt: Option<Prompt>,
    /// A yes/no question, drawn over the current screen.
    pub confirm: Option<Confirm>,
    /// A message on the start or setup screen.
    pub notice: Option<Note>,
    /// Seeds games and computer players.
    pub seed: u64,
    /// Games started so far (each gets its own seed).
    pub games: u64,
    /// The last job id handed out.
    pub jobs: u64,
    /// Ticks so far (spinner).
    pub ticks: u64,
    /// Set when the app should close.
    pub quit: bool,
}

impl App {
    /// The start screen, for a terminal of `size`.
    pub fn new(size: (u16, u16), theme: usize, seed: u64) -> App {
        App {
            screen: Screen::Menu { index: 0 },
            size,
            theme,
            true_colour: true,
            prompt: None,
            confirm: None,
            notice: None,
            seed,
            games: 0,
            jobs: 0,
            ticks: 0,
            quit: false,
        }
    }

    /// The game, on a game screen or under a rules page opened from one.
    pub fn play(&self) -> Option<&Play> {
        self.screen.play()
    }

    /// The game, to change it (tests; the app borrows `screen` alone, beside other fields).
    #[cfg(test)]
    pub fn play_mut(&mut self) -> Option<&mut Play> {
        self.screen.play_mut()
    }

    /// The set-up, on the setup screen (tests).
    #[cfg(test)]
    pub fn setup(&self) -> Option<&Setup> {
        self.screen.setup()
    }

    /// A fresh job id.
    pub fn next_job(&mut self) -> u64 {
        self.jobs += 1;
        self.jobs
    }

    /// A fresh seed for a new game.
    pub fn next_seed(&mut self) -> u64 {
        self.games += 1;
        self.seed
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(self.games)
    }

    /// Shows a message on the start or setup screen.
    pub fn notify(&mut self, text: impl Into<String>, error: bool) {
        self.notice = Some(Note {
            text: printable(&text.into()),
            error,
            passing: false,
        });
    }
}
