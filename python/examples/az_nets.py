"""The policy-value networks of ``alphazero.py``: the same two-layer perceptron in JAX (Flax
and Optax, an optional dependency) and in plain NumPy (the path that needs no framework).

Both read an observation tensor, flattened, and return a policy over every action id (a
softmax over the legal ones only) and a value in -1..1 for the seat to move. Both train on
cross-entropy to the search's visit shares plus the squared error to the game's result, with
Adam.
"""

import numpy as np


def masked_softmax(logits, mask):
    logits = np.where(mask, logits, -1e9)
    logits = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(logits) * mask
    return e / e.sum(axis=1, keepdims=True)


class NumpyNet:
    """A two-layer perceptron with hand-written gradients and Adam."""

    def __init__(self, obs_size, num_actions, hidden=128, lr=1e-3, seed=0):
        rng = np.random.default_rng(seed)
        self.num_actions = num_actions

        def dense(n_in, n_out, scale=1.0):
            w = rng.normal(0, scale * np.sqrt(2.0 / n_in), (n_in, n_out))
            return [w.astype(np.float32), np.zeros(n_out, dtype=np.float32)]

        # The heads start near zero, so the untrained net is close to a uniform prior and a
        # zero value: the baseline is the search alone.
        self.params = dense(obs_size, hidden) + dense(hidden, hidden)
        self.params += dense(hidden, num_actions, 0.01) + dense(hidden, 1, 0.01)
        self.m = [np.zeros_like(p) for p in self.params]
        self.v = [np.zeros_like(p) for p in self.params]
        self.lr, self.t = lr, 0

    def forward(self, x):
        w1, b1, w2, b2, wp, bp, wv, bv = self.params
        h1 = np.maximum(x @ w1 + b1, 0)
        h2 = np.maximum(h1 @ w2 + b2, 0)
        return h1, h2, h2 @ wp + bp, np.tanh(h2 @ wv + bv)[:, 0]

    def predict(self, obs, mask):
        _, _, logits, value = self.forward(obs.reshape(len(obs), -1).astype(np.float32))
        return masked_softmax(logits, mask), value

    def train_step(self, obs, mask, pi, z):
        x = obs.reshape(len(obs), -1).astype(np.float32)
        w1, b1, w2, b2, wp, bp, wv, bv = self.params
        h1, h2, logits, value = self.forward(x)
        p = masked_softmax(logits, mask)
        n = len(x)
        loss_p = -np.sum(pi * np.log(p + 1e-12)) / n
        loss_v = np.mean((value - z) ** 2)
        d_logits = (p - pi) / n
        d_vpre = (2.0 * (value - z) * (1 - value**2) / n)[:, None]
        d_h2 = (d_logits @ wp.T + d_vpre @ wv.T) * (h2 > 0)
        d_h1 = (d_h2 @ w2.T) * (h1 > 0)
        grads = [x.T @ d_h1, d_h1.sum(0), h1.T @ d_h2, d_h2.sum(0),
                 h2.T @ d_logits, d_logits.sum(0), h2.T @ d_vpre, d_vpre.sum(0)]
        self.adam(grads)
        return float(loss_p), float(loss_v)

    def adam(self, grads, b1=0.9, b2=0.999, eps=1e-8):
        self.t += 1
        for p, g, m, v in zip(self.params, grads, self.m, self.v):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            m_hat = m / (1 - b1**self.t)
            v_hat = v / (1 - b2**self.t)
            p -= self.lr * m_hat / (np.sqrt(v_hat) + eps)


class JaxNet:
    """The same perceptron in Flax, trained by Optax's Adam; calls are jitted, and batches are
    padded to a fixed size so that each shape compiles once."""

    def __init__(self, obs_size, num_actions, hidden=128, lr=1e-3, seed=0, pad=64):
        import jax
        import jax.numpy as jnp
        import flax.linen as nn
        import optax

        self.num_actions, self.pad = num_actions, pad

        class Mlp(nn.Module):
            @nn.compact
            def __call__(self, x):
                h = nn.relu(nn.Dense(hidden)(x))
                h = nn.relu(nn.Dense(hidden)(h))
                small = nn.initializers.normal(0.01)
                logits = nn.Dense(num_actions, kernel_init=small)(h)
                return logits, jnp.tanh(nn.Dense(1, kernel_init=small)(h))[:, 0]

        model = Mlp()
        self.params = model.init(jax.random.PRNGKey(seed), jnp.zeros((1, obs_size)))
        self.optimizer = optax.adam(lr)
        self.opt_state = self.optimizer.init(self.params)

        def forward(params, x, mask):
            logits, value = model.apply(params, x)
            return jax.nn.log_softmax(jnp.where(mask, logits, -1e9)), value

        def loss(params, x, mask, pi, z):
            logp, value = forward(params, x, mask)
            loss_p = -jnp.mean(jnp.sum(pi * jnp.where(mask, logp, 0.0), axis=1))
            loss_v = jnp.mean((value - z) ** 2)
            return loss_p + loss_v, (loss_p, loss_v)

        def step(params, opt_state, x, mask, pi, z):
            grads, parts = jax.grad(loss, has_aux=True)(params, x, mask, pi, z)
            updates, opt_state = self.optimizer.update(grads, opt_state)
            return optax.apply_updates(params, updates), opt_state, parts

        def predict(params, x, mask):
            logp, value = forward(params, x, mask)
            return jnp.exp(logp), value

        self._predict = jax.jit(predict)
        self._step = jax.jit(step)

    def predict(self, obs, mask):
        n = len(obs)
        size = max(self.pad, 1 << (n - 1).bit_length())
        x = np.zeros((size, obs[0].size), dtype=np.float32)
        x[:n] = obs.reshape(n, -1)
        m = np.ones((size, self.num_actions), dtype=bool)
        m[:n] = mask
        priors, value = self._predict(self.params, x, m)
        return np.asarray(priors)[:n], np.asarray(value)[:n]

    def train_step(self, obs, mask, pi, z):
        x = obs.reshape(len(obs), -1).astype(np.float32)
        self.params, self.opt_state, (lp, lv) = self._step(
            self.params, self.opt_state, x, mask, pi.astype(np.float32), z.astype(np.float32))
        return float(lp), float(lv)


def make_net(backend, obs_size, num_actions, hidden, lr, seed, pad):
    """``backend`` is ``jax``, ``numpy`` or ``auto`` (JAX when Flax and Optax import)."""
    if backend == "auto":
        try:
            import flax.linen  # noqa: F401
            import optax  # noqa: F401

            backend = "jax"
        except ImportError:
            backend = "numpy"
    if backend == "jax":
        return "jax", JaxNet(obs_size, num_actions, hidden, lr, seed, pad)
    return "numpy", NumpyNet(obs_size, num_actions, hidden, lr, seed)
