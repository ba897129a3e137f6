"""OpenSpiel's MCTS against Ludus's alpha-beta (``ai:4``) on Qilin Chess XiaSanZi.

Nothing is trained: the script shows that an OpenSpiel algorithm plays a Ludus game
unchanged, and how a Ludus agent joins in. Budgets are small so that a game takes seconds.

    python examples/mcts_vs_ludus.py [--games 2] [--simulations 50] [--ludus ai:4:time=0.05]
"""

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import ludus
import ludus.openspiel  # noqa: F401  (registers ludus_qilin and the others)


class LudusBot(pyspiel.Bot):
    """A Ludus agent as an OpenSpiel bot: it reads the Ludus game inside the state."""

    def __init__(self, spec: str, seed: int):
        pyspiel.Bot.__init__(self)
        self.agent = ludus.agent(spec, seed=seed)

    def step(self, state):
        return self.agent.choose(state.game_state)

    def restart_at(self, state):
        pass


def play(game, bots, seat_names):
    state = game.new_initial_state()
    while not state.is_terminal():
        player = state.current_player()
        action = bots[player].step(state)
        state.apply_action(action)
    outcome = state.game_state.outcome
    winner = "nobody" if outcome.winner is None else seat_names[outcome.winner]
    return state.returns(), f"{winner} ({outcome.reason}) after {state.game_state.turn} turns"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--simulations", type=int, default=50)
    parser.add_argument("--ludus", default="ai:4:time=0.05")
    args = parser.parse_args()

    game = pyspiel.load_game("ludus_qilin")
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    score = {"mcts": 0.0, "ludus": 0.0}
    for number in range(args.games):
        mcts_bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=args.simulations,
                                evaluator=evaluator, random_state=rng)
        ludus_bot = LudusBot(args.ludus, seed=number)
        # Alternate seats: Red places first.
        names = ["mcts", "ludus"] if number % 2 == 0 else ["ludus", "mcts"]
        bots = [mcts_bot, ludus_bot] if number % 2 == 0 else [ludus_bot, mcts_bot]
        returns, summary = play(game, bots, [f"{names[0]} (Red)", f"{names[1]} (Black)"])
        for seat, name in enumerate(names):
            score[name] += (returns[seat] + 1) / 2
        print(f"game {number + 1}: {summary}")
    print(f"score over {args.games} games: MCTS {score['mcts']}, Ludus {args.ludus} {score['ludus']}")


if __name__ == "__main__":
    main()
