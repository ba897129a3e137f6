"""AlphaZero-style self-play on a two-seat Ludus game, measured against the built-in level 2.

Many ``ludus.Game`` objects play together: every decision runs a batched PUCT search
(``az_mcts.py``) whose leaves go to a small policy-value network (``az_nets.py``: Flax and
Optax when installed, else plain NumPy) in one batch per simulation round. The games' decisions,
the search's visit shares and the final results train the network; at checkpoints the same
search plays level 2 (``ludus.agent("ai:2")``) with alternating seats. Iteration 0 of the
curve is the untrained network under the same search: the baseline that learning improves on.

    python examples/alphazero.py --minutes 30 --out az-run          # the documented run
    python examples/alphazero.py --iterations 1 --quick --out /tmp/az  # a smoke test

Writes ``metrics.json`` (settings, the curve, decisions per second) after every iteration and
``curve.svg`` (win rate against level 2 over training time) in ``--out``. Training time counts
self-play and learning only; the evaluation games are not part of it.
"""

import argparse
import json
import os
import pathlib
import pickle
import time

# Batches here are a few dozen rows: a threaded BLAS or XLA pool gains nothing on them and,
# on a busy machine, spins; one thread was 10-50 times faster on the 2-core project machine.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")
os.environ.setdefault(
    "XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")

import numpy as np  # noqa: E402

import ludus  # noqa: E402
from az_mcts import Node, Search, advance
from az_nets import make_net  # noqa: E402
from az_plot import write_curve_svg  # noqa: E402
from az_symmetry import Symmetries  # noqa: E402


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="yoxii", help="a two-seat Ludus game id")
    p.add_argument("--backend", choices=["auto", "jax", "numpy"], default="auto")
    p.add_argument("--minutes", type=float, default=30.0,
                   help="training budget in CPU minutes (self-play and learning, one thread)")
    p.add_argument("--iterations", type=int, default=10_000, help="stop after this many")
    p.add_argument("--games", type=int, default=64, help="self-play games per iteration")
    p.add_argument("--simulations", type=int, default=32, help="per self-play decision")
    p.add_argument("--eval-simulations", type=int, default=128,
                   help="per decision in the games against the opponent")
    p.add_argument("--train-steps", type=int, default=128, help="per iteration")
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--buffer", type=int, default=30_000, help="positions kept for training")
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--temperature-moves", type=int, default=12,
                   help="decisions sampled by visit share before playing the most visited")
    p.add_argument("--eval-every", type=float, default=5.0, help="training minutes")
    p.add_argument("--eval-games", type=int, default=40, help="at each checkpoint")
    p.add_argument("--final-games", type=int, default=100, help="baseline and final match")
    p.add_argument("--opponent", default="ai:2")
    p.add_argument("--eval-seed", type=int, default=10**9,
                   help="seed of the evaluation games (far from self-play's)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--quick", action="store_true", help="tiny settings, for a smoke test")
    p.add_argument("--out", default="alphazero-run")
    p.add_argument("--load", help="start from the weights.pkl of an earlier run (same backend)")
    args = p.parse_args(argv)
    if args.quick:
        args.games, args.simulations, args.train_steps, args.batch = 4, 4, 2, 16
        args.hidden, args.eval_games, args.final_games = 16, 2, 2
        args.eval_simulations = 4
    return args


def self_play(search, args, rng, first_seed):
    """Plays ``args.games`` games together; returns the training rows (observation, legal
    mask, visit shares, result for the seat that decided) and the number of decisions."""
    games = [ludus.new_game(args.game, seed=first_seed + i) for i in range(args.games)]
    roots = [Node(g.clone()) for g in games]
    rows = [[] for _ in games]
    while True:
        live = [i for i, g in enumerate(games) if not g.is_over()]
        if not live:
            break
        visits = search.run([roots[i] for i in live])
        for i, counts in zip(live, visits):
            root, g = roots[i], games[i]
            pi = np.zeros(g.num_distinct_actions, dtype=np.float32)
            pi[root.actions] = counts / counts.sum()
            legal = np.zeros(g.num_distinct_actions, dtype=bool)
            legal[root.actions] = True
            rows[i].append((g.observation_tensor(), legal, pi, g.to_move))
            # Early decisions are sampled so that games differ; later ones play the best.
            if len(rows[i]) <= args.temperature_moves:
                pick = rng.choice(len(counts), p=counts / counts.sum())
            else:
                pick = int(np.argmax(counts))
            action = int(root.actions[pick])
            g.apply(action)
            roots[i] = advance(root, action) or Node(g.clone())
    data = []
    for g, game_rows in zip(games, rows):
        returns = g.returns()
        data += [(obs, legal, pi, returns[seat]) for obs, legal, pi, seat in game_rows]
    return data, sum(len(r) for r in rows)


def match(search, args, games, seed):
    """The search (most visited action, no noise) against ``args.opponent`` in ``games`` games,
    seats alternating; returns wins, draws and losses of the search."""
    boards = [ludus.new_game(args.game, seed=seed + i) for i in range(games)]
    level = [ludus.agent(args.opponent, seed=seed + i) for i in range(games)]
    ours = [i % 2 for i in range(games)]
    roots = [None] * games
    while True:
        live = [i for i, g in enumerate(boards) if not g.is_over()]
        if not live:
            break
        for i in live:
            if boards[i].to_move != ours[i]:
                play(boards, roots, i, level[i].choose(boards[i]))
        mine = [i for i in live if not boards[i].is_over() and boards[i].to_move == ours[i]]
        for i in mine:
            roots[i] = roots[i] or Node(boards[i].clone())
        visits = search.run([roots[i] for i in mine]) if mine else []
        for i, counts in zip(mine, visits):
            play(boards, roots, i, int(roots[i].actions[int(np.argmax(counts))]))
    won = sum(g.outcome.winner == s for g, s in zip(boards, ours))
    drawn = sum(g.outcome.winner is None for g in boards)
    return {"games": games, "won": int(won), "drawn": int(drawn), "lost": int(games - won - drawn),
            "win_rate": won / games}


def play(boards, roots, i, action):
    boards[i].apply(action)
    roots[i] = advance(roots[i], action)


def train(net, buffer, args, rng, symmetries):
    obs, legal, pi, z = (np.stack(column) for column in zip(*buffer))
    losses = []
    for _ in range(args.train_steps):
        pick = rng.integers(0, len(obs), size=min(args.batch, len(obs)))
        batch = symmetries.apply(obs[pick], legal[pick], pi[pick])
        losses.append(net.train_step(*batch, z[pick].astype(np.float32)))
    return np.mean(losses, axis=0).tolist()


def evaluate_point(search, args, games, seed, metrics, trained_s, iteration):
    start, wall = time.process_time(), time.perf_counter()
    result = match(search, args, games, seed)
    result.update(iteration=iteration, train_minutes=round(trained_s / 60, 2),
                  eval_cpu_s=round(time.process_time() - start, 1),
                  eval_wall_s=round(time.perf_counter() - wall, 1))
    metrics["curve"].append(result)
    print(f"iteration {iteration} ({trained_s / 60:.1f} min): {result['won']}-{result['drawn']}-"
          f"{result['lost']} against {args.opponent}", flush=True)
    return result


def save(metrics, out):
    out.mkdir(parents=True, exist_ok=True)
    (out / "metrics.json").write_text(json.dumps(metrics, indent=1) + "\n")
    write_curve_svg(metrics, out / "curve.svg")


def main(argv=None):
    args = parse_args(argv)
    out = pathlib.Path(args.out)
    rng = np.random.default_rng(args.seed)
    try:
        probe = ludus.new_game(args.game)
    except ValueError as error:
        raise SystemExit(f"alphazero.py: {error}") from None
    if probe.num_players != 2:
        raise SystemExit(f"alphazero.py: {args.game} has {probe.num_players} seats: "
                         "expected a two-seat game")
    obs_size = int(np.prod(probe.observation_shape))
    backend, net = make_net(args.backend, obs_size, probe.num_distinct_actions, args.hidden,
                            args.lr, args.seed, pad=args.games)
    if args.load:
        net.params = pickle.loads(pathlib.Path(args.load).read_bytes())
    symmetries = Symmetries(args.game, rng)
    selfplay = Search(net, args.simulations, noise=0.25, rng=rng)
    # Playing the opponent may search deeper than self-play: its games are not training time.
    playing = Search(net, args.eval_simulations)
    metrics = {"settings": vars(args), "backend": backend, "curve": [], "iterations": []}
    # Evaluation games use seeds far from self-play's (by default), so no position is
    # rehearsed; the same games at every checkpoint.
    evaluate_point(playing, args, args.final_games, args.eval_seed, metrics, 0.0, 0)
    metrics["baseline"] = metrics["curve"][-1]
    save(metrics, out)
    buffer, trained_s, next_eval, iteration = [], 0.0, args.eval_every * 60, 0
    while iteration < args.iterations and trained_s < args.minutes * 60:
        iteration += 1
        step = iterate(net, selfplay, symmetries, buffer, args, rng, iteration)
        buffer = step.pop("buffer")
        trained_s += step["cpu_s"]
        metrics["iterations"].append(step)
        print(f"iteration {iteration}: {step['decisions']} decisions, "
              f"{step['decisions_per_cpu_s']:.0f} per CPU-second, "
              f"losses {step['loss_policy']:.3f} {step['loss_value']:.3f}", flush=True)
        if trained_s >= next_eval:
            evaluate_point(playing, args, args.eval_games, args.eval_seed, metrics, trained_s,
                           iteration)
            next_eval += args.eval_every * 60
        save(metrics, out)
    last = metrics["curve"][-1]
    if last["iteration"] != iteration or last["games"] < args.final_games:
        evaluate_point(playing, args, args.final_games, args.eval_seed, metrics, trained_s,
                       iteration)
    metrics["final"] = metrics["curve"][-1]
    save(metrics, out)
    # Plain arrays (JAX's included, through NumPy), so a later run can --load them.
    weights = [np.asarray(p) for p in net.params] if backend == "numpy" else net.params
    (out / "weights.pkl").write_bytes(pickle.dumps(to_numpy(weights)))


def to_numpy(tree):
    if isinstance(tree, dict):
        return {k: to_numpy(v) for k, v in tree.items()}
    if isinstance(tree, (list, tuple)):
        return [to_numpy(v) for v in tree]
    return np.asarray(tree)


def iterate(net, search, symmetries, buffer, args, rng, iteration):
    """One iteration: a batch of self-play games, then training on the kept positions.
    Times are the process's CPU time (one thread), which a quiet core turns into as many
    seconds of wall clock, and the wall clock it took here."""
    wall, cpu, leaves = time.perf_counter(), time.process_time(), search.leaves
    data, decisions = self_play(search, args, rng, iteration * args.games)
    play_cpu = time.process_time() - cpu
    buffer = (buffer + data)[-args.buffer:]
    loss_p, loss_v = train(net, buffer, args, rng, symmetries)
    cpu_s = time.process_time() - cpu
    return {"iteration": iteration, "decisions": decisions, "positions": len(buffer),
            "buffer": buffer, "cpu_s": round(cpu_s, 2), "selfplay_cpu_s": round(play_cpu, 2),
            "wall_s": round(time.perf_counter() - wall, 2),
            "decisions_per_cpu_s": round(decisions / max(play_cpu, 1e-9), 1),
            "leaves_per_cpu_s": round((search.leaves - leaves) / max(play_cpu, 1e-9), 1),
            "loss_policy": round(loss_p, 4), "loss_value": round(loss_v, 4)}

if __name__ == "__main__":
    main()
