"""Batched PUCT search for ``alphazero.py``: one tree per game, all trees stepped together.

Each round runs one simulation in every tree and sends the leaves they reached to the network
in a single batch, so the per-call cost of the network is paid once per round instead of once
per leaf. Nodes hold a ``ludus.Game`` (``clone()`` + ``apply()``): the search needs copies of
positions, which ``ludus.VecEnv`` does not hand out.

A turn may hold several decisions by the same seat (Yoxii's Totem move then placement), so
values are kept per seat and an edge adds the value of the seat that chose it, instead of
flipping the sign at every level.
"""

import math

import numpy as np


class Node:
    """A position in a search tree, with the statistics of its outgoing edges."""

    __slots__ = ("game", "to_move", "actions", "prior", "visits", "value_sum", "children",
                 "returns")

    def __init__(self, game):
        self.game = game
        self.to_move = game.to_move
        self.returns = game.returns() if game.is_over() else None
        self.actions = None  # set by expand(): the legal action ids
        self.prior = self.visits = self.value_sum = self.children = None

    def expand(self, priors):
        self.actions = np.asarray(self.game.legal_actions(), dtype=np.int64)
        p = priors[self.actions].astype(np.float64)
        self.prior = p / p.sum() if p.sum() > 0 else np.full(len(p), 1.0 / len(p))
        self.visits = np.zeros(len(self.actions))
        self.value_sum = np.zeros(len(self.actions))
        self.children = [None] * len(self.actions)

    def select(self, c_puct):
        total = self.visits.sum()
        q = np.divide(self.value_sum, self.visits, out=np.zeros_like(self.value_sum),
                      where=self.visits > 0)
        u = q + c_puct * self.prior * math.sqrt(total + 1.0) / (1.0 + self.visits)
        return int(np.argmax(u))


def seat_values(node, value):
    """The value for each of two seats of a leaf evaluated as ``value`` for its seat to move."""
    if node.returns is not None:
        return node.returns
    return [value, -value] if node.to_move == 0 else [-value, value]


def backup(path, values):
    for node, i in path:
        node.visits[i] += 1.0
        node.value_sum[i] += values[node.to_move]


def descend(root, c_puct):
    """Walks one simulation down to a leaf; returns ``(path, leaf)``, the leaf not yet
    expanded, or ``(path, None)`` after backing up a finished game's returns itself."""
    path, node = [], root
    while True:
        i = node.select(c_puct)
        path.append((node, i))
        child = node.children[i]
        if child is None:
            game = node.game.clone()
            game.apply(int(node.actions[i]))
            child = node.children[i] = Node(game)
            if child.returns is None:
                return path, child
        if child.returns is not None:
            backup(path, child.returns)
            return path, None
        node = child


def evaluate(net, nodes):
    """Priors over every action id and a value for the seat to move, one batch for all."""
    obs = np.stack([n.game.observation_tensor() for n in nodes])
    mask = np.zeros((len(nodes), net.num_actions), dtype=bool)
    for row, n in enumerate(nodes):
        mask[row, n.game.legal_actions()] = True
    return net.predict(obs, mask)


class Search:
    """Runs ``simulations`` PUCT simulations in each of a batch of trees."""

    def __init__(self, net, simulations, c_puct=1.5, noise=0.0, alpha=0.3, rng=None):
        self.net, self.simulations, self.c_puct = net, simulations, c_puct
        self.noise, self.alpha = noise, alpha
        self.rng = rng or np.random.default_rng(0)
        self.leaves = 0  # network evaluations, for the decisions-per-second figures

    def run(self, roots):
        """Searches every root (a new ``Node`` or a subtree kept from the last decision);
        returns the visit counts of each root's legal actions, in ``root.actions`` order."""
        fresh = [r for r in roots if r.actions is None]
        if fresh:
            priors, _ = evaluate(self.net, fresh)
            for node, p in zip(fresh, priors):
                node.expand(p)
        for node in roots:
            self.add_noise(node)
        for _ in range(self.simulations):
            pending = [descend(r, self.c_puct) for r in roots]
            waiting = [(path, leaf) for path, leaf in pending if leaf is not None]
            if not waiting:
                continue
            priors, values = evaluate(self.net, [leaf for _, leaf in waiting])
            self.leaves += len(waiting)
            for (path, leaf), p, v in zip(waiting, priors, values):
                leaf.expand(p)
                backup(path, seat_values(leaf, float(v)))
        return [r.visits.copy() for r in roots]

    def add_noise(self, node):
        if self.noise <= 0:
            return
        eta = self.rng.dirichlet([self.alpha] * len(node.actions))
        node.prior = (1 - self.noise) * node.prior + self.noise * eta


def advance(node, action):
    """The subtree below ``action`` as the next root (its statistics reused), or a new root."""
    if node is not None and node.actions is not None:
        where = np.nonzero(node.actions == action)[0]
        if len(where) and node.children[where[0]] is not None:
            return node.children[where[0]]
    return None
