"""Type stubs of the extension module ``ludus._ludus`` (re-exported by ``ludus``)."""

from os import PathLike
from typing import Any, Optional, Union

import numpy as np
import numpy.typing as npt

Options = dict[str, Union[int, bool, str]]

__version__: str

class IllegalMove(ValueError):
    """A move the rules refuse here, or notation that is not a move of this game."""

class Outcome:
    """How a game ended."""

    winner: Optional[int]
    """The winning seat (0-based), or None for a draw."""
    reason: str
    """Why the game ended, in words."""
    @property
    def is_draw(self) -> bool: ...

class Game:
    """A game in progress of one of the five Ludus games, with its history."""

    @property
    def game(self) -> str: ...
    @property
    def num_players(self) -> int: ...
    @property
    def options(self) -> dict[str, str]: ...
    @property
    def to_move(self) -> Optional[int]:
        """The seat to decide now (0-based), or None when the game is over."""
    @property
    def turn(self) -> int:
        """Completed turns (a turn may take several decisions)."""
    @property
    def outcome(self) -> Optional[Outcome]: ...
    @property
    def num_distinct_actions(self) -> int:
        """The size of the action space of this game and options."""
    @property
    def observation_shape(self) -> tuple[int, int, int]:
        """``(planes, height, width)`` of ``observation_tensor``."""
    @property
    def max_game_length(self) -> int:
        """An upper bound on the decisions of a game with these options."""
    @property
    def key(self) -> int: ...
    def seat_name(self, seat: int) -> str: ...
    def seats_in_play(self) -> list[bool]: ...
    def is_over(self) -> bool: ...
    def legal_actions(self) -> list[int]:
        """The legal action ids, ascending."""
    def legal_moves(self) -> list[str]:
        """The legal decisions in notation, in the order of ``legal_actions()``."""
    def apply(self, action: int) -> None:
        """Plays a legal action id; raises ``IllegalMove`` otherwise."""
    def apply_move(self, notation: str) -> int:
        """Plays a decision or whole turn in notation; returns how many decisions it held."""
    def action_to_move(self, action: int) -> str: ...
    def move_to_action(self, notation: str) -> int: ...
    def clone(self) -> Game: ...
    def __copy__(self) -> Game: ...
    def __deepcopy__(self, memo: Any) -> Game: ...
    def returns(self) -> list[float]:
        """Per seat: 1 for the winner, -1/(seats-1) for the others, 0 for a draw or a game in progress."""
    def render_svg(self) -> str:
        """The board as the web page draws it, as SVG."""
    def render_rgb(self, scale: float = 0.5) -> npt.NDArray[np.uint8]:
        """The board as RGB pixels, [height, width, 3]; a cell is 100 units."""
    def draw_returns(self) -> list[float]:
        """The returns if the game were drawn now (knocked-out seats keep their loss)."""
    def position(self) -> str: ...
    def history(self) -> list[str]:
        """The turns played so far in turn notation."""
    def actions(self) -> list[int]:
        """The ids of the decisions played so far."""
    def observation_tensor(self, seat: Optional[int] = None) -> npt.NDArray[np.float32]: ...
    def resign(self, seat: int) -> None: ...
    def undo(self) -> bool: ...
    def to_json(self) -> str: ...
    def save(self, path: Union[str, PathLike[str]]) -> None:
        """Saves the game as a record file that ``ludus replay`` and ``ludus.load`` read."""

class VecEnv:
    """N games stepped together in Rust; the arrays below are rewritten in place by every step."""
    observations: npt.NDArray[np.float32]  # [n, planes, height, width], the seat to move's view
    legal: npt.NDArray[np.bool_]  # [n, actions]
    rewards: npt.NDArray[np.float32]  # [n, seats]: returns of a game that ended in this step
    terminated: npt.NDArray[np.bool_]  # [n]: the game ended in this step (and started again)
    to_move: npt.NDArray[np.int32]  # [n]
    game: str
    num_envs: int
    num_distinct_actions: int
    num_players: int
    def __init__(
        self, game: str, n: int, seed: int = 0, options: Optional[Options] = None, threads: int = 1
    ) -> None: ...
    def reset(self, seed: Optional[int] = None) -> npt.NDArray[np.float32]: ...
    def step(self, actions: Any) -> None: ...
    def render_rgb(self, index: int, scale: float = 0.5) -> npt.NDArray[np.uint8]: ...
    def sample(self, seed: Optional[int] = None) -> npt.NDArray[np.int64]:
        """A uniformly random legal action id per game, drawn in Rust."""
    def __len__(self) -> int: ...

class Agent:
    """A Ludus computer player."""

    def __init__(self, spec: str, seed: int = 0) -> None: ...
    @property
    def spec(self) -> str: ...
    def choose(self, game: Game) -> int:
        """The action id this agent plays for the seat to move."""
    def analyse(self, game: Game) -> dict[str, Any]:
        """action, move, evaluation, value (-1..1), depth, nodes, pv (ids), policy (float32 over ids)."""

def games() -> list[dict[str, Any]]: ...
def new_game(game: str, options: Optional[Options] = None, seed: int = 0) -> Game: ...
def from_position(game: str, position: str, options: Optional[Options] = None) -> Game: ...
def load(path: Union[str, PathLike[str]]) -> Game: ...
def from_json(text: str) -> Game: ...
def random_playouts(
    game: str, n: int, seed: int = 0, options: Optional[Options] = None
) -> dict[str, Any]: ...
