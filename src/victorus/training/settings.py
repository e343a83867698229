"""A training run's settings (victorus.training): what a run does, each setting checked, and
the configurations its self-play deals its games over (`MIX`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..checks import check_int, shown
from ..errors import ConfigError
from ..evaluation.twin import SIZES
from ..game import Game
from .selfplay import Play

ELO_LIMIT = 4000.0
"""The largest Elo of the acceptance test's hypotheses, either way."""
MIX: tuple[tuple[str, int, str, int], ...] = (
    ("compact", 2, "standard", 4),
    ("compact", 2, "quick", 1),
    ("standard", 2, "standard", 2),
    ("compact", 3, "standard", 1),
    ("compact", 4, "standard", 1),
    ("standard", 3, "standard", 1),
    ("standard", 4, "standard", 1),
    ("standard", 5, "standard", 1),
    ("standard", 6, "standard", 2),
    ("standard", 6, "allied", 1),
    ("standard", 6, "quick", 1),
)
"""The configurations self-play deals its games over, each (board, players, variant) with its share of the
games."""
DECAY_TOWARD = ("best", "zero")
"""What AdamW's decay may pull the weights toward: the best network so far, or 0."""
BACKENDS = ("local", "ray")
"""Where self-play runs: here (on ``workers`` processes) or as Ray tasks."""
GATE_ARMIES = (2, 3, 6)
"""The army counts the acceptance test plays by default, those of them the mix has."""


@dataclass
class Settings:
    """What a training run does (victorus.training.run's docstring); `train` checks them.

    Args:
        rounds: Rounds of self-play, training and gating after round 0.
        games: Self-play games per round.
        iterations: The fast search's iterations per self-play decision.
        label_iterations: The deep search's iterations (the labelled decisions).
        label_share: The share of self-play decisions searched deep and kept, 0 to 1.
        noise: The root Dirichlet noise's share of the fast searches' priors, 0 to 1.
        label_noise: The deep (labelling) search's, 0 to 1 (its visits are the policy
            label).
        opening: Random actions at most before the search plays.
        max_actions: A self-play game stops there.
        blend: The deep search's value's share of a value label, 0 to 1.
        distil: Self-play searched with the best network so far (else round 0's).
        window: Rounds whose positions are trained on (a replay window: each position
            is read in ``window`` rounds, ``window x epochs`` times in all).
        epochs: Passes of Adam over the window per round.
        batch: Positions per step of Adam.
        learning_rate: Adam's learning rate.
        weight_decay: AdamW's decay, per unit of learning rate.
        decay_toward: What the decay pulls the weights toward: "best" (the best network so
            far: a round keeps what the rounds before it learnt unless its data says
            otherwise) or "zero".
        policy_weight: The policy's cross-entropy's weight in the loss.
        hidden: The first hidden layer's size (a fresh start).
        hidden2: The second hidden layer's size (a fresh start).
        start: The network round 0 is: "default", a shipped network's name, a file's
            path, or None (a fresh one).
        holdout_games: Games of the fixed held-out set.
        gate_games: The acceptance test's cap: no look starts once its games reach it (0:
            no test, every candidate is accepted).
        elo0: The test's H0, Elo points over the best so far (the candidate no stronger).
        elo1: Its H1 (the candidate stronger by this much), above ``elo0``.
        alpha: The test's most probability of accepting under H0, above 0 to 0.5.
        beta: Its most probability of refusing under H1, above 0 to 0.5.
        anchor_games: Games of an accepted candidate against each anchor (round 0 and the
            first accepted round; 0: none).
        gate_mix: The acceptance test's configurations, each (board, players, variant,
            openings a look), each one of ``mix``'s (None: `gate_configurations`' default).
        match_iterations: Iterations a decision in the gate and curve matches.
        curve_games: Games of an accepted round against round 0 and best-heuristic (0:
            none).
        seed: Seeds everything drawn.
        minutes: No new round starts after this (a cap on the run's time).
        workers: Self-play and match worker processes (or Ray tasks).
        backend: "local" or "ray".
        address: A Ray cluster's address, for backend "ray" (None: a local Ray).
        mix: The configurations (board, players, variant, share of the games).
    """

    rounds: int = 6
    games: int = 500                 # per round
    iterations: int = 200            # the fast search's, per self-play decision
    label_iterations: int = 800      # the deep search's (the kept decisions)
    label_share: float = 0.25        # of the decisions, searched deep and kept
    noise: float = 0.25              # root Dirichlet noise's share of the fast searches' priors
    label_noise: float = 0.0         # the deep search's: its visits are the policy label
    opening: int = 8                 # random actions at most before the search plays
    max_actions: int = 600           # a self-play game stops there
    blend: float = 0.9               # the deep search's value's share of a label (measured:
                                     # docs/training.md, "The label study")
    distil: bool = True              # self-play searched with the best network so far
    window: int = 3                  # rounds whose positions are trained on (measured:
    epochs: int = 1                  # docs/training.md, "The replay window")
    batch: int = 64
    learning_rate: float = 1e-3
    weight_decay: float = 1.0        # AdamW's, per unit of learning rate
    decay_toward: str = "best"       # the best network so far, or "zero"
    policy_weight: float = 1.0
    hidden: int = 32
    hidden2: int = 16
    start: str | None = None         # round 0: a network ("default", a name, a path); None: fresh
    holdout_games: int = 40
    gate_games: int = 1000           # the acceptance test's cap
    elo0: float = 0.0
    elo1: float = 20.0
    alpha: float = 0.05
    beta: float = 0.05
    anchor_games: int = 120
    gate_mix: tuple[tuple[str, int, str, int], ...] | None = None   # None: 2, 3, 6 armies of mix
    match_iterations: int = 200
    curve_games: int = 100
    seed: int = 0
    minutes: float = 120.0           # no new round starts after this (a cap: reaching it
                                     # ends the run on the clock, not on its seed)
    workers: int = 1
    backend: str = "local"
    address: str | None = None       # a Ray cluster's address, for backend "ray"
    mix: tuple[tuple[str, int, str, int], ...] = field(default=MIX)

    def check(self) -> "Settings":
        """Check every setting.

        Returns:
            These settings.

        Raises:
            ConfigError: If a setting is out of its range or a configuration of ``mix``
                is not accepted.
        """
        counts: tuple[tuple[str, int, int], ...] = (
            ("rounds", 0, 10_000), ("games", 1, 1_000_000), ("iterations", 1, 1_000_000),
            ("label_iterations", 1, 1_000_000), ("opening", 0, 1000), ("max_actions", 1, 100_000),
            ("window", 1, 1000), ("epochs", 0, 1000), ("batch", 1, 1 << 20),
            ("holdout_games", 0, 100_000), ("gate_games", 0, 100_000), ("anchor_games", 0, 100_000),
            ("match_iterations", 1, 1_000_000), ("curve_games", 0, 100_000), ("workers", 1, 1024),
            ("hidden", 1, SIZES["max_hidden"]), ("hidden2", 1, SIZES["max_hidden"]),
            ("seed", 0, 2**64 - 1))
        for name, least, most in counts:
            check_int(name, getattr(self, name), least, most)
        for name in ("curve_games",):
            if getattr(self, name) % 2:
                raise ConfigError(f"{name} must be even (each opening is played from both "
                                  f"sides), got {getattr(self, name)}")
        bounds: tuple[tuple[str, float, float], ...] = (
            ("blend", 0.0, 1.0), ("label_share", 0.0, 1.0), ("noise", 0.0, 1.0),
            ("label_noise", 0.0, 1.0),
            ("learning_rate", 1e-9, 1.0), ("weight_decay", 0.0, 1e3),
            ("policy_weight", 0.0, 1e3), ("elo0", -ELO_LIMIT, ELO_LIMIT),
            ("elo1", -ELO_LIMIT, ELO_LIMIT), ("alpha", 0.0, 0.5), ("beta", 0.0, 0.5),
            ("minutes", 0.0, 1e6))
        for name, low, high in bounds:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not low <= value <= high:
                raise ConfigError(f"{name} must be a number from {low:g} to {high:g}, "
                                  f"got {shown(value, 60)}")
        if not self.elo0 < self.elo1 or not 0 < self.alpha or not 0 < self.beta:
            raise ConfigError(f"the acceptance test needs elo0 below elo1 and alpha and beta above "
                              f"0, got elo0 {self.elo0:g}, elo1 {self.elo1:g}, alpha "
                              f"{self.alpha:g}, beta {self.beta:g}")
        if self.learning_rate * self.weight_decay >= 1:
            raise ConfigError(f"learning_rate x weight_decay must be below 1 (each step keeps "
                              f"that share of the weights), got {self.learning_rate:g} x "
                              f"{self.weight_decay:g}")
        if not isinstance(self.distil, bool):
            raise ConfigError(f"distil must be True or False, got {shown(self.distil, 60)}")
        if self.start is not None and not isinstance(self.start, str):
            raise ConfigError(f"start must be a network's name or path, or None, got "
                              f"{shown(self.start, 60)}")
        if self.label_share <= 0:
            raise ConfigError("label_share must be above 0: with none of the decisions kept, "
                              "self-play gives nothing to learn from")
        if self.decay_toward not in DECAY_TOWARD:
            raise ConfigError(f"decay_toward must be one of {DECAY_TOWARD}, got "
                              f"{shown(self.decay_toward, 60)}")
        if self.backend not in BACKENDS:
            raise ConfigError(f"backend must be one of {BACKENDS}, got {shown(self.backend, 60)}")
        if self.address is not None and not isinstance(self.address, str):
            raise ConfigError(f"address must be a Ray cluster's address or None, got "
                              f"{shown(self.address, 60)}")
        self._check_mix("mix", self.mix)
        if self.gate_mix is not None:
            self._check_mix("gate_mix", self.gate_mix)
            games = {tuple(config[:3]) for config in self.mix}
            for config in self.gate_mix:
                if tuple(config[:3]) not in games:
                    raise ConfigError(f"a configuration of gate_mix must be one of mix's (the "
                                      f"acceptance test plays what is trained), got "
                                      f"{shown(tuple(config[:3]), 60)}")
        return self

    @staticmethod
    def _check_mix(name: str, mix: object) -> None:
        """ConfigError unless ``mix`` holds configurations that Game accepts, each with a
        share from 1 (an integer)."""
        if not isinstance(mix, (tuple, list)) or not mix:
            raise ConfigError(f"{name} must be a non-empty sequence of (board, players, variant, "
                              f"share), got {shown(mix, 60)}")
        for config in mix:
            if not isinstance(config, (tuple, list)) or len(config) != 4:
                raise ConfigError(f"a configuration of {name} is (board, players, variant, "
                                  f"share), got {shown(config, 60)}")
            Game(config[0], players=config[1], variant=config[2])
            check_int(f"a configuration's share of {name}", config[3], 1, 1_000_000)

    def gate_configurations(self) -> tuple[tuple[str, int, str, int], ...]:
        """The acceptance test's configurations: ``gate_mix``, or by default, for each army
        count of `GATE_ARMIES` that ``mix`` has, its configuration of that count with the
        largest share (the standard variant first, then the first of equals), with that
        share: the openings it plays a look.

        Returns:
            (board, players, variant, openings a look) each.
        """
        if self.gate_mix is not None:
            return tuple((str(b), int(p), str(v), int(n)) for b, p, v, n in self.gate_mix)
        chosen = []
        for armies in GATE_ARMIES:
            configs = [c for c in self.mix if c[1] == armies]
            if configs:
                chosen.append(max(configs, key=lambda c: (c[2] == "standard", c[3],
                                                          -configs.index(c))))
        if not chosen:                   # a mix of only 4 and 5 armies
            chosen = [max(self.mix, key=lambda c: c[3])]
        return tuple((str(b), int(p), str(v), int(n)) for b, p, v, n in chosen)

    def trained(self) -> dict[str, list[Any]]:
        """What a network trained on ``mix`` is for: its boards and players.

        Returns:
            ``{"boards": [...], "players": [...]}``.
        """
        return {"boards": sorted({c[0] for c in self.mix}),
                "players": sorted({c[1] for c in self.mix})}

    def play(self) -> Play:
        """How self-play searches and labels, from these settings.

        Returns:
            Self-play's settings.
        """
        return Play(self.iterations, self.opening, self.max_actions, self.blend,
                    self.label_iterations, self.label_share, self.noise, self.label_noise)


__all__ = ["BACKENDS", "DECAY_TOWARD", "ELO_LIMIT", "GATE_ARMIES", "MIX", "Settings"]
