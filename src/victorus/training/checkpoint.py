"""A training run's checkpoint files (victorus.training), written and read back, every
byte read on resume checked before it is trusted.

- ``window-<n>.npz``: the positions of the run's last rounds (numpy's ``.npz``, stored, no
  pickles), one group of arrays per round (`PACKED`, suffixed with the group's number).
  Each array's declared type and shape are read from its header and checked against the
  file's real sizes before anything is allocated, then every value against its range.
- ``curve.json``: its format (`CURVE_FORMAT`), the run's settings and one point per finished
  round, each field's type and range checked, the rounds agreeing with each other and with
  the run's acceptance test, and every rating the ladder's refit of the curve's matches. A
  curve of an earlier format (a run gated by a fixed score over a fixed number of games) is
  refused in one line: this victorus neither resumes nor reads it.

A file that fails raises `CheckpointError` (a ConfigError) naming the file (its name in
the run's folder) and what is wrong in it.
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import stat
import zipfile
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..checks import shown
from ..errors import ConfigError
from ..evaluation.twin import BOARDS, SEATS, SIZES, block_starts, board_cells, shapes
from ..files import read_limited
from .ladder import DECIMALS, ladder
from .sprt import ACCEPT, CAP, REJECT, VERDICTS, bounds
from .step import Sample

PACKED = ("boards", "counts", "rows", "dense", "terms", "teams", "targets", "moves", "origin", "target",
          "capture", "policy")
"""A window's arrays per round: the positions' boards, their sparse rows (``counts`` a position), dense
inputs, heuristic terms per seat, teams per seat and targets per seat; their legal actions (``moves`` a
position): each one's origin column (-1: a word), target column (or word), log capture prior and policy
target."""
PER_ACTION = ("origin", "target", "capture", "policy")
"""The arrays with an entry per legal action (the others: per position, and ``rows``)."""
#: Each array's dtype and its shape after the first axis.
_LAYOUT: dict[str, tuple[type[np.generic], tuple[int, ...]]] = {
    "boards": (np.int8, ()), "counts": (np.int32, ()), "rows": (np.int32, ()),
    "dense": (np.float32, (SIZES["dense_inputs"],)),
    "terms": (np.float32, (SIZES["skip_terms"], SEATS)),
    "teams": (np.int8, (SEATS,)), "targets": (np.float32, (SEATS,)), "moves": (np.int32, ()),
    "origin": (np.int32, ()), "target": (np.int32, ()), "capture": (np.float32, ()),
    "policy": (np.float32, ())}
CURVE_LIMIT = 64 << 20
"""The largest curve.json read (a run of 10,000 rounds is far below it)."""
CURVE_FORMAT = 2
"""The format of the curves this victorus writes and reads (1, unnumbered: a fixed gate)."""
POINT_FIELDS = ("round", "minutes", "games", "positions", "train_loss", "validation_loss",
                "heuristic_loss", "policy_loss", "searched_by", "gate", "accepted", "best", "vs_start",
                "vs_heuristic", "labelled_per_second", "network", "anchors", "rating",
                "holdout_by_config", "labels")
"""A curve point's fields (victorus.training.run.Point says what each holds)."""
SCORE_FIELDS = ("score", "low", "high", "games", "wins", "losses")
"""A match's fields in a curve point (victorus.training.gating.MatchScore)."""
TRIAL_FIELDS = ("games", "groups", "score", "low", "high")
"""The fields of a match of the acceptance test or an anchor (victorus.training.gating.Trial)."""
GATE_FIELDS = ("verdict", "llr", "lower", "upper", *TRIAL_FIELDS)
"""The acceptance test's fields in a curve point (victorus.training.gating.acceptance)."""
ANCHOR_FIELDS = ("round", *TRIAL_FIELDS)
"""An anchor match's fields (victorus.training.gating.anchor)."""
RATING_FIELDS = ("elo", "low", "high")
"""A rating's fields (victorus.training.ladder)."""
CONFIG_FIELDS = ("board", "teams", "positions", "value_loss", "policy_loss")
"""The fields of a held-out configuration's losses."""
LABEL_FIELDS = ("student", "teacher", "trained", "floor", "excess", "ahead", "positions")
"""The fields of a round's label study (victorus.training.labels.measure)."""
ROUNDING = 5e-5
"""How far a bound in the curve may be from the settings' (the curve keeps 4 places)."""
ELO_MOST = 1e6
"""The largest rating a curve may hold, either way."""
#: The most minutes a run can have spent (victorus.training.settings.Settings' cap on ``minutes``).
MOST_MINUTES = 1e6


class CheckpointError(ConfigError):
    """A checkpoint file that cannot be trusted: the message names it and what is wrong."""


def pack(samples: list[Sample]) -> dict[str, NDArray[Any]]:
    """One round's positions (training samples) as the flat arrays of a window.

    Args:
        samples: The round's samples.

    Returns:
        The arrays of `PACKED` by name.
    """
    if not samples:
        return {name: np.zeros((0, *shape), dtype) for name, (dtype, shape) in _LAYOUT.items()}
    return {"boards": np.array([BOARDS.index(s[0]) for s in samples], np.int8),
            "counts": np.array([len(s[1]) for s in samples], np.int32),
            "rows": np.concatenate([s[1] for s in samples]).astype(np.int32),
            "dense": np.stack([s[2] for s in samples]), "terms": np.stack([s[3] for s in samples]),
            "teams": np.stack([s[4] for s in samples]), "targets": np.stack([s[5] for s in samples]),
            "moves": np.array([len(s[6]) for s in samples], np.int32),
            **{name: np.concatenate([s[6 + i] for s in samples]).astype(_LAYOUT[name][0])
               for i, name in enumerate(PER_ACTION)}}


def unpack(arrays: Mapping[str, NDArray[Any]]) -> list[Sample]:
    """A window's arrays back as samples (board name, rows, dense, terms, teams, target,
    origins, targets, captures, policy).

    Args:
        arrays: One round's arrays of `PACKED` by name.

    Returns:
        The round's samples.
    """
    ends = np.cumsum(arrays["counts"])
    rows = np.split(arrays["rows"], ends[:-1]) if len(ends) else []
    cuts = np.cumsum(arrays["moves"])[:-1]
    actions = [np.split(arrays[name], cuts) if len(ends) else [] for name in PER_ACTION]
    return [(BOARDS[int(b)], r, d, t, m, y, *legal) for b, r, d, t, m, y, *legal in zip(
        arrays["boards"], rows, arrays["dense"], arrays["terms"], arrays["teams"],
        arrays["targets"], *actions)]


def window_bytes(windows: list[list[Sample]]) -> bytes:
    """The ``.npz`` of a window: each round's samples packed, numbered from 0.

    Args:
        windows: The samples of each round of the window.

    Returns:
        The file's bytes.
    """
    arrays: dict[str, Any] = {f"{name}{i}": array for i, window in enumerate(windows)
                              for name, array in pack(window).items()}
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def read_window(path: str, most: int) -> list[list[Sample]]:
    """The rounds of samples of the window file ``path`` (at most ``most`` rounds), every
    array's header, size and values checked first: `CheckpointError` otherwise.

    Args:
        path: The window file's path.
        most: The most rounds it may hold.

    Returns:
        The samples of each round.

    Raises:
        CheckpointError: If the file is missing or is not a window this run wrote.
    """
    def refuse(why: str) -> CheckpointError:
        return CheckpointError(f"{os.path.basename(path)} is not a window this run wrote: {why}")
    archive = _open_npz(path, refuse)
    with archive:
        members = {info.filename: info for info in archive.infolist()}
        count = len(members) // len(PACKED)
        expected = {f"{name}{i}.npy" for i in range(count) for name in PACKED}
        if not 1 <= count <= most or set(members) != expected:
            raise refuse(f"it holds {shown(sorted(members)[:8], 200)}, not the arrays {PACKED} of 1 to "
                         f"{most} rounds")
        _check_members(path, members, refuse)
        arrays: dict[str, NDArray[Any]] = {}
        for name, info in members.items():
            arrays[name[:-4]] = _read_array(archive, info, refuse)
    windows = []
    for i in range(count):
        group = {name: arrays[f"{name}{i}"] for name in PACKED}
        _check_window(group, refuse, f"round {i} of the window")
        windows.append(unpack(group))
    return windows


def _open_npz(path: str, refuse: Callable[[str], CheckpointError]) -> zipfile.ZipFile:
    """The ``.npz`` file ``path`` opened: a regular file and a whole zip, or ``refuse``."""
    _check_regular(path, refuse)
    try:
        return zipfile.ZipFile(path)
    except (OSError, zipfile.BadZipFile, ValueError, RuntimeError, NotImplementedError,
            EOFError) as exc:
        raise refuse(f"not a whole .npz file ({_first_line(exc)})") from None


def _check_members(path: str, members: Mapping[str, zipfile.ZipInfo],
                   refuse: Callable[[str], CheckpointError]) -> None:
    """An ``.npz``'s members declare no more bytes than the file holds, and none is
    encrypted or patched (the run writes plain arrays)."""
    if sum(info.compress_size for info in members.values()) > os.path.getsize(path):
        raise refuse("its arrays declare more bytes than the file holds")
    flagged = sorted(info.filename for info in members.values() if info.flag_bits & 0x61)
    if flagged:                          # zip's encrypted and patched-data flags
        raise refuse(f"{flagged[0]} is encrypted or patched (the run writes plain arrays)")


def _read_array(archive: zipfile.ZipFile, info: zipfile.ZipInfo,
                refuse: Callable[[str], CheckpointError],
                exact: tuple[type[np.generic], tuple[int, ...]] | None = None) -> NDArray[Any]:
    """One array of the window (or of ``exact`` dtype and shape), its header checked
    against its layout and its size before the array is allocated."""
    if exact is None:
        dtype, tail = _LAYOUT[info.filename[:-4].rstrip("0123456789")]
    else:
        dtype, tail = exact[0], exact[1][1:]
    if info.compress_type != zipfile.ZIP_STORED or info.compress_size != info.file_size:
        raise refuse(f"{info.filename} is compressed (the run writes stored arrays)")
    why = None
    try:
        with archive.open(info) as fh:
            version = np.lib.format.read_magic(fh)
            reader = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                      else np.lib.format.read_array_header_2_0)
            shape, fortran, declared = reader(fh)
            header = fh.tell()
            if (np.dtype(declared) != np.dtype(dtype) or fortran or len(shape) != 1 + len(tail)
                    or tuple(shape[1:]) != tail or (exact is not None and tuple(shape) != exact[1])):
                wanted = exact[1] if exact is not None else f"(n, {', '.join(map(str, tail))})"
                why = (f"{info.filename} is {np.dtype(declared)} of shape {shape}, not "
                       f"{np.dtype(dtype)} of shape {wanted}")
            elif header + math.prod(shape) * np.dtype(dtype).itemsize != info.file_size:
                why = (f"{info.filename} declares shape {shape}, which is not its size "
                       f"({info.file_size} bytes)")
            else:
                array = np.frombuffer(fh.read(), dtype=dtype).reshape(shape)
    except (ValueError, OSError, zipfile.BadZipFile, EOFError, RuntimeError,
            NotImplementedError) as exc:
        why = f"{info.filename}: {_first_line(exc)}"
    if why is not None:
        raise refuse(why)
    return array


def arrays_bytes(arrays: Mapping[str, NDArray[Any]]) -> bytes:
    """The ``.npz`` of named arrays (stored, no pickles).

    Args:
        arrays: The arrays by name.

    Returns:
        The file's bytes.
    """
    named: dict[str, Any] = dict(arrays)
    buffer = io.BytesIO()
    np.savez(buffer, **named)
    return buffer.getvalue()


Layout = dict[str, tuple[type[np.generic], tuple[int, ...]]]
"""Arrays' names, dtypes and shapes."""


def optimiser_layout(arrays: Mapping[str, NDArray[Any]]) -> Layout:
    """The arrays of the state of an optimiser over a network's ``arrays``
    (victorus.training.step.Adam.state), each with its dtype and shape: its moments float64,
    the first layer's float32.

    Args:
        arrays: The network's arrays by name.

    Returns:
        Each state array's name, dtype and shape.
    """
    layout: Layout = {"row_t": (np.int64, (len(arrays["w1"]),))}      # the names: Adam.state
    for name, array in arrays.items():
        layout[f"m.{name}"] = layout[f"v.{name}"] = (np.float32 if name == "w1" else np.float64,
                                                     array.shape)
        if name != "w1":
            layout[f"t.{name}"] = (np.int64, (1,))
    return layout


def read_arrays(path: str, layout: Layout, what: str,
                nonnegative: frozenset[str] = frozenset()) -> dict[str, NDArray[Any]]:
    """The arrays of the ``.npz`` file ``path``: exactly those of ``layout``, each of its
    dtype and shape (checked from its header before it is read) and finite, counts and
    the arrays named in ``nonnegative`` not negative: `CheckpointError` otherwise.

    Args:
        path: The file's path.
        layout: Each array's name, dtype and shape.
        what: What the file is, for the errors.
        nonnegative: The float arrays that hold no negative value (an optimiser's second
            moments).

    Returns:
        The arrays by name.

    Raises:
        CheckpointError: If the file is missing or does not hold those arrays.
    """
    def refuse(why: str) -> CheckpointError:
        return CheckpointError(f"{os.path.basename(path)} is not {what} this run wrote: {why}")
    archive = _open_npz(path, refuse)
    with archive:
        members = {info.filename: info for info in archive.infolist()}
        if set(members) != {f"{name}.npy" for name in layout}:
            raise refuse(f"it holds {shown(sorted(members)[:6], 200)}, not the arrays "
                         f"{sorted(layout)[:6]}...")
        _check_members(path, members, refuse)
        arrays = {name: _read_array(archive, members[f"{name}.npy"], refuse, layout[name])
                  for name in layout}
    for name, array in arrays.items():
        if not np.isfinite(array).all():
            raise refuse(f"{name} holds values that are not finite")
        if (array.dtype.kind == "i" or name in nonnegative) and (array < 0).any():
            raise refuse(f"{name} holds negative values")
    return arrays


def _first_line(exc: BaseException) -> str:
    """An exception's message, its first line only (cut to 200 characters)."""
    text = str(exc).strip().splitlines()
    return shown(text[0] if text else type(exc).__name__, 200).strip("'\"")


def _check_regular(path: str, refuse: Callable[[str], CheckpointError]) -> None:
    """A checkpoint is a regular file: a FIFO or a device would be waited on or read
    without end."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise refuse("it is missing") from None
    except OSError as exc:
        raise refuse(_first_line(exc)) from None
    if not stat.S_ISREG(info.st_mode):
        raise refuse("it is not a regular file")


def _check_window(group: dict[str, NDArray[Any]], refuse: Callable[[str], CheckpointError],
                  where: str) -> None:
    """One round's arrays: the same number of positions in each, rows adding up to the
    counts, boards known, each row inside its board's block, teams seats, floats finite."""
    positions = len(group["boards"])
    for name in PACKED:
        if name != "rows" and name not in PER_ACTION and len(group[name]) != positions:
            raise refuse(f"{where}: {name} has {len(group[name])} entries for {positions} "
                         f"positions")
    counts = group["counts"].astype(np.int64)
    if (counts < 0).any() or counts.sum() != len(group["rows"]):
        raise refuse(f"{where}: its row counts do not add up to its {len(group['rows'])} rows")
    boards = group["boards"].astype(np.int64)
    if ((boards < 0) | (boards >= len(BOARDS))).any():
        raise refuse(f"{where}: a board number outside 0-{len(BOARDS) - 1}")
    starts = [block_starts()[name] for name in BOARDS] + [shapes(1, 1)["w1"][0]]
    limits = np.diff(np.array(starts, np.int64))
    rows = group["rows"].astype(np.int64)
    if ((rows < 0) | (rows >= np.repeat(limits[boards], counts))).any():
        raise refuse(f"{where}: a sparse row outside its board's block")
    teams = group["teams"]
    if ((teams < -1) | (teams >= SEATS)).any():
        raise refuse(f"{where}: a team outside -1 (absent) to {SEATS - 1}")
    for name in ("dense", "terms", "targets", "capture", "policy"):
        if not np.isfinite(group[name]).all():
            raise refuse(f"{where}: {name} holds values that are not finite")
    _check_actions(group, refuse, where)


def _check_actions(group: dict[str, NDArray[Any]], refuse: Callable[[str], CheckpointError],
                   where: str) -> None:
    """One round's legal actions: as many as the positions' counts, each origin a cell of
    its board or -1 (a word), each target a cell of its board (a word: a word's number),
    policy targets from 0 to 1."""
    moves = group["moves"].astype(np.int64)
    if (moves < 0).any() or any(len(group[name]) != moves.sum() for name in PER_ACTION):
        raise refuse(f"{where}: its action counts do not add up to its actions")
    cells = np.array(board_cells(), np.int64)[group["boards"].astype(np.int64)]
    limit = np.repeat(cells, moves)
    origin, target = group["origin"].astype(np.int64), group["target"].astype(np.int64)
    word = origin < 0
    if ((origin < -1) | (origin >= limit)).any() or (target < 0).any() \
            or (target >= np.where(word, SIZES["words"], limit)).any():
        raise refuse(f"{where}: an action outside its board's cells (or the words)")
    policy = group["policy"]
    if ((policy < 0) | (policy > 1)).any():
        raise refuse(f"{where}: a policy target outside 0 to 1")


def read_curve(path: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The settings (as saved) and the points of the curve file ``path``, every field's
    type and range checked: `CheckpointError` otherwise.

    Args:
        path: The curve file's path.

    Returns:
        The settings (JSON values by name) and the points (one object per round).

    Raises:
        CheckpointError: If the file is missing or is not a curve this run wrote.
    """
    def refuse(why: str) -> CheckpointError:
        return CheckpointError(f"{os.path.basename(path)} is not a curve this run wrote: {why}")
    if not os.path.lexists(path):
        raise CheckpointError(f"{os.path.basename(path)} is missing: no round was finished "
                              f"there")
    _check_regular(path, refuse)
    try:
        text = read_limited(path, CURVE_LIMIT, error=CheckpointError)
    except CheckpointError as exc:
        raise refuse(_first_line(exc)) from None
    except OSError as exc:
        raise refuse(_first_line(exc)) from None
    try:
        curve = json.loads(text)
    except (ValueError, RecursionError) as exc:           # UnicodeDecodeError included
        raise refuse(f"not JSON ({_first_line(exc)})") from None
    if isinstance(curve, dict) and "format" not in curve and "points" in curve:
        raise CheckpointError(f"{os.path.basename(path)} was written by an earlier victorus (its "
                              f"rounds were gated by a fixed score, not the acceptance test): this "
                              f"victorus reads curves of format {CURVE_FORMAT}; train a new run")
    if not isinstance(curve, dict) or curve.get("format") != CURVE_FORMAT \
            or not isinstance(curve.get("settings"), dict) \
            or not isinstance(curve.get("points"), list) or not curve["points"]:
        raise refuse(f"it needs an object with 'format' ({CURVE_FORMAT}), 'settings' (an object) "
                     f"and 'points' (a non-empty list)")
    minutes = 0.0
    for number, point in enumerate(curve["points"]):
        _check_point(point, number, minutes, refuse)
        minutes = point["minutes"]
    _check_agreement(curve["settings"], curve["points"], refuse)
    return curve["settings"], curve["points"]


def _setting(settings: dict[str, Any], name: str, low: float, high: float, whole: bool,
             refuse: Callable[[str], CheckpointError]) -> float:
    """A setting of the acceptance test in the saved ``settings``, checked: a number from
    ``low`` to ``high`` (``whole``: an integer)."""
    value: Any = settings.get(name)
    if not _number(value, low, high) or (whole and not isinstance(value, int)):
        raise refuse(f"settings: {name} must be {'an integer' if whole else 'a number'} from "
                     f"{low:g} to {high:g}, got {shown(value)}")
    return float(value)


def _check_gate(gate: dict[str, Any], where: str, cap: float, lower: float, upper: float,
                refuse: Callable[[str], CheckpointError]) -> None:
    """An acceptance test's verdict agrees with its ratio, its bounds and its games: accepted
    at or above the upper bound, refused at or below the lower, the cap reached between."""
    if abs(gate["lower"] - lower) > ROUNDING or abs(gate["upper"] - upper) > ROUNDING:
        raise refuse(f"{where}: its test's bounds [{gate['lower']:g}, {gate['upper']:g}] are not "
                     f"the run's alpha and beta's [{lower:.4f}, {upper:.4f}]")
    ratio, verdict = gate["llr"], gate["verdict"]
    expected = (ACCEPT if ratio >= gate["upper"] else REJECT if ratio <= gate["lower"]
                else CAP if gate["games"] >= cap else None)
    if verdict != expected:
        raise refuse(f"{where}: its test's verdict {shown(verdict)} does not follow from its LLR "
                     f"{ratio:g} in [{gate['lower']:g}, {gate['upper']:g}] after {gate['games']} "
                     f"games of the cap's {cap:g}")


def _check_agreement(settings: dict[str, Any], points: list[dict[str, Any]],
                     refuse: Callable[[str], CheckpointError]) -> None:
    """The rounds agree with each other and with the run's acceptance test
    (victorus.training.run's loop): round 0 plays no match; a round is tested when
    ``gate_games`` is not 0, its verdict following from its ratio and bounds; accepted when
    untested, or when the test accepted it and no anchor's interval lies below a half; the
    anchors played (round 0 and the first accepted round, not the best before) when, and only
    when, the test accepted; a refused round's best is the round before's; its games searched
    by round 0's network or by the best after the round before; an accepted round, and only
    one, plays its ``curve_games`` against round 0 and best-heuristic; every rating is the
    ladder's refit of the curve's matches."""
    gate_games = _setting(settings, "gate_games", 0, 100_000, True, refuse)
    anchor_games = _setting(settings, "anchor_games", 0, 100_000, True, refuse)
    curve_games = _setting(settings, "curve_games", 0, 100_000, True, refuse)
    alpha, beta = (_setting(settings, name, 1e-300, 0.5, False, refuse) for name in ("alpha", "beta"))
    lower, upper = bounds(alpha, beta)
    first = points[0]
    if any(first[name] is not None for name in ("gate", "vs_start", "vs_heuristic")) \
            or first["anchors"]:
        raise refuse("round 0 (the start) plays no gate and no match, but its point holds one")
    first_accepted = None
    for before, point in zip(points, points[1:]):
        where, gate, accepted = f"round {point['round']}", point["gate"], point["accepted"]
        if (gate is None) != (gate_games == 0):
            raise refuse(f"{where} {'has no gate' if gate is None else 'has a gate'}, but the run's "
                         f"gate_games is {gate_games:g}")
        anchors = point["anchors"]
        if gate is not None:
            _check_gate(gate, where, gate_games, lower, upper, refuse)
            wanted = ([n for n in (0, first_accepted) if n is not None and n != before["best"]]
                      if gate["verdict"] == ACCEPT and anchor_games else [])
            if [a["round"] for a in anchors] != wanted or any(a["games"] < anchor_games
                                                                for a in anchors):
                raise refuse(f"{where}'s anchors are rounds {[a['round'] for a in anchors]}, not "
                             f"the run's anchors for it, rounds {wanted}, of {anchor_games:g} games "
                             f"or more")
            passed = gate["verdict"] == ACCEPT and all(a["high"] >= 0.5 for a in anchors)
            if accepted != passed:
                raise refuse(f"{where} is {'accepted' if accepted else 'refused'}, but its test's "
                             f"verdict is {shown(gate['verdict'])} and its anchors' high ends "
                             f"{[a['high'] for a in anchors]} (below 0.5 refuses)")
        elif not accepted or anchors:
            raise refuse(f"{where} is refused or plays anchors without a gate (an ungated round "
                         f"is accepted, and plays none)")
        if accepted and first_accepted is None:
            first_accepted = point["round"]
        if not accepted and point["best"] != before["best"]:
            raise refuse(f"{where} is refused, so its best is the best after round "
                         f"{before['round']} (round {before['best']}), not round {point['best']}")
        if point["searched_by"] not in (0, before["best"]):
            raise refuse(f"{where} was searched by round {point['searched_by']}, but self-play "
                         f"searches with round 0's network or with the best after round "
                         f"{before['round']} (round {before['best']})")
        played = accepted and curve_games > 0
        for name in ("vs_start", "vs_heuristic"):
            match = point[name]
            if (match is not None) != played or (match is not None and match["games"] != curve_games):
                raise refuse(f"{where} is {'accepted' if accepted else 'refused'} and the run's "
                             f"curve_games is {curve_games:g}, so its {name} must be "
                             f"{f'a match of {curve_games:g} games' if played else 'null'}, got "
                             f"{shown(match)}")
    _check_ladder(points, refuse)


def _check_ladder(points: list[dict[str, Any]], refuse: Callable[[str], CheckpointError]) -> None:
    """Every point's rating is the ladder's (victorus.training.ladder) from the curve's
    matches, to the places the curve keeps."""
    for point, rating in zip(points, ladder(points)):
        kept = point["rating"]
        if (kept is None) != (rating is None) or (kept is not None and rating is not None and any(
                abs(kept[k] - rating[k]) > 0.6 * 10 ** -DECIMALS for k in RATING_FIELDS)):
            raise refuse(f"point {point['round']}: its rating {shown(kept)} is not the ladder's "
                         f"from the curve's matches ({shown(rating)})")


def _number(value: object, low: float, high: float, nan: bool = False) -> bool:
    """Whether ``value`` is a JSON number in [low, high] (NaN too if ``nan``)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return (nan and math.isnan(value)) or low <= value <= high


def _check_point(point: object, number: int, earlier: float,
                 refuse: Callable[[str], CheckpointError]) -> None:
    where = f"point {number}"
    if not isinstance(point, dict) or set(point) != set(POINT_FIELDS):
        raise refuse(f"{where} must be an object with the fields {', '.join(POINT_FIELDS)}")
    content = point["network"]
    if not isinstance(content, str) or not re.fullmatch(r"[0-9a-f]{12}", content):
        raise refuse(f"{where}: network must be a network's content name (12 hex digits), got "
                     f"{shown(point.get('network'))}")
    _check_rounds(point, where, number, refuse)
    for name in ("round", "games", "positions"):
        value = point[name]
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10**12:
            raise refuse(f"{where}: {name} must be an integer from 0, got {shown(value)}")
    if point["round"] != number:
        raise refuse(f"{where} is numbered {point['round']} (the points are rounds 0, 1, ...)")
    if not _number(point["minutes"], earlier, MOST_MINUTES):
        raise refuse(f"{where}: minutes must be a number from {earlier:g} (the round before) to "
                     f"{MOST_MINUTES:g}, got {shown(point['minutes'])}")
    losses = point["train_loss"]
    if not isinstance(losses, list) or len(losses) > 1000 \
            or not all(_number(x, 0, 1e30) for x in losses):
        raise refuse(f"{where}: train_loss must be a list of finite losses")
    for name in ("validation_loss", "heuristic_loss", "policy_loss"):
        if not _number(point[name], 0, 1e30, nan=True):
            raise refuse(f"{where}: {name} must be a finite loss (or NaN), got "
                         f"{shown(point[name])}")
    if not _number(point["labelled_per_second"], 0, 1e12):
        raise refuse(f"{where}: labelled_per_second must be a number from 0, got "
                     f"{shown(point['labelled_per_second'])}")
    for name in ("vs_start", "vs_heuristic"):
        score = point[name]
        if score is not None and not _is_score(score):
            raise refuse(f"{where}: {name} must be null or a match's score (fields "
                         f"{', '.join(SCORE_FIELDS)}), got {shown(score)}")
    _check_trials(point, where, number, refuse)
    rating = point["rating"]
    if rating is not None and not (isinstance(rating, dict) and set(rating) == set(RATING_FIELDS)
                                   and all(_number(rating[k], -ELO_MOST, ELO_MOST)
                                           for k in RATING_FIELDS)
                                   and rating["low"] <= rating["elo"] <= rating["high"]):
        raise refuse(f"{where}: rating must be null or a rating (fields {', '.join(RATING_FIELDS)}, "
                     f"low <= elo <= high), got {shown(rating)}")
    configs = point["holdout_by_config"]
    if not isinstance(configs, list) or len(configs) > 1000 or not all(
            isinstance(c, dict) and set(c) == set(CONFIG_FIELDS)
            and c["board"] in BOARDS and isinstance(c["teams"], int)
            and _number(c["teams"], 2, SEATS)
            and _number(c["positions"], 1, 10**12) and isinstance(c["positions"], int)
            and _number(c["value_loss"], 0, 1e30, nan=True)
            and _number(c["policy_loss"], 0, 1e30, nan=True) for c in configs):
        raise refuse(f"{where}: holdout_by_config must be a list of a configuration's losses "
                     f"(fields {', '.join(CONFIG_FIELDS)})")
    labels = point["labels"]
    if labels is not None and not (
            isinstance(labels, dict) and set(labels) == set(LABEL_FIELDS)
            and all(_number(labels[k], 0, 1e30) for k in ("student", "teacher", "trained", "floor"))
            and isinstance(labels["excess"], dict) and set(labels["excess"]) == {"student", "teacher"}
            and all(_number(x, 0, 1e30) for x in labels["excess"].values())
            and _number(labels["ahead"], -1e30, 1) and isinstance(labels["positions"], int)
            and _number(labels["positions"], 1, 10**9)):
        raise refuse(f"{where}: labels must be null or a label study (fields "
                     f"{', '.join(LABEL_FIELDS)}), got {shown(labels)}")


def _check_trials(point: dict[str, Any], where: str, number: int,
                  refuse: Callable[[str], CheckpointError]) -> None:
    """A point's acceptance test (null or its fields) and anchors (a list of matches against
    earlier rounds)."""
    gate = point["gate"]
    if gate is not None and not (_is_trial(gate, GATE_FIELDS) and gate["verdict"] in VERDICTS
                                 and all(_number(gate[k], -1e12, 1e12)
                                         for k in ("llr", "lower", "upper"))):
        raise refuse(f"{where}: gate must be null or an acceptance test (fields "
                     f"{', '.join(GATE_FIELDS)}, verdict one of {', '.join(VERDICTS)}), got "
                     f"{shown(gate)}")
    anchors = point["anchors"]
    if not isinstance(anchors, list) or not all(
            _is_trial(a, ANCHOR_FIELDS) and isinstance(a["round"], int)
            and not isinstance(a["round"], bool) and 0 <= a["round"] < number for a in anchors):
        raise refuse(f"{where}: anchors must be a list of matches against earlier rounds (fields "
                     f"{', '.join(ANCHOR_FIELDS)}), got {shown(anchors)}")


def _is_trial(trial: object, fields: tuple[str, ...]) -> bool:
    """Whether ``trial`` has exactly ``fields``, its games and groups counts (1 group or
    more, no more groups than games) and its score inside its interval, all from 0 to 1."""
    return (isinstance(trial, dict) and set(trial) == set(fields)
            and all(isinstance(trial[k], int) and not isinstance(trial[k], bool)
                    for k in ("games", "groups"))
            and 1 <= trial["groups"] <= trial["games"] <= 10**9
            and all(_number(trial[k], 0, 1) for k in ("score", "low", "high"))
            and trial["low"] <= trial["score"] <= trial["high"])


def _is_score(score: object) -> bool:
    """Whether ``score`` is a match's score as the curve holds it (victorus.training.gating)."""
    return (isinstance(score, dict) and set(score) == set(SCORE_FIELDS)
            and all(_number(score[k], 0, 1) for k in ("score", "low", "high"))
            and all(_number(score[k], 0, 10**9) for k in ("games", "wins", "losses")))


def _check_rounds(point: dict[str, Any], where: str, number: int,
                  refuse: Callable[[str], CheckpointError]) -> None:
    """A point's rounds: ``searched_by`` an earlier round (or -1), ``best`` this round or
    an earlier one, ``accepted`` a boolean saying which."""
    best, searched = point["best"], point["searched_by"]
    if not isinstance(point["accepted"], bool):
        raise refuse(f"{where}: accepted must be true or false, got {shown(point['accepted'])}")
    if isinstance(best, bool) or not isinstance(best, int) or not 0 <= best <= number \
            or (best == number) != point["accepted"]:
        raise refuse(f"{where}: best must be the round of the best network ({number} if "
                     f"accepted, else an earlier round), got {shown(best)}")
    if isinstance(searched, bool) or not isinstance(searched, int) or not -1 <= searched < max(number, 0):
        raise refuse(f"{where}: searched_by must be an earlier round or -1, got {shown(searched)}")


__all__ = ["ANCHOR_FIELDS", "CONFIG_FIELDS", "CURVE_FORMAT", "CURVE_LIMIT", "CheckpointError",
           "GATE_FIELDS", "RATING_FIELDS", "TRIAL_FIELDS", "Layout", "PACKED", "PER_ACTION",
           "POINT_FIELDS", "SCORE_FIELDS",
           "arrays_bytes", "optimiser_layout", "pack", "read_arrays", "read_curve", "read_window",
           "unpack", "window_bytes"]
