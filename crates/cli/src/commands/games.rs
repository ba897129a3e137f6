//! `ludus games`: every game with its seats and rules options (values and defaults).

use anyhow::Result;
use ludus_engine::OptionValues;
use ludus_games::GAMES;

use crate::output::outln;

/// Prints the registry: one block per game.
pub fn run() -> Result<()> {
    for info in GAMES {
        let defaults = ludus_games::new_game(info.id, &[], None, 0)?.options();
        let seats = if info.min_seats == info.max_seats {
            info.min_seats.to_string()
        } else {
            format!("{}-{}", info.min_seats, info.max_seats)
        };
        outln!("{} — {} ({seats} players)", info.id, info.name)?;
        outln!("  {}", info.description)?;
        for option in info.options {
            let default = defaults
                .iter()
                .find(|(name, _)| name == option.name)
                .map_or("?", |(_, value)| match value.as_str() {
                    "true" => "on",
                    "false" => "off",
                    other => other,
                });
            let values = match option.values {
                OptionValues::Choice(words) => words.join("|"),
                OptionValues::Range { min, max, step } if step > 1 => {
                    format!("{min}..{max} step {step}")
                }
                OptionValues::Range { min, max, .. } => format!("{min}..{max}"),
                OptionValues::Flag => "on|off".to_string(),
            };
            outln!(
                "  -o {}=<{values}>  (default {default}): {}",
                option.name,
                option.help
            )?;
        }
        outln!()?;
    }
    Ok(())
}
