"""Train a small policy with victorus.vector: REINFORCE on a linear action scorer.

Red's team (seats 0, 2, 4 of the 2-player compact quick game) is played by the policy;
blue's team plays uniformly random legal actions drawn in C. The policy scores a legal
action from the observation columns of its two cells (the piece that moves, and what
stands on the target: a capture shows there), 2 x 88 features and one weight each,
and learns from the game result (+1 win, -1 loss, 0 draw) with a running baseline.
The observation is rotated to the army to act while action ids name absolute cells:
``victorus.tensors.id_columns`` gives the columns of an action's cells in that view.

    python examples/train_linear_policy.py [--iterations 3000] [--envs 32]

It prints the win rate of the policy's team as it learns: an untrained (uniform) policy
wins about 43% of these games, and on the 2-core development machine 3,000 iterations
(about 4 seconds, 1,700 games) take it above 90%. Then it plays the trained policy on
the other side, blue's team, with red's played by random agents inside the vector step
(``opponents``): the features are read in each mover's own frame, so what was learnt
for red's seats holds for blue's.
"""

import argparse

import numpy as np

from victorus.tensors import id_columns
from victorus.vector import VectorGames

RED_TEAM = (0, 2, 4)


def features(obs, ids, board, seat):
    """[legal actions, 2 * planes]: the observation columns of origin and target in the
    view of ``seat`` (the army to act); the words (stop, end, pass) get zeros."""
    origin, target = id_columns(board, ids, seat)
    legs = origin >= 0
    f = np.concatenate([obs[:, np.maximum(origin, 0)], obs[:, np.maximum(target, 0)]], axis=0).T
    f[~legs] = 0.0
    return f


def choose(weights, obs, ids, board, seat, rng):
    """Sample a legal id from the policy; also its features and probabilities."""
    f = features(obs, ids, board, seat)
    logits = f @ weights
    p = np.exp(logits - logits.max())
    p /= p.sum()
    k = rng.choice(len(ids), p=p)
    return ids[k], f[k] - p @ f


def train(iterations=300, envs=32, seed=0, learning_rate=0.05, report=50):
    games = VectorGames(envs, board="compact", players=2, variant="quick6", seed=seed)
    rng = np.random.default_rng(seed)
    weights = np.zeros(2 * games.observations.shape[1])
    grads = np.zeros((envs, weights.size))       # per game: sum of grad log pi this episode
    baseline, results, history = 0.0, [], []
    for it in range(1, iterations + 1):
        actions = games.sample().copy()           # blue's team: random
        for i in np.flatnonzero(np.isin(games.to_move, RED_TEAM) & (actions >= 0)):
            actions[i], grad = choose(weights, games.observations[i], np.flatnonzero(games.masks[i]),
                                      games.board, int(games.to_move[i]), rng)
            grads[i] += grad                      # grad of log pi(a)
        games.step(actions)
        for i in np.flatnonzero(games.terminated | games.truncated):
            outcome = float(games.rewards[i, 0])  # red's team: +1, -1, or 0
            weights += learning_rate * (outcome - baseline) * grads[i]
            baseline += 0.05 * (outcome - baseline)
            grads[i] = 0.0
            results.append(outcome > 0)
        if it % report == 0 and results:
            history.append(float(np.mean(results)))
            print(f"iteration {it}: {len(results)} games, red's team won {history[-1]:.0%}")
            results = []
    return weights, history


def evaluate(weights, games_wanted=400, envs=32, seed=1):
    """The policy's win rate on blue's team (seats 1, 3, 5) against random play on red's,
    which runs in C inside the step: every row is blue's turn."""
    games = VectorGames(envs, board="compact", players=2, variant="quick6", seed=seed,
                        opponents={"team:0": "random"})
    rng = np.random.default_rng(seed)
    actions = np.zeros(envs, np.int32)
    wins = played = 0
    while played < games_wanted:
        for i in range(envs):
            if not (games.terminated[i] or games.truncated[i]):      # else: it starts again
                actions[i], _ = choose(weights, games.observations[i],
                                       np.flatnonzero(games.masks[i]), games.board,
                                       int(games.to_move[i]), rng)
        games.step(actions)
        ended = np.flatnonzero(games.terminated | games.truncated)
        played += len(ended)
        wins += int((games.rewards[ended, 1] > 0).sum())
    return wins / played


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=3000)
    parser.add_argument("--envs", type=int, default=32)
    args = parser.parse_args()
    weights, _ = train(args.iterations, args.envs, report=max(1, args.iterations // 10))
    print(f"seats swapped: blue's team won {evaluate(weights):.0%} against random")
