//! `ludus play` in plain line mode: the board printed after each turn, moves typed at a prompt.
//! It serves pipes and scripts as well as people: with computer players on every seat it plays
//! to the end without reading input.

use std::io::BufRead;

use anyhow::{bail, Context, Result};
use clap::Parser;
use ludus_ai::StopFlag;
use ludus_engine::{AnyGame, PlayerRecord, Seat};

use crate::args::{Cli, Command, PlayArgs};
use crate::commands::query::outcome_text;
use crate::output::{self, out, outln, StdoutError};
use crate::setup::load_for_play;
use ludus_engine::printable::printable;
use ludus_tui::board_text::{render_board, Style};
use ludus_tui::players::Player;

const HELP: &str = "\
type a move in the game's notation (a decision or a whole turn), or a command:
  moves          list the legal decisions
  hint           level 4's suggestion and its evaluation
  undo / redo    take back / replay a turn (against a computer: back to your own turn)
  history        the moves so far
  board          show the board again
  position       the position string
  save [FILE]    save the game (atomically)
  resign         give up
  quit           leave without finishing
  help           this text";

/// Asks for a game on standard input, then plays it. `theme` (`ludus --theme`) is only
/// checked: the line mode has no colours.
pub fn run_menu(theme: Option<&str>) -> Result<()> {
    if let Some(name) = theme {
        ludus_tui::parse_theme(name)?;
    }
    out!("Game ({}): ", ludus_games::game_ids())?;
    output::flush()?;
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line)?;
    let game = line.trim();
    if game.is_empty() {
        bail!("no game chosen");
    }
    let cli = Cli::try_parse_from(["ludus", "play", game])?;
    match cli.command {
        Some(Command::Play(args)) => run(&args),
        _ => bail!("no game chosen"),
    }
}

/// Plays a game in line mode.
pub fn run(args: &PlayArgs) -> Result<()> {
    // The line mode has no colours to choose, but a misspelt theme is still a mistake.
    if let Some(name) = &args.theme {
        ludus_tui::parse_theme(name)?;
    }
    let mut table = Table::new(args)?;
    table.play()
}

struct Table<'a> {
    args: &'a PlayArgs,
    game: AnyGame,
    players: Vec<Player>,
    style: Style,
    stop: StopFlag,
}

impl<'a> Table<'a> {
    fn new(args: &'a PlayArgs) -> Result<Self> {
        let game = match (&args.load, &args.game) {
            (Some(path), _) => load_for_play(args, path)?,
            (None, Some(id)) => {
                ludus_games::new_game(id, &args.options, args.position.as_deref(), args.seed)?
            }
            (None, None) => {
                bail!("no game given: expected one of {}", ludus_games::game_ids())
            }
        };
        let specs = [&args.p1, &args.p2, &args.p3, &args.p4];
        let players = (0..game.seat_count())
            .map(|i| Player::parse(specs[i], game.info().id, args.seed.wrapping_add(i as u64)))
            .collect::<Result<Vec<_>>>()?;
        let mut table = Table {
            args,
            game,
            players,
            style: Style::detect(),
            stop: StopFlag::default(),
        };
        table.name_players();
        Ok(table)
    }

    fn name_players(&mut self) {
        let loaded = self.game.players().to_vec();
        let records = self
            .players
            .iter()
            .enumerate()
            .map(|(i, player)| PlayerRecord {
                name: self.args.names.get(i).cloned().unwrap_or_else(|| {
                    let seat = Seat::new(i as u8);
                    loaded
                        .get(i)
                        .filter(|p| p.name != self.game.seat_name(seat) || self.args.load.is_some())
                        .map_or_else(|| self.game.seat_name(seat).to_string(), |p| p.name.clone())
                }),
                kind: player.kind(),
            })
            .collect();
        self.game.set_players(records);
    }

    fn play(&mut self) -> Result<()> {
        outln!("{}", self.game.info().name)?;
        self.show_board()?;
        let mut input = std::io::stdin().lock();
        let mut bytes = Vec::new();
        loop {
            let Some(seat) = self.game.to_move() else {
                outln!("result: {}", outcome_text(&self.game))?;
                return self.save_at_end();
            };
            if let Player::Computer(agent) = &mut self.players[seat.to_usize()] {
                let notation = agent
                    .choose(&self.game, &self.stop)
                    .context("the computer player found no move")?;
                self.game.play(&notation)?;
                if self.game.history().last().is_some_and(|t| t.complete) {
                    self.announce()?;
                }
                continue;
            }
            out!("{}> ", self.label(seat))?;
            output::flush()?;
            bytes.clear();
            match input.read_until(b'\n', &mut bytes) {
                Ok(0) => {
                    outln!()?;
                    outln!("input ended; the game is not finished")?;
                    return self.save_at_end();
                }
                Ok(_) => {}
                Err(error) => {
                    // Keep what was played before reporting the broken input.
                    self.save_at_end()?;
                    return Err(error).context("cannot read standard input");
                }
            }
            // One bad line is refused; the game goes on.
            let Ok(line) = std::str::from_utf8(&bytes) else {
                outln!(
                    "that line is not UTF-8 text: type a move in the game's notation, or 'help'"
                )?;
                continue;
            };
            if !self.command(line.trim())? {
                // Ends the prompt's line, so the output ends with a newline.
                outln!()?;
                outln!("left the game unfinished")?;
                return Ok(());
            }
        }
    }

    /// Handles one line typed by a person; false means quit.
    fn command(&mut self, line: &str) -> Result<bool, StdoutError> {
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        match word {
            "" => {}
            "help" | "?" => outln!("{HELP}")?,
            "quit" | "exit" => return Ok(false),
            "moves" => self.list_moves()?,
            "hint" => self.hint()?,
            "board" => self.show_board()?,
            "position" => outln!("{}", self.game.position())?,
            "history" => self.show_history()?,
            "undo" => self.undo()?,
            "redo" => self.redo()?,
            "save" => self.save(rest.trim())?,
            "resign" => {
                if let Some(seat) = self.game.to_move() {
                    self.game.resign(seat);
                    outln!("{} resigns", self.label(seat))?;
                }
            }
            _ => match self.game.play(line) {
                Ok(_) => self.announce()?,
                Err(e) => outln!("{} (type 'moves' or 'help')", printable(&e.to_string()))?,
            },
        }
        Ok(true)
    }

    fn label(&self, seat: Seat) -> String {
        let name = printable(&self.game.players()[seat.to_usize()].name);
        let colour = self.game.seat_name(seat);
        if name == colour {
            name
        } else {
            format!("{name} ({colour})")
        }
    }

    fn list_moves(&self) -> Result<(), StdoutError> {
        let moves: Vec<String> = self
            .game
            .legal_moves()
            .into_iter()
            .map(|m| m.notation)
            .collect();
        outln!("{} legal: {}", moves.len(), moves.join(" "))
    }

    /// Asks level 4 (alpha-beta, one second) for a suggestion.
    fn hint(&self) -> Result<(), StdoutError> {
        let helper = Player::parse("ai:4:time=1", self.game.info().id, self.args.seed);
        let Ok(Player::Computer(mut agent)) = helper else {
            outln!("no hint available")?;
            return Ok(());
        };
        match agent.analyse(&self.game, &self.stop) {
            Some(analysis) => {
                let evaluation = analysis
                    .evaluation
                    .map_or_else(String::new, |e| format!(", evaluation {e}"));
                outln!(
                    "hint: {} (depth {}{evaluation}; line {})",
                    analysis.notation,
                    analysis.depth,
                    analysis.pv.join(" ")
                )?;
            }
            None => outln!("no hint: the game is over")?,
        }
        Ok(())
    }

    fn show_board(&self) -> Result<(), StdoutError> {
        out!("{}", render_board(&self.game.view(), self.style))?;
        if let Some(seat) = self.game.to_move() {
            outln!(
                "turn {} — {} to move",
                self.game.turn() + 1,
                self.label(seat)
            )?;
        }
        Ok(())
    }

    fn show_history(&self) -> Result<(), StdoutError> {
        for (i, turn) in self.game.history().iter().enumerate() {
            outln!("{:>3}. {} {}", i + 1, self.label(turn.seat), turn.text)?;
        }
        Ok(())
    }

    /// Prints the last turn and the board once a turn (or the game) is complete; after a
    /// decision that leaves the turn unfinished (Qawale's `a1`), what was played and what may
    /// follow.
    fn announce(&self) -> Result<(), StdoutError> {
        let history = self.game.history();
        let Some(last) = history.last() else {
            return Ok(());
        };
        if last.complete {
            outln!(
                "{}. {} plays {}",
                history.len(),
                self.label(last.seat),
                last.text
            )?;
            return self.show_board();
        }
        let next: Vec<String> = self
            .game
            .legal_moves()
            .into_iter()
            .map(|m| m.notation)
            .collect();
        outln!("{} so far; the turn goes on: {}", last.text, next.join(" "))
    }

    /// Takes back the last turn (people type whole turns here), then keeps undoing while a
    /// computer is to move, so a person playing a computer gets back to their own last turn.
    fn undo(&mut self) -> Result<(), StdoutError> {
        if !self.game.undo() {
            return outln!("nothing to undo");
        }
        while !self.between_turns_of_a_person() && self.game.undo() {}
        self.show_board()
    }

    /// The exact inverse of [`Table::undo`]: replays decisions until a person is to start a
    /// turn again.
    fn redo(&mut self) -> Result<(), StdoutError> {
        if !self.game.redo() {
            return outln!("nothing to redo");
        }
        while !self.between_turns_of_a_person() && self.game.redo() {}
        self.show_board()
    }

    /// Whether the game stands at the start of a person's turn (or is over): where undo and
    /// redo stop.
    fn between_turns_of_a_person(&self) -> bool {
        let mid_turn = self.game.history().last().is_some_and(|t| !t.complete);
        let computer = self
            .game
            .to_move()
            .is_some_and(|seat| matches!(self.players[seat.to_usize()], Player::Computer(_)));
        !(mid_turn || computer)
    }

    fn save(&self, name: &str) -> Result<(), StdoutError> {
        let path = if name.is_empty() {
            let Some(path) = &self.args.save else {
                outln!("save needs a file name: save FILE")?;
                return Ok(());
            };
            path.clone()
        } else {
            name.into()
        };
        match ludus_games::save_record_file(&path, &self.game.record()) {
            Ok(()) => outln!("saved to {}", printable(&path.display().to_string()))?,
            Err(e) => outln!("{}", printable(&e.to_string()))?,
        }
        Ok(())
    }

    fn save_at_end(&self) -> Result<()> {
        if let Some(path) = &self.args.save {
            ludus_games::save_record_file(path, &self.game.record())?;
            outln!("saved to {}", path.display())?;
        }
        Ok(())
    }
}
