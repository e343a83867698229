"""The training step (victorus.training): training samples stacked into batches of the numpy
twin (victorus.evaluation.twin), AdamW over a network's arrays and ``fit``'s passes over a
round's positions.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeAlias, cast

import numpy as np
from numpy.typing import NDArray

from ..errors import ConfigError
from ..evaluation.network import Network
from ..evaluation.twin import Batch, Gradients, loss_and_gradients
from ..progress import Progress

if TYPE_CHECKING:
    from .settings import Settings

Sample: TypeAlias = tuple[str, NDArray[np.int32], NDArray[np.float32], NDArray[np.float32],
                          NDArray[np.int8], NDArray[np.float32], NDArray[np.int32],
                          NDArray[np.int32], NDArray[np.float32], NDArray[np.float32]]
"""A training sample: a position's `Inputs`, its target value per seat, its `Moves` and the target
policy over them (the search's visit distribution; empty: no policy target): the Inputs and Moves
of victorus.evaluation.twin."""


class Adam:
    """Adam over a network's arrays, with decoupled weight decay (AdamW) on the weights
    (not the biases, not ``skip`` nor ``policy_capture``); the first layer's rows lazily
    (only the rows a batch touches are updated and decayed, with their own step counts).
    The decay pulls toward ``anchor`` (arrays of the same shapes, such as the best network
    so far: what a round learnt is kept unless its data says otherwise) or, with None,
    toward 0.
    A run keeps one from round to round (`state`, `restored`): a fresh one's first steps
    move every weight a batch touches by about the learning rate, whatever its gradient,
    which would shake the network at the start of every round.

    Args:
        arrays: The arrays it will update, by name.
        rate: The learning rate.
        decay: The weight decay, per unit of learning rate.
        anchor: The arrays the decay pulls toward (None: 0); settable between steps.
    """

    DECAYED = ("w1", "wd", "w2", "w3", "policy_from", "policy_to", "policy_word", "policy_pair")

    def __init__(self, arrays: Mapping[str, NDArray[np.float32]], rate: float, decay: float = 0.0,
                 anchor: Mapping[str, NDArray[np.float32]] | None = None) -> None:
        self.rate, self.decay = rate, decay
        self.anchor = anchor
        # float64 moments (the gradients' type), but the first layer's float32 (its size)
        self.m: dict[str, NDArray[np.floating]] = {
            k: np.zeros_like(v, dtype=np.float32 if k == "w1" else np.float64)
            for k, v in arrays.items()}
        self.v: dict[str, NDArray[np.floating]] = {
            k: np.zeros_like(v, dtype=np.float32 if k == "w1" else np.float64)
            for k, v in arrays.items()}
        self.t = {k: 0 for k in arrays if k != "w1"}
        self.row_t = np.zeros(len(arrays["w1"]), dtype=np.int64)

    def step(self, arrays: dict[str, NDArray[np.float32]], grads: Gradients) -> None:
        """One step of AdamW: ``arrays`` updated in place.

        Args:
            arrays: The arrays, by name.
            grads: Their gradients (`loss_and_gradients`).
        """
        b1, b2, eps = 0.9, 0.999, 1e-8
        for name, gradient in grads.items():
            if name == "w1":
                rows, g = cast(tuple[NDArray[np.intp], NDArray[np.float64]], gradient)
                self.row_t[rows] += 1
                steps = self.row_t[rows][:, None]
                self._decay(arrays, name, rows)
                m = self.m[name][rows] = b1 * self.m[name][rows] + (1 - b1) * g
                v = self.v[name][rows] = b2 * self.v[name][rows] + (1 - b2) * g * g
                arrays[name][rows] -= (self.rate * (m / (1 - b1 ** steps))
                                       / (np.sqrt(v / (1 - b2 ** steps)) + eps))
                continue
            grad = cast(NDArray[np.floating], gradient)
            self.t[name] += 1
            t = self.t[name]
            if name in self.DECAYED:
                self._decay(arrays, name, slice(None))
            self.m[name] = b1 * self.m[name] + (1 - b1) * grad
            self.v[name] = b2 * self.v[name] + (1 - b2) * grad * grad
            arrays[name] -= self.rate * (self.m[name] / (1 - b1 ** t)) / \
                (np.sqrt(self.v[name] / (1 - b2 ** t)) + eps)

    def _decay(self, arrays: dict[str, NDArray[np.float32]], name: str,
               rows: NDArray[np.intp] | slice) -> None:
        """``arrays[name][rows]`` moved ``rate x decay`` of the way to the anchor's (or 0)."""
        keep = 1 - self.rate * self.decay
        if self.anchor is None:
            arrays[name][rows] *= keep
        else:
            toward = self.anchor[name][rows]
            arrays[name][rows] = toward + keep * (arrays[name][rows] - toward)

    def state(self) -> dict[str, NDArray[Any]]:
        """Its moments and step counts as arrays (victorus.training.checkpoint writes and checks them).

        Returns:
            ``m.<name>``, ``v.<name>`` and ``t.<name>`` per array, and ``row_t``.
        """
        state: dict[str, NDArray[Any]] = {"row_t": self.row_t}
        for name in self.m:
            state[f"m.{name}"], state[f"v.{name}"] = self.m[name], self.v[name]
            if name in self.t:
                state[f"t.{name}"] = np.array([self.t[name]], np.int64)
        return state

    @classmethod
    def restored(cls, arrays: Mapping[str, NDArray[np.float32]], rate: float, decay: float,
                 state: Mapping[str, NDArray[Any]]) -> "Adam":
        """An optimiser going on from a `state` (checked against ``arrays`` first).

        Args:
            arrays: The arrays it will update, by name.
            rate: The learning rate.
            decay: The weight decay, per unit of learning rate.
            state: A `state` of an optimiser over arrays of the same shapes.

        Returns:
            The optimiser.
        """
        optimiser = cls(arrays, rate, decay)
        optimiser.row_t = np.array(state["row_t"], np.int64)
        for name in optimiser.m:
            optimiser.m[name] = np.array(state[f"m.{name}"], optimiser.m[name].dtype)
            optimiser.v[name] = np.array(state[f"v.{name}"], optimiser.v[name].dtype)
            if name in optimiser.t:
                optimiser.t[name] = int(state[f"t.{name}"][0])
        return optimiser


def stack(samples: list[Sample]) -> tuple[Batch, NDArray[np.float32], NDArray[np.float32]]:
    """Samples as a Batch (their legal actions included), their value targets and their
    policy targets.

    Args:
        samples: The samples.

    Returns:
        Their inputs as a Batch, their value targets [B, 6] and their actions' policy
        targets [A].
    """
    batch = Batch.of([s[:5] for s in samples], [s[6:9] for s in samples])
    policy = (np.concatenate([s[9] for s in samples]).astype(np.float32) if samples
              else np.zeros(0, np.float32))
    return batch, np.stack([s[5] for s in samples]), policy


def fit(network: Network, batch: Batch, targets: NDArray[np.floating], settings: Settings,
        rng: np.random.Generator, progress: bool | None = None,
        label: str = "training", policy: NDArray[np.floating] | None = None,
        optimiser: Adam | None = None) -> tuple[Network, list[float]]:
    """``settings.epochs`` passes of Adam over the positions; the new network and the
    mean loss of each epoch (the value's, plus ``policy_weight`` x the policy's where
    ``policy`` and a policy head are given).

    Args:
        network: The network trained from.
        batch: The positions.
        targets: Their target values, [B, 6].
        settings: The run's settings (epochs, batch, learning rate, weight decay, policy
            weight).
        rng: Draws the order of each epoch.
        progress: A progress bar on stderr: True always, None on a terminal, False never.
        label: The progress bar's and the errors' label.
        policy: The policy targets of ``batch``'s actions, [A] (None: the value alone).
        optimiser: The optimiser to go on with (updated in place; None: a fresh one).

    Returns:
        The new network and each epoch's mean loss.

    Raises:
        ConfigError: If the training diverged.
    """
    arrays = {k: np.array(v, dtype=np.float32) for k, v in network.arrays.items()}
    if optimiser is None:
        optimiser = Adam(arrays, settings.learning_rate, settings.weight_decay)
    steps = math.ceil(len(batch) / settings.batch)
    epoch_losses: list[float] = []
    with Progress(settings.epochs * steps, label, progress) as bar:
        for _ in range(settings.epochs):
            order = rng.permutation(len(batch))
            total = 0.0
            for k in range(steps):
                index = order[k * settings.batch:(k + 1) * settings.batch]
                part = batch.take(index)
                loss, grads = loss_and_gradients(
                    arrays, part, targets[index],
                    None if policy is None else policy[batch.action_index(index)],
                    settings.policy_weight)
                optimiser.step(arrays, grads)
                total += loss * len(index)
                bar.advance()
            epoch_losses.append(total / len(batch))
    if not all(np.isfinite(a).all() for a in arrays.values()):
        raise ConfigError(f"{label}: training diverged (weights are no longer finite): lower "
                          f"the learning rate ({settings.learning_rate:g})")
    return Network(arrays, network.trained, network.info), epoch_losses


__all__ = ["Adam", "Sample", "fit", "stack"]
