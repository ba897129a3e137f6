//! The solver on two-step Nim, where the values are known by hand: a turn takes 2 to 4
//! stones (or the last one), so piles of 1 to 4 are won at once, 5 and 6 are lost (every
//! turn leaves 1 to 4), 7 is won by leaving 5.

use ludus_engine::demo::{Nim, NimOptions};
use ludus_engine::{Notation, Rules};

use super::*;

fn nim(pile: u8) -> Nim {
    Nim::new(&NimOptions { pile }, 0)
}

fn solve(state: &Nim, budget: &SolveBudget) -> Solution<u8> {
    Solver::<Nim>::new(1).solve(state, budget, &StopFlag::default())
}

#[test]
fn small_piles_are_solved_with_their_distance() {
    let all = SolveBudget::default();
    assert_eq!(solve(&nim(4), &all).proved(), Some(Proved::Win(1)));
    assert_eq!(solve(&nim(5), &all).proved(), Some(Proved::Loss(2)));
    assert_eq!(solve(&nim(6), &all).proved(), Some(Proved::Loss(2)));
    let seven = solve(&nim(7), &all);
    assert_eq!(seven.proved(), Some(Proved::Win(3)));
    // The winning turn is 1+1 (leaving 5): its first decision takes one stone.
    assert_eq!(nim(7).format_action(seven.best.unwrap()), "1");
}

#[test]
fn decisions_get_their_own_values() {
    let mut solver = Solver::<Nim>::new(1);
    let (root, values) =
        solver.solve_decisions(&nim(4), &SolveBudget::default(), &StopFlag::default());
    assert_eq!(root.proved(), Some(Proved::Win(1)));
    let proved: Vec<_> = values.iter().map(|v| v.bounds.proved()).collect();
    assert_eq!(proved, [Some(Proved::Loss(2)), Some(Proved::Win(1))]);
}

#[test]
fn a_small_budget_reports_what_it_proved() {
    let tight = SolveBudget {
        turns: 2,
        ..SolveBudget::default()
    };
    let solution = solve(&nim(30), &tight);
    assert_eq!(solution.proved(), None);
    assert_eq!(solution.turns, 2);
    assert_eq!(
        solution.bounds.to_string(),
        "no loss within 1 turn, no win within 1 turn"
    );
    let few_nodes = SolveBudget {
        nodes: 10,
        ..SolveBudget::default()
    };
    assert_eq!(solve(&nim(30), &few_nodes).proved(), None);
}

#[test]
fn a_solve_that_failed_is_not_tried_again_until_the_end_is_within_its_reach() {
    use crate::{Agent, RandomAgent};
    // Any turn of two-step Nim is within the 60 turns the game may last, and 40 nodes reach
    // a horizon of a turn or two: far from enough for a pile of 40.
    let budget = SolveBudget {
        nodes: 40,
        ..SolveBudget::default()
    };
    let mut player = SolvingAgent::new(Box::new(RandomAgent::new(1)), 60, budget);
    let mut state = nim(40);
    let first = player.analyse(&state, &StopFlag::default());
    assert_eq!(player.solver_tries(), 1);
    assert_eq!(
        first.evaluation, None,
        "nothing proved: the random player chose"
    );
    // The next turns' ends are as far off: the solver is not run again for them.
    for _ in 0..3 {
        state.apply(1);
        state.apply(1);
        player.analyse(&state, &StopFlag::default());
    }
    assert_eq!(player.solver_tries(), 1);
    // A player with the budget to prove it tries, and plays the proof.
    let mut ample = SolvingAgent::new(Box::new(RandomAgent::new(1)), 60, SolveBudget::default());
    let proved = ample.analyse(&nim(7), &StopFlag::default());
    assert_eq!(
        proved.evaluation,
        Some(crate::Evaluation::Proved(Proved::Win(3)))
    );
}
