"""OpenSpiel's AlphaZero (JAX) for two learner steps on a Ludus game, in its smallest setting:
run by test_alphazero.py as `python alphazero_tiny.py GAME DIR`. AlphaZero starts its actors
and evaluators as spawned processes, which receive the game pickled."""

import sys
from open_spiel.python.algorithms.alpha_zero import alpha_zero
import ludus.openspiel  # registers
from open_spiel.python.utils import spawn

def main():
    """Two learner steps: a game or two of self-play, a checkpoint after each step."""
    config = alpha_zero.Config(
        game=sys.argv[1], path=sys.argv[2], learning_rate=0.01, weight_decay=1e-4,
        decouple_weight_decay=False, train_batch_size=16, replay_buffer_size=64,
        replay_buffer_reuse=2, max_steps=2, checkpoint_freq=1, actors=1, evaluators=1,
        evaluation_window=2, eval_levels=2, uct_c=2.0, max_simulations=4,
        policy_alpha=1.0, policy_epsilon=0.25, temperature=1.0, temperature_drop=4,
        nn_model="mlp", nn_width=16, nn_depth=1, observation_shape=None, output_size=None,
        verbose=False, quiet=True)
    alpha_zero.alpha_zero(config)

if __name__ == "__main__":
    with spawn.main_handler():
        main()
