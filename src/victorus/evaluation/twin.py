"""The learned evaluation's numpy twin: the network's layout (its arrays and their shapes,
the boards' blocks of first-layer rows and of cells), a position's inputs and legal actions,
batches of them, and the forward and backward passes of the value and of the policy head, in
numpy. It is the C evaluator's arithmetic (``victorus.evaluation._network``, whose sizes it
reads), what training differentiates (victorus.training.step) and the slow path the tests hold
the C evaluator to; a change of the network's layout touches the C module and this one only.
The network's file and its C core are victorus.evaluation.network's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, TypeAlias

import numpy as np
from numpy.typing import NDArray

from ..geometry import BOARD_NAMES, Board, hex_distance
from . import _network, _terms

if TYPE_CHECKING:
    from ..game import Game

BOARDS: tuple[str, ...] = tuple(sorted(BOARD_NAMES))
"""The boards (every board of victorus.geometry), in name order: the order of their blocks of first-layer
rows (the C network has SIZES["boards"] blocks). Named, not measured, so importing this module builds no
board."""
ARRAYS = ("w1", "wd", "b1", "w2", "b2", "w3", "b3", "skip")
"""The arrays of a network's value, in the file's order."""
POLICY_ARRAYS: tuple[str, ...] = _network.POLICY_NAMES
"""The arrays of a network's policy head, after the value's in the file: ``policy_from`` and
``policy_to`` (a row per cell of every board, in BOARDS order: the weights over the first layer,
then a bias), ``policy_word`` (a row per word: stop, end, pass) and ``policy_capture`` (the weight
of the log of the hand-written capture priors)."""
POLICY_PAIR: str = _network.POLICY_PAIR
"""The policy head's pair term, after POLICY_ARRAYS in the file of a head that has it:
``policy_pair``, a scalar per (target cell of every board, in BOARDS order; the moving piece's
kind) added to a leg's logit. A head without it scores every leg as with it at zero."""
#: The heuristic weights the skip connection starts from (victorus.evaluation.heuristic).
SKIP_NAMES: tuple[str, ...] = _network.SKIP_NAMES
SIZES: dict[str, int] = _network.SIZES
SEATS: int = SIZES["seats"]
VALUE_BOUND: float = _terms.VALUE_BOUND_VALUE
Inputs: TypeAlias = tuple[str, NDArray[np.int32], NDArray[np.float32], NDArray[np.float32],
                          NDArray[np.int8]]
"""A position's inputs (`inputs`): its board's name, the sparse rows within the board's block, the dense
inputs, the heuristic terms per seat and each seat's team."""
Moves: TypeAlias = tuple[NDArray[np.int32], NDArray[np.int32], NDArray[np.float32]]
"""The policy head's inputs of a position's legal actions (`moves`): each one's origin column (-1: a
word), its target column (a word: its number) and the log of its capture prior. The moving piece's
kind (the pair term's) is the position's: the piece on the origin column (`Batch.of` reads it from
the position's sparse rows)."""
Actions: TypeAlias = tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.float32],
                           NDArray[np.int64]]
"""A Batch's legal actions: each one's position, its row of ``policy_from`` (-1: a word), of
``policy_to`` (a word: of ``policy_word``), the log of its capture prior and the moving piece's kind
(-1: a word)."""


def board_cells() -> tuple[int, ...]:
    """The cells of each board, in BOARDS order (the sizes of the blocks of rows).

    Returns:
        Each board's number of cells.
    """
    return tuple(len(Board(name).coords) for name in BOARDS)


def board_rims() -> tuple[int, ...]:
    """Each board's largest hex distance from the centre, in BOARDS order.

    Returns:
        Each board's rim distance.
    """
    return tuple(max(hex_distance(q, r) for q, r in Board(name).coords) for name in BOARDS)


def shapes(hidden: int, hidden2: int, policy: bool = False,
           pair: bool = False) -> dict[str, tuple[int, ...]]:
    """Each array's shape for these layer sizes.

    Args:
        hidden: The first hidden layer's size.
        hidden2: The second hidden layer's size.
        policy: With the policy head's arrays.
        pair: With the policy head's pair term too (with ``policy``).

    Returns:
        ARRAYS names (and POLICY_ARRAYS names with ``policy``, then POLICY_PAIR with ``pair``)
        to their shapes.
    """
    rows = sum(_network.block_size(cells) for cells in board_cells())
    size = {"w1": (rows, hidden), "wd": (SIZES["dense_inputs"], hidden), "b1": (hidden,),
            "w2": (hidden, hidden2), "b2": (hidden2,), "w3": (hidden2, SEATS), "b3": (SEATS,),
            "skip": (SIZES["skip_terms"],)}
    if policy:
        cells = sum(board_cells())
        size.update({"policy_from": (cells, hidden + 1), "policy_to": (cells, hidden + 1),
                     "policy_word": (SIZES["words"], hidden + 1), "policy_capture": (1,)})
        if pair:
            size[POLICY_PAIR] = (cells, SIZES["kinds"])
    return size


def cell_starts() -> dict[str, int]:
    """The first row of each board's cells in ``policy_from`` and ``policy_to``.

    Returns:
        BOARDS names to their first rows.
    """
    return dict(zip(BOARDS, np.concatenate([[0], np.cumsum(board_cells())[:-1]]).tolist()))


def block_starts() -> dict[str, int]:
    """The first row of each board's block in ``w1``.

    Returns:
        BOARDS names to their first rows.
    """
    starts: dict[str, int] = {}
    total = 0
    for name, cells in zip(BOARDS, board_cells()):
        starts[name] = total
        total += _network.block_size(cells)
    return starts



def inputs(game: Game) -> Inputs:
    """The network's inputs of ``game``'s position (C): its board's name, the sparse rows
    within the board's block, the dense inputs, the heuristic terms per seat and each
    seat's team (-1 absent), seats counted from the army to act.

    Args:
        game: The position.

    Returns:
        Its inputs.
    """
    return (game.board.name, *_network.engine_inputs(game._engine))


def team_matrix(teams: Iterable[int]) -> NDArray[np.float32]:
    """The linear map from the raw outputs per seat to each seat's team score (R33): a
    team's score is its seats' mean (its diagonal: one over the seat's team size).

    Args:
        teams: Each seat's team (-1: absent), 6 of them.

    Returns:
        The [6, 6] matrix.
    """
    teams = list(teams)
    present = [i for i in range(SEATS) if teams[i] >= 0]
    groups = {t: [i for i in present if teams[i] == t] for t in {teams[i] for i in present}}
    m = np.zeros((SEATS, SEATS), dtype=np.float32)
    for i in present:
        for j in groups[teams[i]]:
            m[i, j] = 1.0 / len(groups[teams[i]])
    return m


def moves(game: Game) -> Moves:
    """The policy head's inputs of ``game``'s legal actions (C), in legal_actions() order:
    each one's origin column (-1: a word), target column (a word: its number) and the log of
    its capture prior, in the frame of the army to act.

    Args:
        game: The position.

    Returns:
        Its `Moves`.
    """
    return _network.engine_policy_inputs(game._engine)


class Batch:
    """Positions' inputs stacked for numpy: the sparse rows (global, into ``w1``) with
    the offset of each position's first, the dense inputs, the heuristic terms, the team
    matrices and the present seats' mask; and their legal actions for the policy head,
    position after position (``owner``: each action's position; ``origin``: its row of
    ``policy_from``, -1 for a word; ``target``: its row of ``policy_to``, or of
    ``policy_word`` for a word; ``capture``: the log of its capture prior; ``kind``: the
    moving piece's kind, its column of ``policy_pair``, -1 for a word).

    Args:
        rows: The sparse rows of every position, global (into ``w1``), [R].
        starts: The offset in ``rows`` of each position's first, [B].
        dense: The dense inputs, [B, dense inputs].
        terms: The heuristic terms per seat, [B, terms, 6].
        matrices: The team matrices (`team_matrix`), [B, 6, 6].
        present: The present seats' mask, [B, 6].
        actions: The legal actions' `Actions` (owner, origin, target, capture, kind), each
            [A] (None: none).
    """

    def __init__(self, rows: NDArray[np.int64], starts: NDArray[np.int64],
                 dense: NDArray[np.float32], terms: NDArray[np.float32],
                 matrices: NDArray[np.float32], present: NDArray[np.bool_],
                 actions: Actions | None = None) -> None:
        self.rows, self.starts, self.dense = rows, starts, dense
        self.terms, self.matrices, self.present = terms, matrices, present
        if actions is None:
            empty = np.zeros(0, np.int64)
            actions = (empty, empty, empty, np.zeros(0, np.float32), empty)
        self.owner, self.origin, self.target, self.capture, self.kind = actions

    @classmethod
    def of(cls, samples: Sequence[Inputs], legal: Sequence[Moves] | None = None) -> "Batch":
        """A batch of `inputs` tuples (and their `moves`).

        Args:
            samples: The positions' inputs.
            legal: Their legal actions' `Moves` (None: no actions).

        Returns:
            Them stacked.
        """
        first = block_starts()
        rows = [s[1].astype(np.int64) + first[s[0]] for s in samples]
        counts = np.array([len(r) for r in rows], dtype=np.int64)
        cache: dict[tuple[int, ...], NDArray[np.float32]] = {}
        matrices = np.stack([cache.setdefault(tuple(s[4]), team_matrix(s[4])) for s in samples])
        return cls(np.concatenate(rows) if rows else np.zeros(0, np.int64),
                   np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64),
                   np.stack([s[2] for s in samples]), np.stack([s[3] for s in samples]),
                   matrices, np.stack([s[4] >= 0 for s in samples]),
                   None if legal is None else _stack_moves(samples, legal))

    def __len__(self) -> int:
        return len(self.dense)

    def take(self, index: NDArray[np.integer]) -> "Batch":
        """The positions at ``index``.

        Args:
            index: The positions' indices.

        Returns:
            A batch of them.
        """
        ends = np.append(self.starts[1:], len(self.rows))
        pieces = [self.rows[self.starts[i]:ends[i]] for i in index]
        counts = np.array([len(p) for p in pieces], dtype=np.int64)
        picked = self.action_index(index)
        owner = np.repeat(np.arange(len(index)), np.bincount(self.owner, minlength=len(self))[index])
        return Batch(np.concatenate(pieces) if pieces else np.zeros(0, np.int64),
                     np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64),
                     self.dense[index], self.terms[index], self.matrices[index],
                     self.present[index],
                     (owner, self.origin[picked], self.target[picked], self.capture[picked],
                      self.kind[picked]))

    def action_index(self, index: NDArray[np.integer]) -> NDArray[np.int64]:
        """The indices of the actions of the positions at ``index``, in their order.

        Args:
            index: The positions' indices.

        Returns:
            Their actions' indices (into ``owner``, ``origin``...).
        """
        per = np.bincount(self.owner, minlength=len(self))
        first = np.concatenate([[0], np.cumsum(per)[:-1]])
        if not len(index):
            return np.zeros(0, np.int64)
        return np.concatenate([np.arange(first[i], first[i] + per[i]) for i in index]
                              ).astype(np.int64)


def _piece_kinds(rows: NDArray[np.int32], cells: int) -> NDArray[np.int64]:
    """The kind of the piece on each column of a board of ``cells`` (-1: none), read from a
    position's sparse rows within its block (a piece's row is (seat, kind, cell); one piece a
    cell)."""
    rows = rows.astype(np.int64)
    kind, column = (rows // cells) % SIZES["types"], rows % cells
    piece = kind < SIZES["kinds"]
    kinds = np.full(cells, -1, np.int64)
    kinds[column[piece]] = kind[piece]
    return kinds


def _stack_moves(positions: Sequence[Inputs], legal: Sequence[Moves]) -> Actions:
    """`Moves` of each position as a Batch's actions (rows global into the policy arrays;
    each leg's piece kind read from the position's sparse rows)."""
    starts, sizes = cell_starts(), dict(zip(BOARDS, board_cells()))
    owner = np.repeat(np.arange(len(legal)), [len(m[0]) for m in legal]).astype(np.int64)
    if not len(owner):
        empty = np.zeros(0, np.int64)
        return owner, empty, empty, np.zeros(0, np.float32), empty
    offset = np.repeat([starts[p[0]] for p in positions], [len(m[0]) for m in legal])
    origin = np.concatenate([m[0] for m in legal]).astype(np.int64)
    target = np.concatenate([m[1] for m in legal]).astype(np.int64)
    word = origin < 0
    kind = np.concatenate([_piece_kinds(p[1], sizes[p[0]])[np.maximum(m[0], 0)]
                           for p, m in zip(positions, legal)])
    return (owner, np.where(word, -1, origin + offset), np.where(word, target, target + offset),
            np.concatenate([m[2] for m in legal]).astype(np.float32), np.where(word, -1, kind))


#: The forward pass's intermediate values: acc, h1, z2, h2, raw, score.
_Layers: TypeAlias = tuple[NDArray[np.floating], NDArray[np.floating], NDArray[np.floating],
                           NDArray[np.floating], NDArray[np.floating], NDArray[np.floating]]
Gradients: TypeAlias = dict[str, NDArray[np.floating] | tuple[NDArray[np.intp], NDArray[np.float64]]]
"""A gradient per array (``w1``: the rows touched and their gradients)."""


def _layers(arrays: Mapping[str, NDArray[np.floating]], batch: Batch) -> _Layers:
    """The forward pass's intermediate values."""
    acc = arrays["b1"] + batch.dense @ arrays["wd"]
    if len(batch.rows):
        picked = arrays["w1"][batch.rows]
        padded = np.concatenate([picked, np.zeros((1, picked.shape[1]), picked.dtype)])
        sums = np.add.reduceat(padded, batch.starts, axis=0)     # a start past the rows: 0
        empty = np.append(batch.starts[1:], len(batch.rows)) == batch.starts
        sums[empty] = 0
        acc = acc + sums
    h1 = np.clip(acc, 0, 1)
    z2 = h1 @ arrays["w2"] + arrays["b2"]
    h2 = np.clip(z2, 0, 1)
    raw = h2 @ arrays["w3"] + arrays["b3"] + np.einsum("k,bki->bi", arrays["skip"], batch.terms)
    score = np.einsum("bij,bj->bi", batch.matrices, raw)
    return acc, h1, z2, h2, raw, score


def forward(arrays: Mapping[str, NDArray[np.floating]], batch: Batch) -> NDArray[np.floating]:
    """The value per seat (counted from the army to act) of each position of ``batch``:
    the C evaluator's arithmetic in numpy ([B, 6], 0 for absent seats).

    Args:
        arrays: A network's arrays by name.
        batch: The positions.

    Returns:
        The values, [B, 6].
    """
    return VALUE_BOUND * (2 * _shares(_layers(arrays, batch)[5], batch) - 1) * batch.present


def _shares(score: NDArray[np.floating], batch: Batch) -> NDArray[np.floating]:
    """Each seat's team's share of the win ([B, 6], 0 for absent seats): the softmax of
    the team scores over the present teams (``_terms.team_values``), seat by seat (a team
    counted once: each seat weighs one over its team's size, the matrices' diagonal)."""
    present = batch.present
    top = np.where(present, score, -np.inf).max(axis=1, keepdims=True)
    e = np.where(present, np.exp(np.where(present, score - top, 0.0)), 0.0)
    weight = np.einsum("bii->bi", batch.matrices)
    shares: NDArray[np.floating] = e / (e * weight).sum(axis=1, keepdims=True)
    return shares


def _policy_logits(arrays: Mapping[str, NDArray[np.floating]], h1: NDArray[np.floating],
                   batch: Batch) -> tuple[NDArray[np.floating], NDArray[np.floating]]:
    """Each action's logit, and the first layer with a 1 for the bias, [B, hidden + 1]."""
    h = np.concatenate([h1, np.ones((len(h1), 1), h1.dtype)], axis=1)[batch.owner]
    leg = batch.origin >= 0
    logits = np.empty(len(batch.owner), dtype=h.dtype)
    logits[leg] = (np.einsum("aj,aj->a", h[leg], arrays["policy_from"][batch.origin[leg]])
                   + np.einsum("aj,aj->a", h[leg], arrays["policy_to"][batch.target[leg]]))
    if POLICY_PAIR in arrays:
        logits[leg] += arrays[POLICY_PAIR][batch.target[leg], batch.kind[leg]]
    logits[~leg] = np.einsum("aj,aj->a", h[~leg], arrays["policy_word"][batch.target[~leg]])
    return logits + arrays["policy_capture"][0] * batch.capture, h


def _softmax(logits: NDArray[np.floating], owner: NDArray[np.int64],
             positions: int) -> NDArray[np.floating]:
    """The softmax of each position's actions' logits."""
    top = np.full(positions, -np.inf)
    np.maximum.at(top, owner, logits)
    e = np.exp(logits - top[owner])
    prior: NDArray[np.floating] = e / np.bincount(owner, e, minlength=positions)[owner]
    return prior


def policy_forward(arrays: Mapping[str, NDArray[np.floating]], h1: NDArray[np.floating],
                   batch: Batch) -> NDArray[np.floating]:
    """The policy head's priors of every action of ``batch`` (normalised per position),
    from the first layer ``h1`` ([B, hidden]): the C priors' arithmetic in numpy.

    Args:
        arrays: A network's arrays by name, its policy head's included.
        h1: The positions' first layer.
        batch: The positions and their actions.

    Returns:
        The priors, [A].
    """
    return _softmax(_policy_logits(arrays, h1, batch)[0], batch.owner, len(batch))


def _policy_loss(arrays: Mapping[str, NDArray[np.floating]], h1: NDArray[np.floating],
                 batch: Batch, policy: NDArray[np.floating], weight: float,
                 grads: Gradients) -> tuple[float, NDArray[np.floating]]:
    """The mean cross-entropy of the priors against ``policy`` (per action; a position
    whose targets sum to 0 has none), times ``weight``; its gradients into ``grads`` and
    the gradient of the first layer, returned with the loss."""
    logits, h = _policy_logits(arrays, h1, batch)
    prior = _softmax(logits, batch.owner, len(batch))
    mass = np.bincount(batch.owner, policy, minlength=len(batch))
    count = max(int((mass > 0).sum()), 1)
    loss = float(-(policy * np.log(np.maximum(prior, 1e-30))).sum() / count)
    d_logit = (prior * mass[batch.owner] - policy) * (weight / count)
    leg = batch.origin >= 0
    for name, rows, pick in (("policy_from", batch.origin, leg), ("policy_to", batch.target, leg),
                             ("policy_word", batch.target, ~leg)):
        grad = np.zeros(arrays[name].shape, dtype=np.float64)
        np.add.at(grad, rows[pick], d_logit[pick, None] * h[pick])
        grads[name] = grad
    grads["policy_capture"] = np.array([(d_logit * batch.capture).sum()])
    if POLICY_PAIR in arrays:
        pair = np.zeros(arrays[POLICY_PAIR].shape, dtype=np.float64)
        np.add.at(pair, (batch.target[leg], batch.kind[leg]), d_logit[leg])
        grads[POLICY_PAIR] = pair
    H = h1.shape[1]
    through = np.where(leg[:, None], arrays["policy_from"][np.maximum(batch.origin, 0)][:, :H]
                       + arrays["policy_to"][batch.target * leg][:, :H],
                       arrays["policy_word"][np.minimum(batch.target, SIZES["words"] - 1)][:, :H])
    d_h1 = np.zeros(h1.shape, dtype=np.float64)
    np.add.at(d_h1, batch.owner, d_logit[:, None] * through)
    return loss * weight, d_h1


def loss_and_gradients(arrays: Mapping[str, NDArray[np.floating]], batch: Batch,
                       targets: NDArray[np.floating], policy: NDArray[np.floating] | None = None,
                       policy_weight: float = 1.0) -> tuple[float, Gradients]:
    """The mean squared error of the value against ``targets`` ([B, 6], per seat counted
    from the army to act) over present seats, plus ``policy_weight`` x the policy head's
    mean cross-entropy against ``policy`` (per action of ``batch``; None or no policy
    head: no policy term), and its gradient per array (``w1``: the rows touched and their
    gradients).

    Args:
        arrays: A network's arrays by name.
        batch: The positions.
        targets: Their target values, [B, 6].
        policy: Their actions' target probabilities, [A] (None: no policy term).
        policy_weight: The policy term's weight.

    Returns:
        The loss and the gradients.
    """
    acc, h1, z2, h2, raw, score = _layers(arrays, batch)
    share = _shares(score, batch)
    value = VALUE_BOUND * (2 * share - 1)
    mask = batch.present
    count = max(int(mask.sum()), 1)
    error = (value - targets) * mask
    loss = float((error ** 2).sum() / count)
    # d share_i / d score_k = share_i (1[i = k] - weight_k share_k) (`_shares`)
    d_share = 2 * error / count * 2 * VALUE_BOUND
    weight = np.einsum("bii->bi", batch.matrices)
    d_score = share * (d_share - weight * (d_share * share).sum(axis=1, keepdims=True))
    d_raw = np.einsum("bij,bi->bj", batch.matrices, d_score)
    grads: Gradients = {"b3": d_raw.sum(0), "w3": h2.T @ d_raw,
             "skip": np.einsum("bi,bki->k", d_raw, batch.terms)}
    d_h2 = d_raw @ arrays["w3"].T * ((z2 > 0) & (z2 < 1))
    grads["b2"] = d_h2.sum(0)
    grads["w2"] = h1.T @ d_h2
    d_h1 = d_h2 @ arrays["w2"].T
    if policy is not None and "policy_from" in arrays:
        policy_loss, d_policy = _policy_loss(arrays, h1, batch, policy, policy_weight, grads)
        loss += policy_loss
        d_h1 = d_h1 + d_policy
    d_acc = d_h1 * ((acc > 0) & (acc < 1))
    grads["b1"] = d_acc.sum(0)
    grads["wd"] = batch.dense.T @ d_acc
    counts = np.diff(np.append(batch.starts, len(batch.rows)))
    per_row = np.repeat(d_acc, counts, axis=0)
    touched, where = np.unique(batch.rows, return_inverse=True)
    rows_grad = np.zeros((len(touched), arrays["w1"].shape[1]), dtype=np.float64)
    np.add.at(rows_grad, where, per_row)
    grads["w1"] = (touched, rows_grad)
    return loss, grads




def losses(arrays: Mapping[str, NDArray[np.floating]], batch: Batch,
           targets: NDArray[np.floating], policy: NDArray[np.floating] | None = None
           ) -> tuple[float, float]:
    """The value's mean squared error and the policy head's mean cross-entropy (NaN
    without a policy head or targets) on a batch.

    Args:
        arrays: A network's arrays by name.
        batch: The positions.
        targets: Their target values, [B, 6].
        policy: Their actions' target probabilities, [A] (None: no policy loss).

    Returns:
        The value loss and the policy loss.
    """
    value = loss_and_gradients(arrays, batch, targets)[0]
    if policy is None or "policy_from" not in arrays or not policy.sum():
        return value, float("nan")
    return value, loss_and_gradients(arrays, batch, targets, policy)[0] - value


def position_value(arrays: Mapping[str, NDArray[np.floating]], game: Game) -> tuple[float, ...]:
    """The value per seat of ``game``'s position (not over) by `forward`: what the C
    evaluator computes, seats in their own order (6 floats, 0 for absent seats).

    Args:
        arrays: A network's arrays by name.
        game: The position, not over.

    Returns:
        The value of each seat.
    """
    value = forward(arrays, Batch.of([inputs(game)]))[0]
    seat = game.to_move
    return tuple(float(value[(a - seat) % SEATS]) for a in range(SEATS))


def position_priors(arrays: Mapping[str, NDArray[np.floating]], game: Game) -> tuple[float, ...]:
    """The policy head's priors over ``game.legal_actions()`` (its position not over) by
    `policy_forward`: what the C evaluator computes.

    Args:
        arrays: A network's arrays by name, its policy head's included.
        game: The position, not over.

    Returns:
        One prior per legal action, in legal_actions() order.
    """
    batch = Batch.of([inputs(game)], [moves(game)])
    h1 = _layers(arrays, batch)[1]
    return tuple(float(p) for p in policy_forward(arrays, h1, batch))


__all__ = ["ARRAYS", "BOARDS", "POLICY_ARRAYS", "POLICY_PAIR", "Actions", "Batch", "Gradients", "Inputs",
           "Moves", "forward", "inputs", "loss_and_gradients", "losses", "moves", "policy_forward",
           "position_priors", "position_value", "team_matrix"]
