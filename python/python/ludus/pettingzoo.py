"""The five Ludus games as PettingZoo AEC environments.

``ludus.pettingzoo.env("replica", sight="all8")`` is the usual wrapped environment and
``raw_env(...)`` the bare one::

    from ludus.pettingzoo import env

    e = env("splut", players=3, render_mode="ansi")
    e.reset(seed=0)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else int(mask.nonzero()[0][0])
        e.step(action)

Agents are named after their seats and numbered from 0 in turn order (``"red_0"``,
``"black_1"``; Splut!: ``"blue_0"``, ``"red_1"``, ``"green_2"``, ``"yellow_3"``). Action spaces are ``Discrete(num_distinct_actions)``
over the Ludus action ids; observations are a dict of ``observation`` (the Ludus observation
tensor from that agent's point of view, float32 in [0, 1]) and ``action_mask`` (int8, 1 for
the legal actions of the agent to move). Rewards come at the end: 1 for the winner,
``-1/(players-1)`` for each other seat, 0 each for a draw. A Splut! seat whose sorcerer dies
is terminated at once with its loss while the others play on; a later draw is shared by the
seats still in play, so the rewards of an episode always sum to 0 (as ``Game.returns()`` and
OpenSpiel's returns). A turn of several decisions selects the same agent again for each
decision. ``reset()`` without a seed draws one from the operating system, so random rules
choices (a random first player) differ between episodes; ``reset(seed=S)`` repeats them. A game
whose draw rules are all switched off is truncated, as a draw, at ``max_game_length`` decisions.
"""

from __future__ import annotations

import secrets

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import ludus

__all__ = ["env", "raw_env"]


def env(game: str, render_mode: str | None = None, **options) -> AECEnv:
    """The AEC environment of ``game`` with ``options``, in PettingZoo's usual wrappers."""
    wrapped = raw_env(game, render_mode=render_mode, **options)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def _agent_names(probe: ludus.Game) -> list:
    names = []
    for seat in range(probe.num_players):
        word = "".join(c for c in probe.seat_name(seat).split()[0].lower() if c.isalnum())
        names.append(f"{word or 'player'}_{seat}")
    if len(set(names)) != len(names):
        names = [f"player_{seat}" for seat in range(probe.num_players)]
    return names


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's name)
    """A Ludus game as a PettingZoo AEC environment (see the module docs)."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "name": "ludus_v0", "is_parallelizable": False}

    def __init__(self, game: str, render_mode: str | None = None, **options):
        super().__init__()
        if render_mode not in (None, "ansi", "rgb_array"):
            raise ValueError(
                f"bad render_mode {render_mode!r}: expected None, 'ansi' or 'rgb_array'"
            )
        self.game_id = game
        self.options = dict(options)
        self.render_mode = render_mode
        probe = ludus.new_game(game, self.options)
        self.metadata = dict(self.metadata, name=f"ludus_{probe.game}_v0")
        self.possible_agents = _agent_names(probe)
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self._loss = -1.0 / (probe.num_players - 1)
        n = probe.num_distinct_actions
        observation = spaces.Box(0.0, 1.0, probe.observation_shape, np.float32)
        mask = spaces.Box(0, 1, (n,), np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": observation, "action_mask": mask})
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.game = probe

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is None:
            seed = secrets.randbits(63)
        self.game = ludus.new_game(self.game_id, self.options, seed=seed)
        self._decisions = 0
        self._cap = self.game.max_game_length
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[self.game.to_move]

    def observe(self, agent):
        seat = self.agent_name_mapping[agent]
        mask = np.zeros(self.game.num_distinct_actions, np.int8)
        if self.game.to_move == seat:
            mask[self.game.legal_actions()] = 1
        return {"observation": self.game.observation_tensor(seat), "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.game.apply(int(action))
        self._decisions += 1
        if self.game.is_over():
            for other, value in zip(self.possible_agents, self.game.returns()):
                if other in self.agents:
                    self.rewards[other] = value
                    self.terminations[other] = True
        elif self._decisions >= self._cap:
            for other, value in zip(self.possible_agents, self.game.draw_returns()):
                if other in self.agents and not self.terminations[other]:
                    self.rewards[other] = value
                    self.truncations[other] = True
        else:
            alive = self.game.seats_in_play()
            for other in self.agents:
                if not alive[self.agent_name_mapping[other]] and not self.terminations[other]:
                    self.rewards[other] = self._loss
                    self.terminations[other] = True
            self.agent_selection = self.possible_agents[self.game.to_move]
        self._accumulate_rewards()
        self._deads_step_first()
        if self.render_mode == "ansi":
            pass  # rendering is on demand (render())

    def render(self):
        """The board: text (``ansi``) or an RGB array as the web page draws it (``rgb_array``)."""
        if self.render_mode == "rgb_array":
            return self.game.render_rgb()
        if self.render_mode == "ansi":
            return str(self.game)
        return None

    def close(self) -> None:
        pass
