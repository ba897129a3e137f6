//! `ludus play` in plain line mode: the board printed after each turn, moves typed at a prompt.
//! It serves pipes and scripts as well as people: with computer players on every seat it plays
//! to the end without reading input.

use std::io::{BufRead, Write};
use std::path::Path;

use anyhow::{bail, Context, Result};
use clap::Parser;
use ludus_ai::StopFlag;
use ludus_engine::{AnyGame, PlayerRecord, Seat};

use crate::args::{Cli, Command, PlayArgs};
use crate::board_text::{render_board, Style};
use crate::commands::query::outcome_text;
use crate::players::Player;

const HELP: &str = "\
type a move in the game's notation (a decision or a whole turn), or a command:
  moves          list the legal decisions
  hint           level 4's suggestion and its evaluation
  undo / redo    take back / replay a move (back to your last decision against the computer)
  history        the moves so far
  board          show the board again
  position       the position string
  save [FILE]    save the game (atomically)
  resign         give up
  quit           leave without finishing
  help           this text";

/// Asks for a game on standard input, then plays it.
pub fn run_menu() -> Result<()> {
    print!("Game ({}): ", ludus_games::game_ids());
    std::io::stdout().flush()?;
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
            (Some(path), _) => load_game(path)?,
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
        println!("{}", self.game.info().name);
        self.show_board();
        let stdin = std::io::stdin();
        let mut lines = stdin.lock().lines();
        loop {
            let Some(seat) = self.game.to_move() else {
                println!("result: {}", outcome_text(&self.game));
                return self.save_at_end();
            };
            if let Player::Computer(agent) = &mut self.players[seat.to_usize()] {
                let notation = agent
                    .choose(&self.game, &self.stop)
                    .context("the computer player found no move")?;
                self.game.play(&notation)?;
                self.announce_finished_turn();
                continue;
            }
            print!("{}> ", self.label(seat));
            std::io::stdout().flush()?;
            let Some(line) = lines.next() else {
                println!();
                println!("input ended; the game is not finished");
                return self.save_at_end();
            };
            if !self.command(line?.trim()) {
                return Ok(());
            }
        }
    }

    /// Handles one line typed by a person; false means quit.
    fn command(&mut self, line: &str) -> bool {
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        match word {
            "" => {}
            "help" | "?" => println!("{HELP}"),
            "quit" | "exit" => return false,
            "moves" => self.list_moves(),
            "hint" => self.hint(),
            "board" => self.show_board(),
            "position" => println!("{}", self.game.position()),
            "history" => self.show_history(),
            "undo" => self.undo(),
            "redo" => {
                if !self.game.redo() {
                    println!("nothing to redo");
                }
                self.show_board();
            }
            "save" => self.save(rest.trim()),
            "resign" => {
                if let Some(seat) = self.game.to_move() {
                    self.game.resign(seat);
                    println!("{} resigns", self.label(seat));
                }
            }
            _ => match self.game.play(line) {
                Ok(_) => self.announce_finished_turn(),
                Err(e) => println!("{e} (type 'moves' or 'help')"),
            },
        }
        true
    }

    fn label(&self, seat: Seat) -> String {
        let name = &self.game.players()[seat.to_usize()].name;
        let colour = self.game.seat_name(seat);
        if name == colour {
            name.clone()
        } else {
            format!("{name} ({colour})")
        }
    }

    fn list_moves(&self) {
        let moves: Vec<String> = self
            .game
            .legal_moves()
            .into_iter()
            .map(|m| m.notation)
            .collect();
        println!("{} legal: {}", moves.len(), moves.join(" "));
    }

    /// Asks level 4 (alpha-beta, one second) for a suggestion.
    fn hint(&self) {
        let helper = Player::parse("ai:4:time=1", self.game.info().id, self.args.seed);
        let Ok(Player::Computer(mut agent)) = helper else {
            println!("no hint available");
            return;
        };
        match agent.analyse(&self.game, &self.stop) {
            Some(analysis) => {
                let evaluation = analysis
                    .evaluation
                    .map_or_else(String::new, |e| format!(", evaluation {e}"));
                println!(
                    "hint: {} (depth {}{evaluation}; line {})",
                    analysis.notation,
                    analysis.depth,
                    analysis.pv.join(" ")
                );
            }
            None => println!("no hint: the game is over"),
        }
    }

    fn show_board(&self) {
        print!("{}", render_board(&self.game.view(), self.style));
        if let Some(seat) = self.game.to_move() {
            println!(
                "turn {} — {} to move",
                self.game.turn() + 1,
                self.label(seat)
            );
        }
    }

    fn show_history(&self) {
        for (i, turn) in self.game.history().iter().enumerate() {
            println!("{:>3}. {} {}", i + 1, self.label(turn.seat), turn.text);
        }
    }

    /// Prints the last turn and the board once a turn (or the game) is complete.
    fn announce_finished_turn(&self) {
        let history = self.game.history();
        if let Some(last) = history.last().filter(|t| t.complete) {
            println!(
                "{}. {} plays {}",
                history.len(),
                self.label(last.seat),
                last.text
            );
            self.show_board();
        }
    }

    /// Takes back the last turn (people type whole turns here), then keeps undoing while a
    /// computer is to move, so a person playing a computer gets back to their own last turn.
    fn undo(&mut self) {
        if !self.game.undo() {
            println!("nothing to undo");
            return;
        }
        loop {
            let mid_turn = self.game.history().last().is_some_and(|t| !t.complete);
            let computer = self
                .game
                .to_move()
                .is_some_and(|seat| matches!(self.players[seat.to_usize()], Player::Computer(_)));
            if !(mid_turn || computer) || !self.game.undo() {
                break;
            }
        }
        self.show_board();
    }

    fn save(&self, name: &str) {
        let path = if name.is_empty() {
            let Some(path) = &self.args.save else {
                println!("save needs a file name: save FILE");
                return;
            };
            path.clone()
        } else {
            name.into()
        };
        match ludus_games::save_record_file(&path, &self.game.record()) {
            Ok(()) => println!("saved to {}", path.display()),
            Err(e) => println!("{e}"),
        }
    }

    fn save_at_end(&self) -> Result<()> {
        if let Some(path) = &self.args.save {
            ludus_games::save_record_file(path, &self.game.record())?;
            println!("saved to {}", path.display());
        }
        Ok(())
    }
}

fn load_game(path: &Path) -> Result<AnyGame> {
    let record = ludus_games::load_record_file(path)?;
    ludus_games::load_record(&record).with_context(|| format!("cannot load '{}'", path.display()))
}
