"""The eight symmetries of a square board (rotations and reflections), for ``alphazero.py``:
each training sample is seen in a random one of them, so one self-play game teaches what
eight would.

Only Yoxii is described here, from its documented encoding (docs/PYTHON.md): observation rows
run from the top rank down, a square's id is ``file * 7 + rank`` (ranks from 0), and every
action id is ``49 * block + square`` (the Totem's destination, or a piece value and its
square). The board's 37 squares are symmetric under all eight maps, and the observation's
planes are either per-square or uniform. Other games train without augmentation.
"""

import numpy as np


def dihedral(array, k):
    """The k-th of the eight symmetries (k = 0..7) of a square array's last two axes."""
    moved = np.rot90(array, k % 4, axes=(-2, -1))
    return np.flip(moved, axis=-1) if k >= 4 else moved


def yoxii_tables():
    size = 7
    places = np.arange(size * size).reshape(size, size)
    # grid[row, col]: the id of the square drawn at that place of the observation.
    grid = np.array([[col * size + (size - 1 - row) for col in range(size)] for row in range(size)])
    cell_src, action_src = [], []
    for k in range(8):
        # After the map, place j shows what place cell_src[j] showed: the square whose id
        # was dihedral(grid)[j] now has the id of place j, grid[j].
        cell_src.append(dihedral(places, k).ravel())
        square_src = np.empty(size * size, dtype=np.int64)
        square_src[grid.ravel()] = dihedral(grid, k).ravel()
        action_src.append(np.concatenate([block * size * size + square_src for block in range(5)]))
    return np.array(cell_src), np.array(action_src)


TABLES = {"yoxii": yoxii_tables}


class Symmetries:
    """Random symmetries of batches: ``apply(obs, mask, pi)`` maps each row by its own draw."""

    def __init__(self, game, rng):
        self.tables = TABLES[game]() if game in TABLES else None
        self.rng = rng

    def apply(self, obs, mask, pi):
        if self.tables is None:
            return obs, mask, pi
        cell_src, action_src = self.tables
        k = self.rng.integers(0, len(cell_src), size=len(obs))
        n, planes = obs.shape[:2]
        flat = obs.reshape(n, planes, -1)
        obs = np.take_along_axis(flat, cell_src[k][:, None, :], axis=2).reshape(obs.shape)
        mask = np.take_along_axis(mask, action_src[k], axis=1)
        pi = np.take_along_axis(pi, action_src[k], axis=1)
        return obs, mask, pi
