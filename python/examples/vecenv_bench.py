"""Decisions per second of ludus.VecEnv against pgx (JAX game simulators) on the CPU, at
batch sizes 1, 64 and 1024, random legal actions chosen inside the loop on both sides.

    python python/examples/vecenv_bench.py [--seconds 3] [--threads 1]

Prints one line per game and batch size: decisions per wall-clock second and per CPU-second
of the process (all its threads: XLA runs several). pgx games are the nearest to each Ludus
game on the same machine: connect_four and othello (small boards, drops and flips), go_9x9
and animal_shogi (larger boards, moves). Needs `pip install pgx`.
"""

import argparse
import time

import numpy as np

import ludus

SIZES = (1, 64, 1024)


def measure(step, seconds):
    """Runs ``step()`` (one batch step, returning its decisions) for about ``seconds``."""
    step()  # warm up (pgx compiles here)
    decisions, wall, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds:
        decisions += step()
    return decisions / (time.perf_counter() - wall), decisions / (time.process_time() - cpu)


def ludus_stepper(game, n, threads):
    """Random legal actions drawn in Rust (`sample`), as pgx draws them inside its jitted step."""
    env = ludus.VecEnv(game, n, seed=1, threads=threads)

    def step():
        env.step(env.sample())
        return n

    return step


def pgx_stepper(name, n):
    import jax
    import jax.numpy as jnp
    import pgx

    env = pgx.make(name)
    init, step_fn = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))

    @jax.jit
    def act(state, key):
        key, sub = jax.random.split(key)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        action = jax.random.categorical(sub, logits, axis=1)
        state = step_fn(state, action)
        # Finished games start again, as VecEnv's do.
        fresh = init(jax.random.split(sub, n))
        done = state.terminated | state.truncated
        state = jax.tree_util.tree_map(
            lambda a, b: jnp.where(done.reshape((-1,) + (1,) * (a.ndim - 1)), b, a), state, fresh
        )
        return state, key

    holder = {"state": init(jax.random.split(jax.random.PRNGKey(0), n)), "key": jax.random.PRNGKey(1)}

    def step():
        holder["state"], holder["key"] = act(holder["state"], holder["key"])
        holder["state"].current_player.block_until_ready()
        return n

    return step


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--pgx", default="connect_four,othello,go_9x9,animal_shogi")
    args = parser.parse_args()
    print(f"{'simulator':<22} {'n':>5} {'decisions/s':>14} {'per CPU-s':>14}")
    for game in ludus.game_ids():
        for n in SIZES:
            wall, cpu = measure(ludus_stepper(game, n, args.threads), args.seconds)
            print(f"{'ludus ' + game:<22} {n:>5} {wall:>14,.0f} {cpu:>14,.0f}", flush=True)
    for name in filter(None, args.pgx.split(",")):
        for n in SIZES:
            wall, cpu = measure(pgx_stepper(name, n), args.seconds)
            print(f"{'pgx ' + name:<22} {n:>5} {wall:>14,.0f} {cpu:>14,.0f}", flush=True)


if __name__ == "__main__":
    main()
