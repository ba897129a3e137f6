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
player. The parameter ``seed`` (default 0) settles random rules choices such as Qawale's
``first_player=random``.
"""

from __future__ import annotations

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

import ludus

__all__ = ["GAME_NAMES", "LudusGame", "LudusState"]


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

    def current_player(self) -> int:
        seat = self.game_state.to_move
        return pyspiel.PlayerId.TERMINAL if seat is None else seat

    def _legal_actions(self, player: int) -> list:
        if player != self.game_state.to_move:
            return []
        return self.game_state.legal_actions()

    def _apply_action(self, action: int) -> None:
        self.game_state.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        try:
            return self.game_state.action_to_move(action)
        except ValueError:
            return f"action {action}"

    def is_terminal(self) -> bool:
        return self.game_state.is_over()

    def returns(self) -> list:
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
        self.ludus_seed = int(params.get("seed", 0))
        spec = self.game_type.parameter_specification
        self.ludus_options = {
            name: params.get(name, default) for name, default in spec.items() if name != "seed"
        }
        probe = ludus.new_game(self.ludus_id, self.ludus_options, seed=self.ludus_seed)
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
        return LudusState(self, ludus.new_game(self.ludus_id, self.ludus_options, self.ludus_seed))

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return _Observer(self.observation_shape_)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


def _register(info: dict) -> str:
    name = f"ludus_{info['id']}"
    parameters = {option["name"]: _default(option) for option in info["options"]}
    parameters["seed"] = 0
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
    if name not in pyspiel.registered_names():
        pyspiel.register_game(game_type, cls)
    return name


GAME_NAMES = [_register(info) for info in ludus.games()]
