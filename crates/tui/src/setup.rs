//! The set-up of a game before it starts: who plays each seat (person or computer and its
//! level), names, and every rules option the game declares in its `GameInfo`.
//!
//! The model is data only; the setup screen edits it with left/right (choices cycle, ranges
//! step, flags toggle) and `start` builds the game through the registry, so an option value the
//! rules refuse is reported here, before play.

use ludus_ai::AgentKind;
use ludus_engine::{AnyGame, GameInfo, OptionValues, Seat, MAX_SEATS};

/// The level a computer seat gets by default.
pub const DEFAULT_LEVEL: u8 = 3;

/// Who plays one seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatChoice {
    /// A computer plays this seat.
    pub computer: bool,
    /// The computer player's spec (`ai:3`), kept while the seat is human.
    pub spec: String,
    /// The player's name; empty means the rules' name of the seat.
    pub name: String,
}

impl SeatChoice {
    fn human() -> SeatChoice {
        SeatChoice {
            computer: false,
            spec: format!("ai:{DEFAULT_LEVEL}"),
            name: String::new(),
        }
    }

    /// `human` or the computer's spec, as the record stores it.
    pub fn kind(&self) -> &str {
        if self.computer {
            &self.spec
        } else {
            "human"
        }
    }

    /// The level 1..=5 of an `ai:N` spec.
    pub fn level(&self) -> Option<u8> {
        level_of(&self.spec)
    }
}

/// The level of a spec written `ai:N`, or by the bare name of a level's agent (`ai:random`,
/// as other tools record it), so that a loaded game reads "L1 (random)" too.
pub fn level_of(spec: &str) -> Option<u8> {
    let rest = spec.strip_prefix("ai:")?;
    let by_name = || (1..=5).find(|&n| AgentKind::from_level(n).is_some_and(|k| k.name() == rest));
    rest.parse()
        .ok()
        .filter(|n| (1..=5).contains(n))
        .or_else(by_name)
}

/// A short description of a computer level.
pub fn level_name(level: u8) -> &'static str {
    match level {
        1 => "random",
        2 => "greedy",
        3 => "minimax",
        4 => "alpha-beta",
        _ => "strongest",
    }
}

/// One editable row of the setup screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    /// Human/Computer combination for all seats at once.
    Mode,
    /// Person or computer (and level) for a seat.
    Player(usize),
    /// A seat's name.
    Name(usize),
    /// A rules option, by index in `GameInfo::options`.
    Option(usize),
    /// Start the game.
    Start,
    /// Show the rules summary.
    Rules,
}

/// The set-up of one game.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The game.
    pub info: &'static GameInfo,
    /// The current value of each option of `info.options`, as text.
    pub values: Vec<String>,
    /// Every possible seat (only the first `seat_count()` play).
    pub seats: Vec<SeatChoice>,
    /// The rules' seat names for the current options; its length is the seat count.
    pub seat_names: Vec<String>,
    /// The selected row.
    pub row: usize,
    /// Why the current options do not make a game, if they do not.
    pub error: Option<String>,
}

impl Setup {
    /// The default set-up: options at their defaults, a person against computers.
    pub fn new(info: &'static GameInfo) -> Setup {
        let defaults = ludus_games::new_game(info.id, &[], None, 0)
            .map(|g| g.options())
            .unwrap_or_default();
        let values = info
            .options
            .iter()
            .map(|o| {
                defaults
                    .iter()
                    .find(|(k, _)| k == o.name)
                    .map_or_else(|| first_value(o.values), |(_, v)| v.clone())
            })
            .collect();
        let mut seats = vec![SeatChoice::human(); MAX_SEATS];
        for seat in seats.iter_mut().skip(1) {
            seat.computer = true;
        }
        let mut setup = Setup {
            info,
            values,
            seats,
            seat_names: Vec::new(),
            row: 0,
            error: None,
        };
        setup.refresh();
        setup
    }

    /// The set-up a game was played with (options, players and names), to play it again.
    pub fn from_game(game: &AnyGame) -> Setup {
        let mut setup = Setup::new(game.info());
        let options = game.options();
        for (value, option) in setup.values.iter_mut().zip(setup.info.options) {
            if let Some((_, v)) = options.iter().find(|(k, _)| k == option.name) {
                value.clone_from(v);
            }
        }
        for (i, player) in game.players().iter().enumerate() {
            let seat_name = game.seat_name(Seat::new(i as u8));
            let choice = &mut setup.seats[i];
            choice.computer = player.kind != "human";
            if choice.computer {
                choice.spec.clone_from(&player.kind);
            }
            choice.name = if player.name == seat_name {
                String::new()
            } else {
                player.name.clone()
            };
        }
        setup.refresh();
        setup
    }

    /// How many seats play with the current options.
    pub fn seat_count(&self) -> usize {
        self.seat_names.len()
    }

    /// The options as `key=value` pairs for the registry.
    pub fn option_pairs(&self) -> Vec<String> {
        self.info
            .options
            .iter()
            .zip(&self.values)
            .map(|(o, v)| format!("{}={v}", o.name))
            .collect()
    }

    /// A new game with these options.
    pub fn build(&self, seed: u64) -> Result<AnyGame, String> {
        ludus_games::new_game(self.info.id, &self.option_pairs(), None, seed)
            .map_err(|e| e.to_string())
    }

    /// Rebuilds the game to learn the seats and check the options. The highlight stays on the
    /// row being edited, even when seats appear or go above it.
    pub fn refresh(&mut self) {
        let editing = self.rows().get(self.row).copied();
        match self.build(0) {
            Ok(game) => {
                self.seat_names = (0..game.seat_count())
                    .map(|i| game.seat_name(Seat::new(i as u8)).to_string())
                    .collect();
                self.error = None;
            }
            Err(e) => self.error = Some(e),
        }
        let rows = self.rows();
        self.row = editing
            .and_then(|row| rows.iter().position(|r| *r == row))
            .unwrap_or(self.row.min(rows.len() - 1));
    }

    /// The rows on screen, top to bottom.
    pub fn rows(&self) -> Vec<Row> {
        let mut rows = vec![Row::Mode];
        for seat in 0..self.seat_count() {
            rows.push(Row::Player(seat));
            rows.push(Row::Name(seat));
        }
        rows.extend((0..self.info.options.len()).map(Row::Option));
        rows.push(Row::Start);
        rows.push(Row::Rules);
        rows
    }

    /// The selected row.
    pub fn current(&self) -> Row {
        self.rows().get(self.row).copied().unwrap_or(Row::Start)
    }

    /// Moves the selection up (negative) or down.
    pub fn move_row(&mut self, delta: isize) {
        let len = self.rows().len();
        self.row = (self.row as isize + delta).rem_euclid(len as isize) as usize;
    }

    /// Changes the value of the selected row: one step left (negative) or right.
    pub fn change(&mut self, delta: i32) {
        match self.current() {
            Row::Mode => self.change_mode(delta),
            Row::Player(seat) => self.change_player(seat, delta),
            Row::Option(index) => {
                let values = self.info.options[index].values;
                self.values[index] = step_value(values, &self.values[index], delta);
                self.refresh();
            }
            Row::Name(_) | Row::Start | Row::Rules => {}
        }
    }

    /// The seats' computer flags as a mode index into [`Setup::modes`].
    fn mode_index(&self) -> Option<usize> {
        let flags: Vec<bool> = self.seats[..self.seat_count()]
            .iter()
            .map(|s| s.computer)
            .collect();
        self.modes().iter().position(|m| *m == flags)
    }

    /// The preset combinations: every mix for two seats, three presets for more.
    fn modes(&self) -> Vec<Vec<bool>> {
        let n = self.seat_count();
        if n == 2 {
            vec![
                vec![false, false],
                vec![false, true],
                vec![true, false],
                vec![true, true],
            ]
        } else {
            let mut one_human = vec![true; n];
            one_human[0] = false;
            vec![vec![false; n], one_human, vec![true; n]]
        }
    }

    fn change_mode(&mut self, delta: i32) {
        let modes = self.modes();
        let next = match self.mode_index() {
            Some(i) => (i as i32 + delta).rem_euclid(modes.len() as i32) as usize,
            None => 0,
        };
        for (seat, computer) in self.seats.iter_mut().zip(&modes[next]) {
            seat.computer = *computer;
        }
    }

    fn change_player(&mut self, seat: usize, delta: i32) {
        // Human, then levels 1..=5, in a cycle.
        let choice = &mut self.seats[seat];
        let now = if choice.computer {
            i32::from(choice.level().unwrap_or(DEFAULT_LEVEL))
        } else {
            0
        };
        let next = (now + delta).rem_euclid(6);
        choice.computer = next > 0;
        if next > 0 {
            choice.spec = format!("ai:{next}");
        }
    }

    /// The mode as shown: `Human / Computer`, or `custom`.
    pub fn mode_label(&self) -> String {
        let n = self.seat_count();
        match self.mode_index() {
            Some(_) if n == 2 => self.seats[..2]
                .iter()
                .map(|s| if s.computer { "Computer" } else { "Human" })
                .collect::<Vec<_>>()
                .join(" / "),
            Some(0) => "everyone human".into(),
            Some(1) => "one human against computers".into(),
            Some(_) => "computers only".into(),
            None => "custom mix".into(),
        }
    }

    /// What plays a seat, as shown: `Human` or `Computer 3 (minimax)`.
    pub fn player_label(&self, seat: usize) -> String {
        let choice = &self.seats[seat];
        if !choice.computer {
            return "Human".into();
        }
        match choice.level() {
            Some(level) => format!("Computer {level} ({})", level_name(level)),
            None => format!("Computer {}", choice.spec),
        }
    }

    /// The name a seat's player goes by.
    pub fn display_name(&self, seat: usize) -> String {
        let name = self.seats[seat].name.trim();
        if name.is_empty() {
            self.seat_names
                .get(seat)
                .cloned()
                .unwrap_or_else(|| format!("Player {}", seat + 1))
        } else {
            name.to_string()
        }
    }

    /// The players of the seats that play.
    pub fn players(&self) -> Vec<SeatChoice> {
        (0..self.seat_count())
            .map(|seat| SeatChoice {
                name: self.display_name(seat),
                ..self.seats[seat].clone()
            })
            .collect()
    }
}

fn first_value(values: OptionValues) -> String {
    match values {
        OptionValues::Choice(words) => words.first().copied().unwrap_or_default().to_string(),
        OptionValues::Range { min, .. } => min.to_string(),
        OptionValues::Flag => "false".into(),
    }
}

/// The value `delta` steps away from `now`: choices cycle, ranges step and stop at their
/// ends, flags toggle. A range of more than 40 steps (a turn limit up to 100 000) moves along
/// round numbers (… 100, 200, 500, 1000, 2000 …), so each press goes one way only.
pub fn step_value(values: OptionValues, now: &str, delta: i32) -> String {
    match values {
        OptionValues::Choice(words) if !words.is_empty() => {
            let i = words.iter().position(|w| *w == now).unwrap_or(0) as i32;
            words[(i + delta).rem_euclid(words.len() as i32) as usize].to_string()
        }
        OptionValues::Choice(_) => now.to_string(),
        OptionValues::Range { min, max, step } => {
            let current = now.parse::<i64>().unwrap_or(min).clamp(min, max);
            let step = step.max(1);
            if (max - min) / step <= 40 {
                return (current + i64::from(delta) * step)
                    .clamp(min, max)
                    .to_string();
            }
            let ladder = round_numbers(min, max, step);
            let next = if delta > 0 {
                ladder
                    .iter()
                    .find(|&&v| v > current)
                    .copied()
                    .unwrap_or(max)
            } else {
                ladder
                    .iter()
                    .rev()
                    .find(|&&v| v < current)
                    .copied()
                    .unwrap_or(min)
            };
            next.to_string()
        }
        OptionValues::Flag => {
            if now == "true" {
                "false".into()
            } else {
                "true".into()
            }
        }
    }
}

/// `min`, `max` and the 1-2-5 round numbers between them that the step allows, ascending.
fn round_numbers(min: i64, max: i64, step: i64) -> Vec<i64> {
    let mut ladder = vec![min, max];
    let mut decade = 1_i64;
    // The bound on `decade` keeps the loop finite even for a range up to i64::MAX.
    while decade <= max && decade <= i64::MAX / 10 {
        for factor in [1, 2, 5] {
            let value = decade * factor;
            if value > min && value < max && (value - min) % step == 0 {
                ladder.push(value);
            }
        }
        decade = decade.saturating_mul(10);
    }
    ladder.sort_unstable();
    ladder.dedup();
    ladder
}

/// Reads a typed value for a range option; the reason when it does not fit.
pub fn typed_value(values: OptionValues, text: &str) -> Result<String, String> {
    let OptionValues::Range { min, max, step } = values else {
        return Err("this option is chosen with ←→".into());
    };
    let value: i64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a whole number"))?;
    if value < min || value > max || (value - min) % step.max(1) != 0 {
        let every = if step > 1 {
            format!(" in steps of {step}")
        } else {
            String::new()
        };
        return Err(format!("expected {min} to {max}{every}"));
    }
    Ok(value.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_step_cycle_toggle_and_parse() {
        let sizes = OptionValues::Range {
            min: 9,
            max: 25,
            step: 2,
        };
        assert_eq!(step_value(sizes, "9", 1), "11");
        assert_eq!(step_value(sizes, "9", -1), "9");
        let turns = OptionValues::Range {
            min: 0,
            max: 100_000,
            step: 1,
        };
        // Round numbers, each press one way: 1000 → 2000 → 5000, and back 1000 → 500.
        assert_eq!(step_value(turns, "1000", 1), "2000");
        assert_eq!(step_value(turns, "2000", 1), "5000");
        assert_eq!(step_value(turns, "1000", -1), "500");
        assert_eq!(step_value(turns, "0", -1), "0");
        assert_eq!(step_value(turns, "100000", 1), "100000");
        assert_eq!(step_value(turns, "1234", 1), "2000");
        assert_eq!(step_value(OptionValues::Choice(&["a", "b"]), "b", 1), "a");
        assert_eq!(step_value(OptionValues::Flag, "false", 1), "true");
        assert_eq!(typed_value(sizes, "13"), Ok("13".into()));
        assert!(typed_value(sizes, "12").unwrap_err().contains("steps of 2"));
        assert!(typed_value(turns, "many").is_err());
    }
}
