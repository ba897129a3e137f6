"""The five Ludus games as OpenSpiel games.

``import ludus.openspiel`` registers ``ludus_qilin``, ``ludus_splut``, ``ludus_qawale``,
``ludus_replica`` and ``ludus_yoxii`` with every rules option as a game parameter::

    import pyspiel
    import ludus.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game("ludus_splut(players=4,size=13)")
    state = game.new_initial_state()

The games are sequential, deterministic, perfect-information and zero-sum with terminal
rewards: the winner gets 1 and every other seat ``-1/(players-1)``, a draw 0. Actions are
the Ludus action ids (``Game.legal_actions``), observations the Ludus observation tensors
(documented per game in ``docs/PYTHON.md``). A turn of several decisions (Qawale's sowing,
Yoxii's Totem move then placement, Splut!'s steps) is several OpenSpiel actions by the same
player. The parameter ``seed`` settles random rules choices such as a random first player:
the default ``-1`` gives every new initial state a seed of its own from the operating system,
and ``seed=S`` gives the k-th initial state of a game object seed ``S + k`` (a reproducible
sequence of different episodes).

A game whose draw rules are all switched off can go on without end; it stops as a draw at
``max_game_length`` decisions (seats already knocked out keep their loss). ``undo_action``
takes back the last decision. Games pickle (by name and parameters), so OpenSpiel's AlphaZero
can hand them to its worker processes.
"""

from __future__ import annotations

import secrets

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

import ludus

__all__ = ["GAME_NAMES", "LudusBot", "LudusGame", "LudusState"]


def _default(option: dict):
    """The default of a Ludus option as an OpenSpiel parameter value."""
    value = option["default"]
    if option["kind"] == "range":
        return int(value)
    if option["kind"] == "flag":
        return value == "true"
    return str(value)


class LudusState(pyspiel.State):
    """An OpenSpiel state holding a ``ludus.Game``."""

    def __init__(self, game: LudusGame, inner: ludus.Game):
        super().__init__(game)
        self.game_state = inner
        self._cap = game.max_game_length()
        # Decisions of this state (the history OpenSpiel keeps cannot shrink on undo).
        self._actions: list[int] = []

    def _capped(self) -> bool:
        return len(self._actions) >= self._cap

    def current_player(self) -> int:
        seat = self.game_state.to_move
        return pyspiel.PlayerId.TERMINAL if seat is None or self._capped() else seat

    def _legal_actions(self, player: int) -> list:
        if player != self.game_state.to_move or self._capped():
            return []
        return self.game_state.legal_actions()

    def _apply_action(self, action: int) -> None:
        self.game_state.apply(action)
        self._actions.append(action)

    def undo_action(self, player: int, action: int) -> None:
        """Takes back the last decision, which must be ``action`` by ``player``."""
        if not self._actions or self._actions[-1] != action:
            last = self._actions[-1] if self._actions else None
            raise ValueError(f"cannot undo action {action}: the last action was {last}")
        self.game_state.undo()
        if self.game_state.to_move != player:
            self.game_state.apply(action)
            raise ValueError(f"cannot undo action {action} for player {player}: it was not theirs")
        self._actions.pop()

    def history(self) -> list:
        return list(self._actions)

    def history_str(self) -> str:
        return ", ".join(str(a) for a in self._actions)

    def move_number(self) -> int:
        return len(self._actions)

    def _action_to_string(self, player: int, action: int) -> str:
        try:
            return self.game_state.action_to_move(action)
        except ValueError:
            return f"action {action}"

    def is_terminal(self) -> bool:
        return self.game_state.is_over() or self._capped()

    def returns(self) -> list:
        if not self.game_state.is_over() and self._capped():
            return self.game_state.draw_returns()
        return self.game_state.returns()

    def __str__(self) -> str:
        return str(self.game_state)


class _Observer:
    """The Ludus observation tensor of a player, as OpenSpiel's PyObserver."""

    def __init__(self, shape):
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": np.reshape(self.tensor, shape)}

    def set_from(self, state: LudusState, player: int) -> None:
        self.tensor[:] = state.game_state.observation_tensor(player).ravel()

    def string_from(self, state: LudusState, player: int) -> str:
        return str(state.game_state)


class LudusGame(pyspiel.Game):
    """An OpenSpiel game over one Ludus game; subclassed once per game below."""

    ludus_id = ""
    game_type: pyspiel.GameType = None

    def __init__(self, params=None):
        params = dict(params or {})
        self.ludus_seed = int(params.get("seed", -1))
        self._episodes = 0
        spec = self.game_type.parameter_specification
        self.ludus_options = {
            name: params.get(name, default) for name, default in spec.items() if name != "seed"
        }
        probe = ludus.new_game(self.ludus_id, self.ludus_options, seed=max(self.ludus_seed, 0))
        players = probe.num_players
        info = pyspiel.GameInfo(
            num_distinct_actions=probe.num_distinct_actions,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=-1.0 / (players - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=probe.max_game_length,
        )
        self.observation_shape_ = probe.observation_shape
        super().__init__(self.game_type, info, params)

    def new_initial_state(self) -> LudusState:
        if self.ludus_seed < 0:
            seed = secrets.randbits(63)
        else:
            seed = self.ludus_seed + self._episodes
            self._episodes += 1
        return LudusState(self, ludus.new_game(self.ludus_id, self.ludus_options, seed))

    def __reduce__(self):
        # By name and parameters: the class is found again by importing this module, which
        # registers the games in the process that unpickles (AlphaZero's workers).
        return (_load, (self.get_type().short_name, self.get_parameters()))

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return _Observer(self.observation_shape_)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class LudusBot(pyspiel.Bot):
    """A Ludus computer player as an OpenSpiel bot: ``LudusBot("ai:5")``, for ``ludus_*`` games.

    ``step_with_policy`` returns the search's policy over the legal actions (MCTS visit shares;
    searches that rank only their choice put all of it on the chosen action) with the action,
    so a Ludus level can serve as a teacher or a baseline.
    """

    def __init__(self, spec: str, seed: int = 0):
        pyspiel.Bot.__init__(self)
        self.agent = ludus.agent(spec, seed)

    def step_with_policy(self, state: LudusState):
        found = self.agent.analyse(state.game_state)
        policy = [(a, float(found["policy"][a])) for a in state.legal_actions()]
        return policy, found["action"]

    def step(self, state: LudusState) -> int:
        return self.agent.choose(state.game_state)

    def provides_policy(self) -> bool:
        return True

    def restart_at(self, state) -> None:
        pass

    def inform_action(self, state, player_id, action) -> None:
        pass


def _register(info: dict) -> str:
    name = f"ludus_{info['id']}"
    parameters = {option["name"]: _default(option) for option in info["options"]}
    parameters["seed"] = -1
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"Ludus {info['name']}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info["max_players"],
        min_num_players=info["min_players"],
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )
    cls = type(
        f"Ludus{info['id'].capitalize()}Game",
        (LudusGame,),
        {"ludus_id": info["id"], "game_type": game_type, "__doc__": info["description"]},
    )
    # A module attribute, so that pickle finds the class by its name.
    cls.__module__ = __name__
    globals()[cls.__name__] = cls
    if name not in pyspiel.registered_names():
        pyspiel.register_game(game_type, cls)
    return name


def _load(name: str, parameters: dict) -> pyspiel.Game:
    """The game ``name`` with ``parameters``: how a pickled game is made again."""
    return pyspiel.load_game(name, parameters)


GAME_NAMES = [_register(info) for info in ludus.games()]
