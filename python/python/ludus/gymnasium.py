"""``ludus.VecEnv`` as a Gymnasium ``VectorEnv`` for self-play training.

::

    from ludus.gymnasium import LudusVectorEnv

    envs = LudusVectorEnv("yoxii", num_envs=1024, seed=0, threads=2)
    observations, infos = envs.reset(seed=0)
    actions = pick(observations, infos["action_mask"])
    observations, rewards, terminations, truncations, infos = envs.step(actions)

One environment is one game played by every seat (self-play): the observation is from the
seat to move (``infos["to_move"]``), the action mask is ``infos["action_mask"]``, and the reward
of a step is the return of the seat that just moved when its action ended the game (all
seats' returns in ``infos["returns"]``). A game that ends starts again in the same step
(``AutoresetMode.SAME_STEP``): the returned observation is the new game's first.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

import ludus

__all__ = ["LudusVectorEnv"]


class LudusVectorEnv(VectorEnv):
    """``num_envs`` Ludus games stepped together in Rust (see the module docs)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": ["rgb_array"]}

    def __init__(
        self,
        game: str,
        num_envs: int,
        seed: int = 0,
        threads: int = 1,
        render_mode: str | None = None,
        **options,
    ):
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"bad render_mode {render_mode!r}: expected None or 'rgb_array'")
        self.render_mode = render_mode
        self.batch = ludus.VecEnv(game, num_envs, seed=seed, options=options, threads=threads)
        self.num_envs = num_envs
        shape = self.batch.observations.shape[1:]
        self.single_observation_space = spaces.Box(0.0, 1.0, shape, np.float32)
        self.single_action_space = spaces.Discrete(self.batch.num_distinct_actions)
        self.observation_space = spaces.Box(0.0, 1.0, (num_envs, *shape), np.float32)
        self.action_space = spaces.MultiDiscrete(
            np.full(num_envs, self.batch.num_distinct_actions)
        )
        self._no_truncation = np.zeros(num_envs, dtype=bool)
        self._rows = np.arange(num_envs)

    def _infos(self) -> dict:
        return {
            "action_mask": self.batch.legal,
            "to_move": self.batch.to_move,
            "returns": self.batch.rewards,
        }

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        self.batch.reset(seed)
        return self.batch.observations, self._infos()

    def render(self):
        """Every game's board as an RGB array (``render_mode="rgb_array"``), else None."""
        if self.render_mode != "rgb_array":
            return None
        return tuple(self.batch.render_rgb(i) for i in range(self.num_envs))

    def step(self, actions):
        movers = self.batch.to_move.copy()
        self.batch.step(np.asarray(actions, dtype=np.int64))
        rewards = self.batch.rewards[self._rows, movers]
        terminated = self.batch.terminated
        return self.batch.observations, rewards, terminated, self._no_truncation, self._infos()
