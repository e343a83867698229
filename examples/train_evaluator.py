r"""Train a PUCT evaluator AlphaZero's way: self-play, a small network, evaluation.

Each iteration
1. plays ``--games`` self-play games with :class:`victorus.search.puct.PUCTAgent` guided by the
   current network (root Dirichlet noise, actions drawn from the visits for the first
   ``--explore-plies`` actions of a game, then the most visited);
2. stores every searched position in a bounded replay buffer: the uint8 observation in
   the mover's frame, the legal action ids in the mover's frame, the visit-count policy
   (``SearchResult.policy(1.0)``) and the result for the mover's team (+1 won, -1 lost,
   0 drawn or stopped at ``--max-actions``, R36);
3. trains the network on minibatches from the buffer (cross-entropy to the visit
   policy plus squared error to the result, Adam);
4. measures the win rate of PUCT with the network against ``greedy`` and against the
   C MCTS agent at the same time per decision (``mcts:0.05s`` against a 0.05 s PUCT by
   default), from random openings played twice with the colours swapped, with Wilson
   95% intervals; the curve (training minutes, win rates) is printed and, with
   ``--curve out.json``, written after every iteration.

The network (numpy; forward and backward written out, no framework needed) reads the
observation through two ReLU layers; its policy head has one weight row per action id
*in the mover's frame* (``id_frame="observer"``: the observation is rotated to the mover,
so are the ids), hence one set of weights serves every seat; its value head is a tanh
for the mover's team. R33: team mates share the value.

Self-play actors are plain ``victorus.Game`` objects, several stepped in turn per actor
(``--parallel``), one ``PUCTAgent`` each so that its tree is reused from move to move.
``VectorGames`` does not fit here: a search runs on a ``Game`` and reuses its tree
through the game's history, while ``VectorGames.game(i)`` is a copy without history, and
the C stepping it offers is negligible next to the searches. Actors run in this process,
in ``--workers`` processes, or on Ray with ``--backend ray`` (``pip install ray``).

    python examples/train_evaluator.py --minutes 15 --games 48 --workers 2 --eval-games 12 \
        --curve curve.json --save net.npz
    python examples/train_evaluator.py --quick          # a small run in under a minute
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import tempfile
import time
import zipfile
import zlib
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass

if __name__ == "__main__":             # this process and its actors: one BLAS thread each
    for _threads in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(_threads, "1")   # small matrices: BLAS threads only contend

import numpy as np  # noqa: E402  (after the thread settings, which numpy reads once)

import victorus
from victorus.agents import GreedyAgent, MCTSAgent, PUCTAgent
from victorus.checks import as_int
from victorus.constants import OBSERVATION_VERSION
from victorus.errors import ConfigError, MissingDependencyError, WorkerLost
from victorus.progress import Progress
from victorus.ratings import wilson
from victorus.tensors import id_columns, num_actions

OPPONENTS = ("greedy", "mcts")
BACKENDS = ("local", "ray")
#: A checkpoint (--save) is an .npz of the weights, the Adam state and these fields: the
#: format's name and version, the board it was trained on and the observation version
#: of its planes; --load checks them and every array's shape before using one.
CHECKPOINT_FORMAT = "victorus-train-evaluator"
CHECKPOINT_VERSION = 1


@dataclass(frozen=True)
class Setup:
    """The game and the self-play search, shared with every actor."""

    board: str = "compact"
    players: int = 2
    variant: str = "quick6"
    simulations: int = 64          # PUCT iterations per self-play decision
    batch_size: int = 8            # leaves per evaluator call
    explore_plies: int = 30        # actions drawn from the visits, then the most visited
    noise_fraction: float = 0.25
    dirichlet_alpha: float = 0.3
    max_actions: int = 400         # a game stopped there counts as a draw
    opening_plies: int = 4         # random actions before an evaluation game
    eval_seconds: float = 0.05     # time per decision of both sides in evaluation
    eval_iterations: int = 0       # > 0: also PUCT against mcts at this many iterations each
    c_puct: float = 1.5            # PUCT's exploration, in self-play and evaluation

    def new_game(self) -> victorus.Game:
        return victorus.Game(self.board, players=self.players, variant=self.variant)


# ---------------------------------------------------------------- the network


class Network:
    """A numpy MLP: features -> ReLU(W1) -> ReLU(W2) -> policy logits and a tanh value.

    ``policy[a]`` is the row of the policy head for observer-frame action id ``a``; a
    leaf's logits are gathered for its legal ids only. Trained with Adam."""

    NAMES = ("w1", "b1", "w2", "b2", "wp", "bp", "wv", "bv")

    def __init__(self, inputs: int, actions: int, hidden: int = 64, seed: int = 0,
                 learning_rate: float = 1e-3, weight_decay: float = 1e-4):
        rng = np.random.default_rng(seed)

        def layer(fan_in, shape):
            return (rng.standard_normal(shape) * math.sqrt(2.0 / fan_in)).astype(np.float32)

        self.params = {"w1": layer(inputs, (inputs, hidden)), "b1": np.zeros(hidden, np.float32),
                       "w2": layer(hidden, (hidden, hidden)), "b2": np.zeros(hidden, np.float32),
                       "wp": layer(hidden, (actions, hidden)) * 0.1,
                       "bp": np.zeros(actions, np.float32),
                       "wv": layer(hidden, hidden) * 0.1, "bv": np.zeros(1, np.float32)}
        self.learning_rate, self.weight_decay = learning_rate, weight_decay
        self.moments: dict = {}        # Adam's (m, v) per weight, made by the first step
        self.steps = 0
        self.board = ""                # the board trained on (written into checkpoints)

    @property
    def hidden(self) -> int:
        return self.params["b1"].size

    @staticmethod
    def features(observations) -> np.ndarray:
        """[K, planes * cells] float32 from uint8 observations: log(1 + count)."""
        x = observations.reshape(len(observations), -1).astype(np.float32)
        return np.log1p(x, out=x)

    def forward(self, observations, ids):
        """(logits [K, width] with -inf at padding, values [K], what backward needs)."""
        p = self.params
        x = self.features(observations)
        h1 = np.maximum(x @ p["w1"] + p["b1"], 0.0)
        h2 = np.maximum(h1 @ p["w2"] + p["b2"], 0.0)
        legal = ids >= 0
        safe = np.where(legal, ids, 0)
        rows = p["wp"][safe]                                   # [K, width, hidden]
        logits = np.einsum("kwh,kh->kw", rows, h2) + p["bp"][safe]
        logits = np.where(legal, logits, -np.inf)
        values = np.tanh(h2 @ p["wv"] + p["bv"][0])
        return logits, values, (x, h1, h2, legal, safe, rows)

    def predict(self, observations, ids):
        """Priors [K, width] (0 at padding) and values [K] for the mover's team."""
        logits, values, _ = self.forward(observations, ids)
        return softmax(logits), values

    def loss(self, observations, ids, policy, value, grads: bool = False):
        """(policy cross-entropy, value squared error) on a batch, and the gradients."""
        logits, values, cache = self.forward(observations, ids)
        priors = softmax(logits)
        k = len(values)
        log_priors = np.log(np.where(cache[3], priors, 1.0) + 1e-12)
        policy_loss = float(-(policy * log_priors).sum() / k)
        value_loss = float(((values - value) ** 2).mean())
        if not grads:
            return policy_loss, value_loss, None
        d_logits = np.where(cache[3], priors - policy, 0.0).astype(np.float32) / k
        d_value = (2.0 * (values - value) * (1.0 - values ** 2)).astype(np.float32) / k
        return policy_loss, value_loss, self._backward(d_logits, d_value, cache)

    def _backward(self, d_logits, d_value, cache):
        p = self.params
        x, h1, h2, legal, safe, rows = cache
        g = {"bv": np.array([d_value.sum()], np.float32), "wv": h2.T @ d_value}
        g["wp"] = np.zeros_like(p["wp"])
        np.add.at(g["wp"], safe, d_logits[:, :, None] * h2[:, None, :])
        g["bp"] = np.bincount(safe.ravel(), d_logits.ravel(), len(p["bp"])).astype(np.float32)
        d_h2 = np.einsum("kw,kwh->kh", d_logits, rows) + np.outer(d_value, p["wv"])
        d_h2 *= h2 > 0
        g["w2"], g["b2"] = h1.T @ d_h2, d_h2.sum(0)
        d_h1 = (d_h2 @ p["w2"].T) * (h1 > 0)
        g["w1"], g["b1"] = x.T @ d_h1, d_h1.sum(0)
        return g

    def train_step(self, observations, ids, policy, value) -> tuple[float, float]:
        """One Adam step on a minibatch; returns its losses before the step."""
        policy_loss, value_loss, grads = self.loss(observations, ids, policy, value, True)
        self.steps += 1
        beta1, beta2 = 0.9, 0.999
        correction = math.sqrt(1 - beta2 ** self.steps) / (1 - beta1 ** self.steps)
        for name, grad in grads.items():
            m, v = self.moments.setdefault(name, (np.zeros_like(grad), np.zeros_like(grad)))
            m *= beta1
            m += (1 - beta1) * grad
            v *= beta2
            v += (1 - beta2) * grad * grad
            param = self.params[name]
            param -= self.learning_rate * (correction * m / (np.sqrt(v) + 1e-8)
                                           + self.weight_decay * param)
        return policy_loss, value_loss

    def state(self) -> dict:
        """The weights as plain arrays (what an actor needs)."""
        return {k: v for k, v in self.params.items()}

    @classmethod
    def from_state(cls, state: dict) -> "Network":
        net = cls(1, 1, 1)
        net.params = {k: np.asarray(state[k], np.float32) for k in cls.NAMES}
        return net

    def save(self, path: str) -> None:
        """The weights and the Adam state, written atomically (a temporary file renamed)."""
        arrays = dict(self.params)
        for name, (m, v) in self.moments.items():
            arrays[f"m_{name}"], arrays[f"v_{name}"] = m, v
        arrays["steps"] = np.array(self.steps)
        arrays.update(format=np.array(CHECKPOINT_FORMAT), version=np.array(CHECKPOINT_VERSION),
                      board=np.array(self.board), observation_version=np.array(OBSERVATION_VERSION))
        atomic_write(path, lambda f: np.savez(f, **arrays), binary=True)

    @classmethod
    def load(cls, path: str, learning_rate: float = 1e-3, *, board: str | None = None,
             inputs: int | None = None, actions: int | None = None,
             hidden: int | None = None) -> "Network":
        """The network saved at ``path``, checked: its format and version, then (when
        given) the ``board``, ``inputs`` and ``actions`` of the run, and ``hidden``;
        ConfigError naming the file and the mismatch otherwise."""
        try:
            with np.load(path, allow_pickle=False) as data:
                saved = {k: data[k] for k in data.files}
        except (OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile, zlib.error) as exc:
            raise ConfigError(f"{path}: not a readable checkpoint ({type(exc).__name__}: "
                              f"{exc})") from None

        def refuse(why: str):
            raise ConfigError(f"{path}: {why}")
        if str(saved.get("format", "")) != CHECKPOINT_FORMAT:
            refuse(f"not a network checkpoint of examples/train_evaluator.py (no "
                   f"{CHECKPOINT_FORMAT!r} format field)")
        if as_int(saved.get("version")) != CHECKPOINT_VERSION:
            refuse(f"checkpoint version {saved.get('version')}; this script reads version "
                   f"{CHECKPOINT_VERSION}")
        if as_int(saved.get("observation_version")) != OBSERVATION_VERSION:
            refuse(f"trained on observation version {saved.get('observation_version')}; "
                   f"this victorus writes version {OBSERVATION_VERSION}")
        missing = [k for k in (*cls.NAMES, "steps", "board") if k not in saved]
        if missing:
            refuse(f"not a whole network checkpoint: it lacks {missing}")
        made_for = str(saved["board"])
        w1, wp = saved["w1"], saved["wp"]
        if w1.ndim != 2 or wp.ndim != 2:
            refuse(f"w1 and wp must be matrices, got shapes {w1.shape} and {wp.shape}")
        (n_in, width), n_act = w1.shape, wp.shape[0]
        shapes = {"w1": (n_in, width), "b1": (width,), "w2": (width, width), "b2": (width,),
                  "wp": (n_act, width), "bp": (n_act,), "wv": (width,), "bv": (1,)}
        for name, shape in shapes.items():
            array = saved[name]
            if array.shape != shape or array.dtype.kind != "f":
                refuse(f"{name} is {array.dtype} {array.shape}, expected float {shape}")
            for moment in (f"m_{name}", f"v_{name}"):
                if moment in saved and saved[moment].shape != shape:
                    refuse(f"{moment} has shape {saved[moment].shape}, expected {shape}")
        steps = as_int(saved["steps"])
        if steps is None or steps < 0:
            refuse(f"steps must be an integer >= 0, got {saved['steps']}")
        if (board is not None and made_for != board) or (inputs, actions) not in (
                (None, None), (n_in, n_act)):
            refuse(f"made for the {made_for or 'unnamed'} board ({n_in} inputs, {n_act} "
                   f"actions); this run plays the {board} board ({inputs} inputs, "
                   f"{actions} actions)")
        if hidden is not None and hidden != width:
            refuse(f"has {width} hidden units, --hidden {hidden} contradicts it (leave "
                   f"--hidden out to use the checkpoint's)")
        net = cls.from_state({k: saved[k] for k in cls.NAMES})
        for name in cls.NAMES:
            if f"m_{name}" in saved and f"v_{name}" in saved:
                net.moments[name] = (saved[f"m_{name}"].copy(), saved[f"v_{name}"].copy())
        net.steps, net.board = steps, made_for
        net.learning_rate = learning_rate
        return net


def softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax; -inf entries get 0."""
    top = logits.max(axis=1, keepdims=True)
    e = np.exp(logits - top)
    return e / e.sum(axis=1, keepdims=True)


def atomic_write(path: str, write, binary: bool = False) -> None:
    """Write through ``write(file)`` to a temporary file beside ``path``, then rename it:
    a reader never sees half a file."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=os.path.basename(path))
    try:
        with os.fdopen(fd, "wb" if binary else "w") as f:
            write(f)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


class NetEvaluator:
    """A PUCT evaluator over a Network: priors over the leaves' observer-frame ids and
    the value for the army to act's team."""

    def __init__(self, net: Network):
        self.net = net

    def __call__(self, batch):
        priors, values = self.net.predict(batch.observations, batch.legal_ids)
        return priors, np.clip(values, -1.0, 1.0).astype(np.float64)


# ---------------------------------------------------------------- self-play


def observer_ids(game) -> np.ndarray:
    """The legal ids (legal_actions() order) in the frame of the army to act, as PUCT's
    ``id_frame="observer"`` gives them: a leg's cells rotated to the mover, the words
    (stop, end, pass) unchanged."""
    board, ids = game.board, game.legal_action_ids()
    origin, target = id_columns(board, ids, game.to_move)
    return np.where(origin >= 0, origin * len(board) + target, ids).astype(np.int32)


def selfplay_agent(setup: Setup, evaluator, seed: int) -> PUCTAgent:
    return PUCTAgent(setup.simulations, evaluator=evaluator, batch_size=setup.batch_size,
                     noise_fraction=setup.noise_fraction, dirichlet_alpha=setup.dirichlet_alpha,
                     c_puct=setup.c_puct, id_frame="observer", seed=seed)


def selfplay_move(game, agent, rng, setup: Setup, positions: list) -> None:
    """Search, record the position (if there was a choice), play an action."""
    actions = game.legal_actions()
    if len(actions) == 1:
        game.play(actions[0])
        return
    result = agent.search(game)
    target = result.policy(1.0)
    seat = game.to_move
    positions.append((game.observation(seat, dtype="uint8"),
                      observer_ids(game),
                      np.asarray(target, np.float32), seat))
    if game.ply < setup.explore_plies:
        game.play(rng.choices(result.actions, target)[0])
    else:
        game.play(result.action)


def game_values(game, positions: list) -> list:
    """The samples of a finished (or stopped) game: the result for each mover's team."""
    teams = game.config.teams
    winner = teams[game.winners[0]] if game.is_over and game.winners else None
    return [(obs, ids, policy, 0.0 if winner is None else (1.0 if teams[seat] == winner else -1.0))
            for obs, ids, policy, seat in positions]


def play_selfplay(state: dict, setup: Setup, games: int, parallel: int, seed: int):
    """Play ``games`` self-play games, ``parallel`` at a time stepped in turn, each with its
    own PUCTAgent (tree reuse). Returns (samples, actions played, games)."""
    evaluator = NetEvaluator(Network.from_state(state))
    rng = random.Random(seed)
    slots: list = []
    samples: list = []
    started = actions = 0
    while started < games or slots:
        while started < games and len(slots) < parallel:
            slots.append((setup.new_game(), selfplay_agent(setup, evaluator, seed * 7919 + started),
                          []))
            started += 1
        for slot in list(slots):
            game, agent, positions = slot
            selfplay_move(game, agent, rng, setup, positions)
            actions += 1
            if game.is_over or game.ply >= setup.max_actions:
                samples.extend(game_values(game, positions))
                slots.remove(slot)
    return samples, actions, games


class ReplayBuffer:
    """The last ``capacity`` positions: uint8 observations in a ring, legal ids and visit
    policies of varying width beside them."""

    def __init__(self, capacity: int, planes: int, cells: int):
        self.observations = np.zeros((capacity, planes, cells), np.uint8)
        self.ids: list = [None] * capacity
        self.policies: list = [None] * capacity
        self.values = np.zeros(capacity, np.float32)
        self.size = self.next = 0

    def add(self, samples) -> None:
        capacity = len(self.values)
        for obs, ids, policy, value in samples:
            i = self.next
            self.observations[i], self.ids[i], self.policies[i], self.values[i] = \
                obs, ids, policy, value
            self.next = (i + 1) % capacity
            self.size = min(self.size + 1, capacity)

    def sample(self, rng: np.random.Generator, size: int):
        """A minibatch: (observations, ids [B, width] padded -1, policies, values)."""
        rows = rng.integers(0, self.size, min(size, self.size))
        width = max(len(self.ids[i]) for i in rows)
        ids = np.full((len(rows), width), -1, np.int32)
        policy = np.zeros((len(rows), width), np.float32)
        for k, i in enumerate(rows):
            ids[k, :len(self.ids[i])] = self.ids[i]
            policy[k, :len(self.policies[i])] = self.policies[i]
        return self.observations[rows], ids, policy, self.values[rows]


def train(net: Network, buffer: ReplayBuffer, steps: int, batch: int,
          rng: np.random.Generator, probe_size: int = 512) -> dict:
    """``steps`` Adam steps on minibatches of the buffer; the losses on a sample of up to
    ``probe_size`` buffer positions before and after them (what the steps minimise)."""
    probe = buffer.sample(rng, probe_size)
    before = net.loss(*probe)[:2]
    running = [net.train_step(*buffer.sample(rng, batch)) for _ in range(steps)]
    after = net.loss(*probe)[:2]
    return {"steps": steps, "policy_before": before[0], "value_before": before[1],
            "policy_after": after[0], "value_after": after[1],
            "policy_mean": float(np.mean([r[0] for r in running])),
            "value_mean": float(np.mean([r[1] for r in running]))}


# ---------------------------------------------------------------- evaluation


def random_opening(setup: Setup, seed: int) -> victorus.Game:
    """A start position after ``setup.opening_plies`` seeded random actions."""
    rng = random.Random(seed)
    game = setup.new_game()
    while game.ply < setup.opening_plies and not game.is_over:
        game.play(rng.choice(game.legal_actions()))
    return game


def opponents(setup: Setup) -> tuple[str, ...]:
    """The evaluation's opponents: greedy, the C MCTS at equal time and, with
    ``eval_iterations``, the C MCTS at equal iterations."""
    return OPPONENTS + (("mcts-iterations",) if setup.eval_iterations else ())


def opponent_name(opponent: str, setup: Setup) -> str:
    return {"greedy": "greedy", "mcts": f"mcts:{setup.eval_seconds:g}s",
            "mcts-iterations": f"mcts:{setup.eval_iterations}"}[opponent]


def opponent_agent(opponent: str, setup: Setup, seed: int):
    if opponent == "greedy":
        return GreedyAgent(seed)
    if opponent == "mcts-iterations":
        return MCTSAgent(setup.eval_iterations, seed=seed)
    return MCTSAgent(None, seconds=setup.eval_seconds, seed=seed)


def play_evaluation(state: dict, setup: Setup, opponent: str, indices, seed: int) -> list:
    """Evaluation games ``indices``: game ``i`` starts from opening ``i // 2``, the
    network's team is the first team for even ``i``, the second for odd ``i``.
    Returns 'win', 'loss' or 'draw' (a draw: drawn or stopped at max_actions) per game."""
    evaluator = NetEvaluator(Network.from_state(state))
    outcomes = []
    for i in indices:
        game = random_opening(setup, seed * 100_003 + i // 2)
        teams = sorted(set(game.config.teams))
        mine = teams[i % 2]
        budget = ({"iterations": setup.eval_iterations} if opponent == "mcts-iterations"
                  else {"iterations": None, "seconds": setup.eval_seconds})
        net_agent = PUCTAgent(**budget, evaluator=evaluator, batch_size=setup.batch_size,
                              c_puct=setup.c_puct, id_frame="observer", seed=seed + i)
        other = opponent_agent(opponent, setup, seed + i)
        while not game.is_over and game.ply < setup.max_actions:
            agent = net_agent if game.config.teams[game.to_move] == mine else other
            game.play(agent.choose(game.copy()))     # an agent never changes the game
        if not game.is_over or not game.winners:
            outcomes.append("draw")
        else:
            outcomes.append("win" if game.config.teams[game.winners[0]] == mine else "loss")
    return outcomes


def summarise(opponent: str, outcomes: list) -> dict:
    wins, games = outcomes.count("win"), len(outcomes)
    return {"opponent": opponent, "games": games, "wins": wins, "draws": outcomes.count("draw"),
            "win_rate": wins / games if games else 0.0, "wilson_95": list(wilson(wins, games))}


# ---------------------------------------------------------------- actors


class Actors:
    """Where self-play and evaluation tasks run: this process (``workers`` 1), a pool of
    ``workers`` processes, or Ray (``backend='ray'``, as ``victorus.simulate`` does)."""

    def __init__(self, backend: str = "local", workers: int = 1, address: str | None = None):
        if backend not in BACKENDS:
            raise ConfigError(f"--backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
        if workers < 1:
            raise ConfigError(f"--workers must be at least 1, got {workers}")
        self.backend, self.workers, self.pool, self.ray = backend, workers, None, None
        if backend == "ray":
            try:
                import ray
            except ImportError:
                raise MissingDependencyError("--backend ray needs Ray: pip install ray") from None
            if not ray.is_initialized():
                ray.init(address=address, num_cpus=None if address else workers,
                         include_dashboard=False, log_to_driver=False)
            self.ray = ray
        elif workers > 1:
            self.pool = ProcessPoolExecutor(workers)

    def map(self, function, calls: list, bar: Progress | None = None, weight=lambda r: 1) -> list:
        """``function(*call)`` for every call, results in call order; ``bar`` advances by
        ``weight(result)`` as each one comes."""
        if self.ray is not None:
            task = self.ray.remote(max_retries=0)(function)    # a lost task is an error
            pending, get = [task.remote(*call) for call in calls], self._ray_result
        elif self.pool is not None:
            pending, get = [self.pool.submit(function, *call) for call in calls], self._result
        else:
            pending, get = calls, lambda call: function(*call)
        results = []
        for item in pending:
            results.append(get(item))
            if bar is not None:
                bar.advance(weight(results[-1]))
        return results

    def _result(self, future):
        """A pool task's result; a worker that died (the out-of-memory killer, kill -9)
        is a WorkerLost naming it, as victorus's own pools say it."""
        try:
            return future.result()
        except BrokenProcessPool:
            raise WorkerLost("a worker process died (killed, or out of memory): the run stops; "
                             "--save holds the network of the last finished iteration") from None

    def _ray_result(self, ref):
        from ray.exceptions import RayError, RayTaskError
        try:
            return self.ray.get(ref)
        except RayTaskError:
            raise
        except RayError as exc:
            raise WorkerLost(f"a Ray worker was lost ({type(exc).__name__}): the run stops; "
                             f"--save holds the network of the last finished iteration") from None

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()
        if self.ray is not None:
            self.ray.shutdown()


def split(items: list, parts: int) -> list:
    """``items`` in up to ``parts`` contiguous chunks (none empty)."""
    size = max(1, math.ceil(len(items) / parts))
    return [items[i:i + size] for i in range(0, len(items), size)]


def selfplay_round(actors: Actors, net: Network, setup: Setup, games: int, parallel: int,
                   seed: int, progress) -> tuple[list, int]:
    """``games`` self-play games shared out over the actors: (samples, actions played)."""
    chunks = split(list(range(games)), max(actors.workers, math.ceil(games / parallel)))
    calls = [(net.state(), setup, len(chunk), parallel, seed * 1000 + k)
             for k, chunk in enumerate(chunks)]
    with Progress(games, "self-play games", progress) as bar:
        parts = actors.map(play_selfplay, calls, bar, weight=lambda r: r[2])
    samples = [s for part, _, _ in parts for s in part]
    return samples, sum(n for _, n, _ in parts)


def evaluate(actors: Actors, net: Network, setup: Setup, games: int, seed: int,
             progress) -> dict:
    """Win rates of PUCT with the network against each opponent, ``games`` games each."""
    report = {}
    with Progress(games * len(opponents(setup)), "evaluation games", progress) as bar:
        for opponent in opponents(setup):
            chunks = split(list(range(games)), actors.workers)
            calls = [(net.state(), setup, opponent, chunk, seed) for chunk in chunks]
            parts = actors.map(play_evaluation, calls, bar, weight=len)
            name = opponent_name(opponent, setup)
            report[name] = summarise(name, [o for part in parts for o in part])
    return report


# ---------------------------------------------------------------- the loop


def point_line(point: dict) -> str:
    """One line of the printed curve."""
    rates = "  ".join(f"vs {name} {r['win_rate']:.2f} [{r['wilson_95'][0]:.2f}, "
                      f"{r['wilson_95'][1]:.2f}]" for name, r in point["evaluation"].items())
    loss = point.get("loss")
    trained = "" if loss is None else (f"  loss {loss['policy_before'] + loss['value_before']:.3f}"
                                       f" -> {loss['policy_after'] + loss['value_after']:.3f}")
    return (f"iteration {point['iteration']:>3}  {point['minutes']:6.2f} min  "
            f"{point['games']:>5} games{trained}  {rates}")


def curve_table(points: list) -> str:
    """The curve as a Markdown table: training and wall minutes, games, win rates."""
    names = list(points[0]["evaluation"]) if points else []
    lines = ["| training min | wall min | self-play games | "
             + " | ".join(f"vs {n} [95% CI]" for n in names) + " |",
             "|---:|---:|---:|" + "---|" * len(names)]
    for p in points:
        cells = [f"{r['win_rate']:.2f} [{r['wilson_95'][0]:.2f}, {r['wilson_95'][1]:.2f}]"
                 for r in p["evaluation"].values()]
        lines.append(f"| {p['minutes']:.1f} | {p['wall_minutes']:.1f} | {p['games']} | "
                     + " | ".join(cells) + " |")
    return "\n".join(lines)


def write_curve(path: str | None, run: dict) -> None:
    if path:
        atomic_write(path, lambda f: json.dump(run, f, indent=1))


def iterate(args, net, setup, actors, buffer, rng, clock) -> dict:
    """Self-play and training (the evaluation follows in run): the point's figures."""
    seed = args.seed * 10_007 + clock["iteration"]
    started = time.perf_counter()
    samples, actions = selfplay_round(actors, net, setup, args.games, args.parallel, seed,
                                      args.progress)
    buffer.add(samples)
    loss = train(net, buffer, args.steps, args.batch, rng)
    clock["training"] += time.perf_counter() - started
    clock["games"] += args.games
    return {"loss": loss, "samples": len(samples), "actions": actions}


def run(args) -> dict:
    """The training loop; returns the run (settings and curve) as written to --curve."""
    setup = args.setup
    game = setup.new_game()
    planes, cells = game.observation(0, dtype="uint8").shape
    if args.load:                            # checked against this run in parse()
        net = Network.load(args.load, args.learning_rate, board=setup.board,
                           inputs=planes * cells, actions=num_actions(game.board),
                           hidden=args.hidden)
    else:
        net = Network(planes * cells, num_actions(game.board), args.hidden, args.seed,
                      args.learning_rate)
        net.board = setup.board
    buffer = ReplayBuffer(args.buffer, planes, cells)
    rng = np.random.default_rng(args.seed)
    actors = Actors(args.backend, args.workers, args.address)
    clock = {"iteration": 0, "training": 0.0, "games": 0, "start": time.perf_counter()}
    result = {"command": " ".join(["python", "examples/train_evaluator.py"] + args.argv),
              "setup": asdict(setup), "hidden": net.hidden, "points": []}
    try:
        while True:
            point = {"iteration": clock["iteration"]}
            if clock["iteration"] > 0:
                point.update(iterate(args, net, setup, actors, buffer, rng, clock))
            point.update(minutes=clock["training"] / 60, games=clock["games"],
                         buffer=buffer.size,
                         evaluation=evaluate(actors, net, setup, args.eval_games,
                                             args.seed + clock["iteration"], args.progress),
                         wall_minutes=(time.perf_counter() - clock["start"]) / 60)
            result["points"].append(point)
            print(point_line(point), flush=True)
            write_curve(args.curve, result)
            if args.save and clock["iteration"] > 0:
                net.save(args.save)
            clock["iteration"] += 1
            if clock["iteration"] > args.iterations or point["wall_minutes"] >= args.minutes:
                break
    finally:
        actors.close()
    print(curve_table(result["points"]))
    return result


#: --quick: a tiny network and a few short games, under a minute on 2 cores. Bounded by
#: its two iterations, not by the clock: a loaded machine takes longer, never fewer.
QUICK = {"iterations": 2, "games": 4, "parallel": 2, "simulations": 16, "hidden": 16,
         "steps": 12, "batch": 32, "eval_games": 2, "eval_seconds": 0.005, "max_actions": 150,
         "buffer": 4000}


def parse(argv: list[str]):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add = parser.add_argument
    add("--quick", action="store_true", help="a small run in under a minute")
    add("--iterations", type=int, default=1000,
        help="at most this many iterations (0: evaluate the --load network only)")
    add("--minutes", type=float, default=60.0,
        help="stop after the iteration that passes this much wall time")
    add("--games", type=int, default=32, help="self-play games per iteration")
    add("--parallel", type=int, default=8, help="self-play games stepped in turn per actor")
    add("--simulations", type=int, default=64, help="PUCT iterations per self-play decision")
    add("--hidden", type=int, default=None,
        help="units in each hidden layer (default 64; with --load, the checkpoint's)")
    add("--learning-rate", type=float, default=1e-3)
    add("--steps", type=int, default=64, help="training minibatches per iteration")
    add("--batch", type=int, default=128, help="positions per minibatch")
    add("--buffer", type=int, default=50_000, help="replay buffer capacity (positions)")
    add("--eval-games", type=int, default=10,
        help="evaluation games per opponent (random openings, colours swapped)")
    add("--eval-seconds", type=float, default=0.05,
        help="seconds per decision of both sides in evaluation (mcts:<this>s)")
    add("--eval-iterations", type=int, default=0,
        help="also evaluate at equal iterations: PUCT and mcts:<this> (0: only equal time)")
    add("--c-puct", type=float, default=1.5, help="PUCT's exploration constant")
    add("--leaf-batch", type=int, default=8, help="leaves per evaluator call in PUCT")
    add("--max-actions", type=int, default=400, help="a game stopped here is a draw (R36)")
    add("--variant", default="quick6")
    add("--board", default="compact")
    add("--players", type=int, default=2)
    add("--seed", type=int, default=0)
    add("--workers", type=int, default=1, help="actor processes (or Ray workers)")
    add("--backend", default="local", choices=BACKENDS)
    add("--address", default=None, help="the Ray cluster's address (--backend ray)")
    add("--curve", default=None, help="write the run and its curve to this JSON file")
    add("--save", default=None, help="save the network here (.npz) after every iteration")
    add("--load", default=None, help="start from this saved network")
    add("--progress", action=argparse.BooleanOptionalAction, default=None,
        help="progress bars on stderr (default: on a terminal)")
    args = parser.parse_args(argv)
    if args.quick:
        given = {a.lstrip("-").replace("-", "_") for a in argv if a.startswith("--")}
        for name, value in QUICK.items():
            if name not in given and not (name == "hidden" and args.load):
                setattr(args, name, value)
    if args.iterations < 0:
        parser.error(f"--iterations must be at least 0 (0: evaluate only), got {args.iterations}")
    for name in ("games", "parallel", "simulations", "hidden", "steps", "batch",
                 "buffer", "eval_games", "max_actions"):
        if getattr(args, name) is not None and getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1, got {getattr(args, name)}")
    for option in ("curve", "save"):
        path = getattr(args, option)
        if path and not os.path.isdir(os.path.dirname(os.path.abspath(path))):
            parser.error(f"--{option} {path}: its folder does not exist")
    if args.load and not os.path.isfile(args.load):
        parser.error(f"--load {args.load}: no such file")
    if args.eval_iterations < 0 or args.c_puct < 0 or args.leaf_batch < 1:
        parser.error("--eval-iterations and --c-puct must be at least 0, --leaf-batch at least 1")
    args.setup = Setup(args.board, args.players, args.variant, args.simulations,
                       batch_size=args.leaf_batch, max_actions=args.max_actions,
                       eval_seconds=args.eval_seconds, eval_iterations=args.eval_iterations,
                       c_puct=args.c_puct)
    game = args.setup.new_game()              # a bad board, player count or variant fails here
    if args.load:                             # one line naming the file and the mismatch
        try:
            args.hidden = Network.load(
                args.load, board=args.board, inputs=game.observation(0, dtype="uint8").size,
                actions=num_actions(game.board), hidden=args.hidden).hidden
        except ConfigError as error:
            parser.error(f"--load {error}")
    elif args.hidden is None:
        args.hidden = 64
    args.argv = list(argv)
    return args


def main(argv: list[str] | None = None) -> dict:
    return run(parse(sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    try:
        main()
    except WorkerLost as lost:                 # one line, not a traceback
        sys.exit(f"train_evaluator: error: {lost}")
