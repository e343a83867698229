r"""Train MaskablePPO (sb3-contrib) on victorus's single-agent gymnasium env.

The learner plays one team of ``--env`` (``victorus/Compact2pQuick-v0`` by default: the
compact board, 2 players, the quick game of 6 rounds) against ``--opponent``, the
built-in agents that play the other teams inside the env's C step (R33: the reward is
the learner's team's, +1 won, -1 lost, 0 drawn or stopped). ``--opponent random,greedy``
(the default) trains against random players for the first half of ``--steps``, then
against greedy ones. Half of the ``--envs`` parallel envs seat the learner on the first
team, half on the second (one seat per team in general): the observation and the action
ids are in the frame of the army to act (``id_frame="observer"``), so one policy serves
every seat. The legal mask reaches MaskablePPO through the env's ``action_masks()``.

Before training (the untrained policy, or the ``--load`` one) and after it, the policy plays
``--eval-games`` games from each team's seat against every ``--eval-opponents``; the win
rate over both seats (a draw or an unfinished game is not a win) comes with its Wilson
95% interval, and per seat.

PyTorch goes first, as the CPU build (the default build on PyPI carries CUDA, several GB):

    pip install torch --index-url https://download.pytorch.org/whl/cpu
    pip install "victorus[rl]"
    python examples/train_maskable_ppo.py --quick                 # under a minute
    python examples/train_maskable_ppo.py --steps 100000 --opponent random --save ppo.zip
    python examples/train_maskable_ppo.py --steps 100000 --opponent greedy --load ppo.zip
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

import gymnasium
import numpy as np

from victorus.agents import OPPONENT_SPECS, VECTOR_KINDS
from victorus.errors import MissingDependencyError
from victorus.game import Game
from victorus.gym_env import ENV_IDS
from victorus.progress import Progress
from victorus.ratings import wilson

INSTALL = ('pip install torch --index-url https://download.pytorch.org/whl/cpu '
           '&& pip install "victorus[rl]"')

#: The PPO settings of a normal run, and those --quick changes (with the run's size).
PPO = dict(n_steps=256, batch_size=256, n_epochs=4, learning_rate=3e-4, gamma=0.99,
           ent_coef=0.01)
QUICK = dict(steps=2048, envs=4, eval_games=4, n_steps=64, batch_size=64, n_epochs=2)


def require_sb3():
    """The sb3_contrib module, or a MissingDependencyError that says how to install it."""
    try:
        import sb3_contrib
        import torch  # noqa: F401  (sb3-contrib imports it too; named here for the message)
    except ImportError as error:
        raise MissingDependencyError(
            f"this example needs sb3-contrib and PyTorch ({error.name} is missing): {INSTALL}"
        ) from None
    return sb3_contrib


def team_seats(env_id: str) -> list[int]:
    """One seat of each team (the first present), in team order: the seats learned from
    and evaluated (R33: team mates share the result)."""
    board, players, variant = ENV_IDS[env_id]
    config = Game(board, players=players, variant=variant).config
    first: dict[int, int] = {}
    for seat in config.present:
        first.setdefault(config.teams[seat], seat)
    return [first[team] for team in sorted(first)]


def make_env(env_id: str, opponent: str, seat: int, wrap=None) -> gymnasium.Env:
    """The env of the learner at ``seat``; ``wrap`` (a gymnasium wrapper class or any
    callable on the env) goes around it, e.g. to check every action."""
    env = gymnasium.make(env_id, opponent=opponent, seat=seat)
    return wrap(env) if wrap is not None else env


def make_vec_env(env_id: str, opponent: str, envs: int, seed: int, wrap=None):
    """``envs`` envs stepped in this process, the seats in turn (envs % seats == 0), each
    wrapped in sb3's Monitor (episode returns and lengths)."""
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import DummyVecEnv
    seats = team_seats(env_id)

    def factory(seat):
        return lambda: Monitor(make_env(env_id, opponent, seat, wrap))

    vec = DummyVecEnv([factory(seats[i % len(seats)]) for i in range(envs)])
    vec.seed(seed)
    return vec


def play_games(model, envs: list, seeds: list[int], deterministic: bool) -> tuple[list, list]:
    """One game in each env, from ``env.reset(seed=...)``, all stepped in lockstep with
    one batched prediction per step; the learner's final rewards and its actions per game."""
    observations, masks = {}, {}
    for i, (env, seed) in enumerate(zip(envs, seeds)):
        observations[i], info = env.reset(seed=seed)
        masks[i] = info["action_mask"]
    results, lengths = [0.0] * len(envs), [0] * len(envs)
    while observations:
        live = sorted(observations)
        actions, _ = model.predict(np.stack([observations[i] for i in live]),
                                   action_masks=np.stack([masks[i] for i in live]),
                                   deterministic=deterministic)
        for i, action in zip(live, actions):
            obs, reward, terminated, truncated, info = envs[i].step(int(action))
            lengths[i] += 1
            if terminated or truncated:
                results[i] = float(reward)
                del observations[i], masks[i]
            else:
                observations[i], masks[i] = obs, info["action_mask"]
    return results, lengths


def rate(wins: int, draws: int, games: int, actions: int) -> dict:
    """A win rate with its Wilson 95% interval; ``actions``: the learner's, in all the games."""
    low, high = wilson(wins, games)
    return {"games": games, "wins": wins, "draws": draws, "losses": games - wins - draws,
            "win_rate": wins / games, "wilson_95": [low, high], "actions": actions}


def evaluate(model, env_id: str, opponent: str, games: int, seed: int, wrap=None,
             deterministic: bool = True) -> dict:
    """``games`` games from each team's seat against ``opponent`` (seeds ``seed`` on),
    the policy choosing its most likely legal action (``deterministic``)."""
    seats, per_seat = team_seats(env_id), {}
    for seat in seats:
        envs = [make_env(env_id, opponent, seat, wrap) for _ in range(games)]
        results, lengths = play_games(model, envs, [seed + g for g in range(games)], deterministic)
        per_seat[seat] = rate(results.count(1.0), results.count(0.0), games, sum(lengths))
    total = rate(*(sum(r[key] for r in per_seat.values()) for key in ("wins", "draws", "games", "actions")))
    return {**total, "seats": per_seat}


def rollout_steps(args) -> int:
    return args.n_steps * args.envs


def stage_steps(args, stages: int) -> list[int]:
    """The steps each opponent trains for: ``--steps`` shared evenly, each share rounded
    up to whole rollouts (as sb3 collects them)."""
    rollout = rollout_steps(args)
    return [math.ceil(args.steps / stages / rollout) * rollout] * stages


def train(args, model, wrap=None) -> list[dict]:
    """Train against each opponent of ``--opponent`` in turn; per stage the steps, the
    seconds and the win rate of the last (up to 100) training episodes."""
    stages = []
    steps = stage_steps(args, len(args.opponent))
    with Progress(sum(steps), "training steps", enabled=args.progress) as bar:
        def advance(_locals, _globals) -> bool:
            bar.advance(args.envs)
            return True

        for k, (opponent, n) in enumerate(zip(args.opponent, steps)):
            if k:                  # the model was built on the first opponent's envs
                model.set_env(make_vec_env(args.env, opponent, args.envs, args.seed + 1000 * k, wrap))
                model.ep_info_buffer.clear()
            start = time.perf_counter()
            model.learn(n, callback=advance, reset_num_timesteps=k == 0)
            seconds = time.perf_counter() - start
            episodes = [info["r"] for info in model.ep_info_buffer]
            stages.append({"opponent": opponent, "steps": n, "seconds": seconds,
                           "steps_per_second": n / seconds, "episodes_seen": len(episodes),
                           "recent_win_rate": episodes.count(1.0) / max(len(episodes), 1)})
    return stages


def evaluation_row(args, model, label: str, wrap=None) -> dict:
    row = {}
    for opponent in args.eval_opponents:
        row[opponent] = evaluate(model, args.env, opponent, args.eval_games, 10_000 + args.seed, wrap)
    print(f"| {label} | " + " | ".join(format_rate(row[o]) for o in args.eval_opponents) + " |")
    return row


def format_rate(result: dict) -> str:
    low, high = result["wilson_95"]
    seats = "/".join(f"{r['win_rate']:.2f}" for r in result["seats"].values())
    return f"{result['win_rate']:.2f} [{low:.2f}, {high:.2f}] (seats {seats})"


def run(args, wrap=None) -> dict:
    """Build the model, evaluate it untrained, train, evaluate again; the run as a dict
    (also written to ``--json``). ``wrap`` goes around every env (training and evaluation)."""
    sb3_contrib = require_sb3()
    if args.threads:
        import torch
        torch.set_num_threads(args.threads)
    settings = {name: getattr(args, name) for name in PPO}
    first = make_vec_env(args.env, args.opponent[0], args.envs, args.seed, wrap)
    if args.load:                     # go on from a saved model, with this run's settings
        model = sb3_contrib.MaskablePPO.load(args.load, env=first, seed=args.seed, **settings)
    else:
        model = sb3_contrib.MaskablePPO("MlpPolicy", first, seed=args.seed, verbose=0, **settings)
    seats = team_seats(args.env)
    print(f"{args.env}: MaskablePPO, {args.envs} envs (learner seats {seats} in turn), "
          f"opponents {' then '.join(args.opponent)}")
    print("| policy | " + " | ".join(f"vs {o} [95% CI] (per seat)" for o in args.eval_opponents) + " |")
    print("|---|" + "---|" * len(args.eval_opponents))
    before = evaluation_row(args, model, f"loaded from {args.load}" if args.load else "untrained", wrap)
    stages = train(args, model, wrap)
    steps, seconds = sum(s["steps"] for s in stages), sum(s["seconds"] for s in stages)
    after = evaluation_row(args, model, f"after {steps:,} steps", wrap)
    for stage in stages:
        print(f"trained {stage['steps']:,} steps against {stage['opponent']} in "
              f"{stage['seconds']:.0f} s ({stage['steps_per_second']:.0f} steps/s); "
              f"won {stage['recent_win_rate']:.2f} of its last {stage['episodes_seen']} episodes")
    result = {"command": " ".join(["python examples/train_maskable_ppo.py", *args.argv]),
              "env": args.env, "seats": seats, "ppo": settings, "envs": args.envs,
              "stages": stages, "steps": steps, "seconds": seconds,
              "steps_per_second": steps / seconds,
              "loaded": args.load, "evaluation": {"before": before, "after": after}}
    if args.json:
        with open(args.json, "w") as out:
            json.dump(result, out, indent=1)
    if args.save:
        model.save(args.save)
    return result


def opponents(text: str) -> list[str]:
    """Comma-separated opponent specs of the env: random, greedy or a search in the step."""
    names = text.split(",")
    for name in names:
        if name.partition(":")[0] not in VECTOR_KINDS:
            raise argparse.ArgumentTypeError(
                f"opponents are {OPPONENT_SPECS}, comma-separated; got {name!r}")
    return names


def parse(argv: list[str]):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add = parser.add_argument
    add("--quick", action="store_true", help="a small run in under a minute")
    add("--env", default="victorus/Compact2pQuick-v0", choices=sorted(ENV_IDS))
    add("--opponent", type=opponents, default=["random", "greedy"],
        help="the in-env opponents trained against, in turn (default: random,greedy; "
             "also searches, e.g. mcts:50)")
    add("--steps", type=int, default=200_000, help="training steps (the learner's actions)")
    add("--envs", type=int, default=8, help="parallel envs, the learner's seats in turn")
    add("--eval-games", type=int, default=50, help="evaluation games per seat and opponent")
    add("--eval-opponents", type=opponents, default=["random", "greedy"])
    add("--n-steps", type=int, default=PPO["n_steps"], help="steps per env per rollout")
    add("--batch-size", type=int, default=PPO["batch_size"])
    add("--n-epochs", type=int, default=PPO["n_epochs"])
    add("--learning-rate", type=float, default=PPO["learning_rate"])
    add("--gamma", type=float, default=PPO["gamma"])
    add("--ent-coef", type=float, default=PPO["ent_coef"])
    add("--seed", type=int, default=0)
    add("--threads", type=int, default=1,
        help="torch threads (0: torch's choice); one is faster for this small network")
    add("--json", default=None, help="write the run (settings, speed, win rates) here")
    add("--save", default=None, help="save the trained model here (.zip)")
    add("--load", default=None, help="start from this saved model (e.g. trained against random)")
    add("--progress", action=argparse.BooleanOptionalAction, default=None,
        help="a progress bar on stderr (default: on a terminal)")
    args = parser.parse_args(argv)
    args.argv = list(argv)
    if args.quick:
        given = {a.lstrip("-").split("=")[0].replace("-", "_") for a in argv if a.startswith("--")}
        for name, value in QUICK.items():
            if name not in given:
                setattr(args, name, value)
    for name in ("steps", "envs", "eval_games", "n_steps", "batch_size", "n_epochs"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1, got {getattr(args, name)}")
    if args.load and not any(os.path.isfile(path) for path in (args.load, args.load + ".zip")):
        parser.error(f"--load: no saved model at {args.load}")
    for name in ("save", "json"):
        folder = os.path.dirname(os.path.abspath(getattr(args, name) or "."))
        if not os.path.isdir(folder):
            parser.error(f"--{name}: the folder {folder} does not exist")
    seats = len(team_seats(args.env))
    if args.envs % seats:
        parser.error(f"--envs must be a multiple of the {seats} teams of {args.env} "
                     f"(every team's seat learned from equally), got {args.envs}")
    return args


def main(argv: list[str] | None = None, wrap=None) -> dict:
    """Run the example; a missing sb3-contrib or PyTorch ends it with one line saying
    how to install them."""
    args = parse(sys.argv[1:] if argv is None else argv)
    try:
        return run(args, wrap)
    except MissingDependencyError as error:
        raise SystemExit(f"error: {error}") from None


if __name__ == "__main__":
    main()
