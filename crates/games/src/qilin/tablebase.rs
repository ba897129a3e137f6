//! Movement-stage endings for tablebases (`ludus tablebase`): every position at the start of a
//! turn with a few pieces a side, numbered per material, with the turns between them.
//!
//! **Scope.** The default movement rules: a side loses at 0 pieces (`min_pieces = 1`) and any
//! opposing piece may be removed (`protect_lines` off). The draw rules are left out of the
//! values (they depend on the history): [`Qilin::endgame_probe`] says for how many turns the
//! stored distances hold under them.
//!
//! **Numbering.** The stage-2 rules treat Red and Black alike (Black moving first only
//! matters at the transition), so a table holds positions by the side to move's pieces and
//! the other side's, whatever their colours. The index of a position is the colex rank of
//! the mover's points among the 24, times the number of ways to place the other side, plus
//! the rank of the other side's points among the 24 − m points left free. No symmetry of the
//! board is used: the 16 symmetries (the square's 8, times the swap of the inner and outer
//! squares) would make the tables about 16 times smaller, at the price of a more complex
//! index.

use ludus_engine::{EndgameProbe, Endgames, Exit, Material, Successors};

use super::rules::QilinOptions;
use super::state::{Qilin, Stage, RING};
use super::tables::{lines_through, Point, Points, ADJACENT, ALL_POINTS, POINT_COUNT};

/// The most pieces a side the numbering takes (a 5-a-side table has 494 million positions).
pub const MAX_PIECES: u8 = 5;

/// `BINOMIAL[n][k]` = n choose k, for n ≤ 24 and k ≤ 5.
const BINOMIAL: [[u64; 6]; POINT_COUNT + 1] = {
    let mut table = [[0; 6]; POINT_COUNT + 1];
    let mut n = 0;
    while n <= POINT_COUNT {
        table[n][0] = 1;
        let mut k = 1;
        while k < 6 {
            table[n][k] = if n == 0 {
                0
            } else {
                table[n - 1][k - 1] + table[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    table
};

/// The colex rank of a set of points among all sets of its size.
fn rank(set: u32) -> u64 {
    Points(set)
        .enumerate()
        .map(|(i, point)| BINOMIAL[point.to_usize()][i + 1])
        .sum()
}

/// The set of `size` points of colex rank `rank`.
fn unrank(mut rank: u64, size: usize) -> u32 {
    let mut set = 0;
    for k in (1..=size).rev() {
        let mut point = POINT_COUNT - 1;
        while BINOMIAL[point][k] > rank {
            point -= 1;
        }
        rank -= BINOMIAL[point][k];
        set |= 1 << point;
    }
    set
}

/// `other`'s points renumbered among the points outside `mover` (squeezing `mover` out).
fn squeeze(other: u32, mover: u32) -> u32 {
    Points(other).fold(0, |acc, point| {
        let below = mover & (point.bit() - 1);
        acc | 1 << (point.to_usize() - below.count_ones() as usize)
    })
}

/// The inverse of [`squeeze`]: points numbered among those outside `mover`, put back.
fn unsqueeze(squeezed: u32, mover: u32) -> u32 {
    let free = ALL_POINTS & !mover;
    Points(squeezed).fold(0, |acc, point| {
        let mut rest = free;
        for _ in 0..point.to_usize() {
            rest &= rest - 1;
        }
        acc | (rest & rest.wrapping_neg())
    })
}

/// The index of the position with `mover`'s and `other`'s pieces in their material's table.
pub(super) fn index_of(mover: u32, other: u32) -> u64 {
    let free = POINT_COUNT - mover.count_ones() as usize;
    rank(mover) * BINOMIAL[free][other.count_ones() as usize] + rank(squeeze(other, mover))
}

/// The pieces (mover, other) of position `index` of `material`.
pub(super) fn position_at(material: Material, index: u64) -> (u32, u32) {
    let free = POINT_COUNT - usize::from(material.mover);
    let others = BINOMIAL[free][usize::from(material.other)];
    let mover = unrank(index / others, usize::from(material.mover));
    let other = unsqueeze(unrank(index % others, usize::from(material.other)), mover);
    (mover, other)
}

/// The movement-stage endings of Qilin under the default movement rules.
#[derive(Debug)]
pub(super) struct QilinEndgames;

/// The one instance the registry hands out.
pub(super) static ENDGAMES: QilinEndgames = QilinEndgames;

impl Endgames for QilinEndgames {
    /// Every material up to `pieces` a side (at most [`MAX_PIECES`]), by total pieces: a
    /// removal lowers the total.
    fn materials(&self, pieces: u8) -> Vec<Material> {
        let most = pieces.min(MAX_PIECES);
        let mut materials: Vec<Material> = (1..=most)
            .flat_map(|mover| (1..=most).map(move |other| Material { mover, other }))
            .collect();
        materials.sort_by_key(|m| (m.mover + m.other, m.mover.max(m.other), m.mover));
        materials
    }

    fn size(&self, material: Material) -> u64 {
        let free = POINT_COUNT - usize::from(material.mover);
        BINOMIAL[POINT_COUNT][usize::from(material.mover)]
            * BINOMIAL[free][usize::from(material.other)]
    }

    fn successors(&self, material: Material, index: u64, out: &mut Successors) {
        out.quiet.clear();
        out.exits.clear();
        let (mover, other) = position_at(material, index);
        let empty = ALL_POINTS & !(mover | other);
        for from in Points(mover) {
            for to in Points(ADJACENT[from.to_usize()] & empty) {
                let moved = mover ^ from.bit() ^ to.bit();
                match lines_through(moved, to) as u8 {
                    0 => out.quiet.push(index_of(other, moved)),
                    lines if lines >= material.other => out.exits.push(Exit::Won),
                    1 => {
                        for taken in Points(other) {
                            out.exits.push(exit(other ^ taken.bit(), moved));
                        }
                    }
                    _ => push_pairs(out, other, moved),
                }
            }
        }
    }

    fn predecessors(&self, material: Material, index: u64, out: &mut Vec<u64>) {
        out.clear();
        let (mover, other) = position_at(material, index);
        let empty = ALL_POINTS & !(mover | other);
        // The other side moved last: a piece of it came from an empty neighbour, completing
        // no line where it arrived.
        for to in Points(other) {
            if lines_through(other, to) != 0 {
                continue;
            }
            for from in Points(ADJACENT[to.to_usize()] & empty) {
                out.push(index_of(other ^ to.bit() ^ from.bit(), mover));
            }
        }
    }

    fn position(&self, material: Material, index: u64) -> String {
        let (mover, other) = position_at(material, index);
        let board: String = Point::all()
            .map(|p| match (mover & p.bit() != 0, other & p.bit() != 0) {
                (true, _) => 'R',
                (_, true) => 'B',
                _ => '.',
            })
            .collect();
        format!("{board} move R 0/0 0")
    }
}

/// The exit to the position where `mover` (the side that just lost pieces) moves against
/// `other`.
fn exit(mover: u32, other: u32) -> Exit {
    let material = Material {
        mover: mover.count_ones() as u8,
        other: other.count_ones() as u8,
    };
    Exit::To(material, index_of(mover, other))
}

/// Two removals from `other` (more than two pieces), after `moved` completed two lines.
fn push_pairs(out: &mut Successors, other: u32, moved: u32) {
    for first in Points(other) {
        for second in Points(other & !(first.bit() * 2 - 1)) {
            out.exits
                .push(exit(other ^ first.bit() ^ second.bit(), moved));
        }
    }
}

impl Qilin {
    /// See [`ludus_engine::Game::endgame_probe`]: a movement-stage turn start under the
    /// default movement rules, with at most [`MAX_PIECES`] a side; when an earlier position
    /// could come back often enough to draw, only a stored draw holds (`within` 0).
    pub(super) fn probe(&self) -> Option<EndgameProbe> {
        let options = &self.core.options;
        let default = QilinOptions::default();
        if self.stage != Stage::Move
            || self.pending != 0
            || self.core.outcome.is_some()
            || options.min_pieces != default.min_pieces
            || options.protect_lines != default.protect_lines
        {
            return None;
        }
        let mover = self.own(self.core.to_move);
        let other = self.own(self.core.to_move.opponent());
        let material = Material {
            mover: mover.count_ones() as u8,
            other: other.count_ones() as u8,
        };
        if material.mover.max(material.other) > MAX_PIECES {
            return None;
        }
        let limit = options.draw_no_removal_plies;
        // Near a repetition a stored win or loss may end as a draw, but a stored draw holds
        // (draw rules only add draws): only draws are answered then.
        let within = if self.repetition_near() {
            0
        } else if limit == 0 {
            u32::MAX
        } else {
            u32::from(limit.saturating_sub(self.quiet))
        };
        Some(EndgameProbe {
            material,
            index: index_of(mover, other),
            within,
        })
    }

    /// Whether a position seen since the last removal (other than this one) could occur
    /// often enough to draw. Along a line of best play toward a stored win every position is
    /// new (the distance falls each turn), so only the earlier ones can repeat.
    fn repetition_near(&self) -> bool {
        let needed = u32::from(self.core.options.draw_repetition);
        if needed == 0 {
            return false;
        }
        let ring = &self.history;
        let mut keys: Vec<u64> = (1..=usize::from(ring.len))
            .map(|back| ring.keys[(usize::from(ring.next) + RING - back) % RING])
            .filter(|&key| key != self.key)
            .collect();
        keys.sort_unstable();
        let most = keys
            .chunk_by(|a, b| a == b)
            .map(|run| run.len() as u32)
            .max()
            .unwrap_or(0);
        most + 1 >= needed
    }
}

#[cfg(test)]
mod tests {
    use ludus_engine::{Notation, Rules};

    use super::*;

    #[test]
    fn index_and_position_are_inverse_on_a_whole_table() {
        let material = Material { mover: 2, other: 3 };
        let size = ENDGAMES.size(material);
        assert_eq!(size, 276 * 1540);
        for i in (0..size).step_by(97) {
            let (mover, other) = position_at(material, i);
            assert_eq!((mover.count_ones(), other.count_ones()), (2, 3));
            assert_eq!(mover & other, 0);
            assert_eq!(index_of(mover, other), i);
        }
    }

    #[test]
    fn predecessors_invert_the_quiet_successors() {
        let material = Material { mover: 2, other: 2 };
        let mut next = Successors::default();
        let mut back = Vec::new();
        for i in (0..ENDGAMES.size(material)).step_by(13) {
            ENDGAMES.successors(material, i, &mut next);
            for &child in &next.quiet {
                ENDGAMES.predecessors(material, child, &mut back);
                assert_eq!(
                    back.iter().filter(|&&p| p == i).count(),
                    1,
                    "{i} -> {child}"
                );
            }
        }
    }

    fn play(state: &mut Qilin, turns: &str) {
        for action in state.parse_turn(turns).unwrap() {
            state.apply(action);
        }
    }

    #[test]
    fn the_probe_counts_the_turns_left_before_the_no_removal_draw() {
        // Q-9's position: Red a1, Black g7.
        let mut state = Qilin::from_position(
            "R......................B move R 0/0 0",
            &QilinOptions::default(),
        )
        .unwrap();
        let probe = state.endgame_probe().unwrap();
        assert_eq!(
            (probe.material, probe.within),
            (Material { mover: 1, other: 1 }, 100)
        );
        assert_eq!(probe.index, index_of(Point::A1.bit(), Point::G7.bit()));
        play(&mut state, "a1-d1 g7-d7");
        assert_eq!(state.endgame_probe().unwrap().within, 98);
        // Back at the start: every other position has occurred once, and a second time
        // along a line of best play would not yet draw.
        play(&mut state, "d1-a1 d7-g7");
        assert_eq!(state.endgame_probe().unwrap().within, 96);
        // Now the start has occurred twice: coming back to it would draw, so only a stored
        // draw is answered.
        play(&mut state, "a1-d1 g7-d7");
        assert_eq!(state.endgame_probe().unwrap().within, 0);
        let off = QilinOptions {
            draw_no_removal_plies: 0,
            draw_repetition: 0,
            ..QilinOptions::default()
        };
        let fresh = Qilin::from_position("R......................B move R 0/0 0", &off).unwrap();
        assert_eq!(fresh.endgame_probe().unwrap().within, u32::MAX);
    }

    #[test]
    fn other_movement_rules_or_other_stages_are_not_probed() {
        let text = "R......................B move R 0/0 0";
        for options in [
            QilinOptions {
                min_pieces: 3,
                ..QilinOptions::default()
            },
            QilinOptions {
                protect_lines: true,
                ..QilinOptions::default()
            },
        ] {
            assert_eq!(
                Qilin::from_position(text, &options)
                    .unwrap()
                    .endgame_probe(),
                None
            );
        }
        let start = Qilin::new(&QilinOptions::default(), 0);
        assert_eq!(start.endgame_probe(), None);
    }
}
