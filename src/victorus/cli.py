"""Command line: ``victorus perft | simulate | bench | tournament | match | network compare | render |
play | serve | train | curve``."""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

from . import __version__
from .agents import AGENT_SPECS
from .checks import parse_int, shown, shown_path
from .constants import PIECE_LETTERS
from .errors import AgentError, ConfigError, VictorusError, WorkerLost
from .files import os_error_line, preflight, write_atomic
from .game import DEFAULT_MAX_ACTIONS, MAX_ACTION_CAP, MAX_PERFT_HASH_MB, MAX_PERFT_THREADS, Game, _perft
from .geometry import SEAT_NAMES
from .match import COMPARE_GAMES, COMPARE_ITERATIONS, MATCH_GAMES, MATCH_OPENING
from .progress import Progress, hold_standard_fds, quiet
from .simulate import MAX_GAMES
from .tournament import LINEUPS, MAX_OPENING_PLIES

if TYPE_CHECKING:
    from .simulate import SimulatedGame
    from .training import Point

_Result = TypeVar("_Result")


#: The seeds the command line takes (64-bit, as the simulations and records keep them).
MAX_SEED = 2**64 - 1


def _int_in(name: str, low: int, high: int = MAX_SEED) -> Callable[[str], int]:
    def parse(text: str) -> int:
        return parse_int(name, text.strip(), low, high, argparse.ArgumentTypeError,
                         canonical=False)                  # no 5,000-digit numbers
    return parse


def _seconds(name: str) -> Callable[[str], float | None]:
    def parse(text: str) -> float | None:
        from .record import check_time_limit
        try:
            return check_time_limit(float(text), argparse.ArgumentTypeError)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a number of seconds, "
                                             f"got {shown(text, 60)}") from None
    return parse


def _add_game_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--board", choices=("standard", "compact"), default="standard",
                   help="the board (R3): standard's 181 cells or compact's 127")
    p.add_argument("--players", type=_int_in("--players", 2, 6), default=None,
                   help="2-6 (R33), default 6")
    p.add_argument("--variant", default="standard",
                   help="'standard' or a '+'-joined list of 'allied', 'quick<rounds>' (R39)")


def _add_table_options(p: argparse.ArgumentParser, seats_help: str) -> None:
    """A game at a table (victorus.session), play's and serve's: the game, who plays it
    (people's seats, the agent elsewhere), the clock and the agents' seed."""
    _add_game_options(p)
    p.add_argument("--seats", default=None, help=seats_help)
    p.add_argument("--agent", default="greedy",
                   help=f"the other seats' agent: {AGENT_SPECS}")
    p.add_argument("--time-limit", type=_seconds("--time-limit"), default=None, metavar="SECONDS",
                   help="seconds to start each turn, else it is forfeited (rulebook: 120 "
                        "for a serious game, 300 for learners); default: no clock")
    p.add_argument("--seed", type=_int_in("--seed", 0, MAX_SEED), default=0,
                   help="the agents' seed (seat s: SEED + s)")


def _add_json_option(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--json", metavar="FILE", default=None,
                   help=f"also write {what} as JSON to FILE ('-': standard output, the text "
                        "then goes to standard error)")


#: --log-level's choices; -v is info, -vv debug.
LOG_LEVELS = ("debug", "info", "warning", "error", "critical")


def _add_log_options(p: argparse.ArgumentParser) -> None:
    """The commands that run a server or a long job: what the "victorus" logger (and
    uvicorn's, for serve) show on standard error."""
    p.add_argument("--log-level", choices=LOG_LEVELS, default=None,
                   help="the log records shown on standard error (default warning)")
    p.add_argument("-v", "--verbose", action="count", default=0,
                   help="-v: --log-level info, -vv: debug")


def _log_level(args: argparse.Namespace) -> str:
    """The level asked for (--log-level wins over -v), and the package's loggers set to it,
    with a handler on standard error unless the application has one."""
    import logging
    level = args.log_level or LOG_LEVELS[max(0, 2 - args.verbose)]
    if not logging.getLogger().handlers:
        logging.basicConfig(format="victorus: %(levelname)s: %(name)s: %(message)s")
    logging.getLogger("victorus").setLevel(level.upper())
    return level


def _add_long_job_options(p: argparse.ArgumentParser) -> None:
    """The commands of a long job: a progress bar, and the log options."""
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="a progress bar with an ETA on standard error (default: on a terminal)")
    _add_log_options(p)


def _check_outputs(*outputs: tuple[str, str | None], inputs: Sequence[tuple[str, str | None]] = (),
                   backend: str = "local") -> None:
    """Refuse before any work what would refuse the command's writes (victorus.files.preflight):
    an output (``(option, path)``) that is one of the ``inputs`` or cannot be written, a
    backend that is not installed. The error names the option and the user's path."""
    preflight(outputs=outputs, inputs=inputs, needs=[("--backend ray", "ray")] if backend == "ray" else ())


def _spec_files(specs: Sequence[str], what: Callable[[int, str], str]) -> list[tuple[str, str | None]]:
    """The network files that agent specs name (``best-net(FILE):400``), as the inputs of
    `_check_outputs`, each called ``what(index, spec)``; a bad spec is refused here, as the
    command would refuse it."""
    from .evaluation.network import network_file
    from .search.registry import split_spec
    files = []
    for index, spec in enumerate(specs):
        network = split_spec(spec)[1]
        files.append((what(index, spec), None if network is None else network_file(network.strip())))
    return files


def _write_json(target: str, data: object) -> None:
    text = json.dumps(data, indent=1)
    if target == "-":
        print(text, flush=True)
    else:
        write_atomic(target, text + "\n")


class _HelpFormatter(argparse.HelpFormatter):
    """The help of every command: each option's default said once. An option whose help
    says its default (the word "default") is left as it is; any other option with a
    default gets "(default: X)", except flags (store_true, -v) and a default of None
    (the help says what no value means). ``--x/--no-x`` shows its default as the flag."""

    _SAYS_DEFAULT = re.compile(r"\bdefault\b", re.IGNORECASE)

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help
        if (text is None or self._SAYS_DEFAULT.search(text) or action.default is None
                or action.default is argparse.SUPPRESS):
            return text
        if isinstance(action, argparse.BooleanOptionalAction):
            if not isinstance(action.default, bool):
                return f"{text} (default: %(default)s)"
            flag = next(s for s in action.option_strings if s.startswith("--no-") != action.default)
            return f"{text} (default: {flag})"
        if action.nargs == 0:                                 # store_true, count, ...
            return text
        if not action.option_strings and action.nargs not in (argparse.OPTIONAL,
                                                              argparse.ZERO_OR_MORE):
            return text                                       # a positional one must be given
        return f"{text} (default: %(default)s)"


class _Parser(argparse.ArgumentParser):
    """An argument parser with the command line's help formatter; its subcommands' parsers
    are made by this class too (argparse's ``add_subparsers`` default)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)


if TYPE_CHECKING:
    _Commands = argparse._SubParsersAction[_Parser]


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="victorus", description="VICTORUS game engine")
    parser.add_argument("--version", action="version", version=f"victorus {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _perft_parser(commands)
    _simulate_parser(commands)
    _tournament_parser(commands)
    _match_parser(commands)
    _network_parser(commands)
    _play_parser(commands)
    _serve_parser(commands)
    _render_parser(commands)
    _bench_parser(commands)
    _train_parser(commands)
    _curve_parser(commands)
    return parser


def _perft_parser(commands: _Commands) -> None:
    p = commands.add_parser(
        "perft", help="count action sequences (R40) from a position",
        description="Print one line per depth 1..DEPTH: the perft count (R40) and nodes per second.")
    p.add_argument("depth", type=_int_in("DEPTH", 1, 10), metavar="DEPTH", help="deepest depth, 1-10")
    _add_game_options(p)
    p.add_argument("--vpn", default=None, help="start from this R39 position instead")
    p.add_argument("--threads", type=_int_in("--threads", 1, MAX_PERFT_THREADS), default=1,
                   help="count the root's actions on this many threads from depth 4 "
                        "(default 1)")
    p.add_argument("--hash", type=_int_in("--hash", 0, MAX_PERFT_HASH_MB), default=0,
                   metavar="MB", help="keep subtree counts in a transposition table of MB "
                                      "MiB, shared by the threads (default 0: none)")
    _add_json_option(p, "the counts")
    _add_log_options(p)


def _simulate_parser(commands: _Commands) -> None:
    p = commands.add_parser(
        "simulate", help="play seeded random games on all cores and summarise them",
        description="Play GAMES seeded random games (reproducible for any worker count) and "
                    "print wins per seat, end reasons, game lengths and captures.")
    p.add_argument("games", type=_int_in("GAMES", 1, MAX_GAMES), metavar="GAMES")
    _add_game_options(p)
    p.add_argument("--seed", type=_int_in("--seed", 0, MAX_SEED), default=0,
                   help="game i plays from a seed made of (SEED, i): the same games for any "
                        "worker count")
    p.add_argument("--workers", type=_int_in("--workers", 1, 256), default=None,
                   help="threads, default: all cores")
    p.add_argument("--max-actions", type=_int_in("--max-actions", 1, MAX_ACTION_CAP),
                   default=DEFAULT_MAX_ACTIONS,
                   help=f"stop a game after this many actions (R36), default {DEFAULT_MAX_ACTIONS}")
    p.add_argument("--json", metavar="FILE", default=None,
                   help="also write every game as JSON to FILE ('-' for standard output)")
    p.add_argument("--csv", metavar="FILE", default=None,
                   help="also write one CSV row per game to FILE ('-' for standard output)")
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="'ray' fans the games out over a Ray cluster (pip install victorus[ray])")
    p.add_argument("--address", default=None,
                   help="Ray cluster address (with --backend ray); default: a local Ray")
    _add_long_job_options(p)


def _tournament_parser(commands: _Commands) -> None:
    p = commands.add_parser(
        "tournament", help="seeded games between agents: win rates, pairs, Elo ratings",
        description=f"Play GAMES seeded games between AGENTS ({AGENT_SPECS}), rotating "
                    "sides, and print win rates with 95% Wilson intervals. With three or more "
                    "agents in a two-team game: a round robin of GAMES games a pair, with "
                    "Bradley-Terry ratings on the Elo scale (random at 0 if it plays, else the "
                    "first agent) and 95% intervals. An agent that raises or answers an "
                    "action the game refuses stops the run: the error names it, the game "
                    "and the position (VPN), the games finished before are printed and "
                    "written to --json (with \"stopped\"), and the exit status is 1; so does a "
                    "worker process that dies (kill -9, the out-of-memory killer).")
    p.add_argument("games", type=_int_in("GAMES", 1, MAX_GAMES), metavar="GAMES",
                   help="games in all, or per pair in a round robin")
    p.add_argument("agents", nargs="+", metavar="AGENT", help="agent specs, as above")
    _add_bulk_options(p, opening=0)
    p.add_argument("--lineup", choices=LINEUPS, default="auto",
                   help="'teams': one agent per team; 'round-robin': every pair (two teams); "
                        "'one-vs-rest': the first agent on one team, the second on the others; "
                        "'auto' (default): teams, or a round robin for 3+ agents")
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="'ray' plays the games on a Ray cluster (pip install victorus[ray])")
    p.add_argument("--address", default=None,
                   help="Ray cluster address (with --backend ray); default: a local Ray")
    p.add_argument("--equal-cpu", action="store_true",
                   help="turn each time budget (like best:0.05s) into the iterations or nodes "
                        "its agent searches in that time on this machine, measured first on "
                        "positions of the tournament's game: equal CPU whatever the load "
                        "while the games run, reproducible from --seed")
    _add_run_outputs(p, "the result (win rates, pairs, ratings, every game)")


def _add_run_outputs(p: argparse.ArgumentParser, what: str) -> None:
    """What a bulk run (tournament, match, network compare) shows and writes: ``what`` to
    --json, the progress, the log."""
    _add_json_option(p, what)
    _add_long_job_options(p)


def _add_pair(p: argparse.ArgumentParser, what: str) -> None:
    """The two positional arguments A and B of match and network compare."""
    p.add_argument("a", metavar="A", help=f"{what} A")
    p.add_argument("b", metavar="B", help=f"{what} B")


def _add_bulk_options(p: argparse.ArgumentParser, opening: int) -> None:
    """The game and the runs of tournament, match and network compare. Their own defaults:
    the compact 2-player game (short games), not the standard 6-player game of the other
    commands; ``opening``: the random plies of the openings by default."""
    p.add_argument("--board", choices=("standard", "compact"), default="compact",
                   help="default compact (the other commands: standard)")
    p.add_argument("--players", type=_int_in("--players", 2, 6), default=2,
                   help="2-6 (R33), default 2 (the other commands: 6)")
    p.add_argument("--variant", default="standard",
                   help="'standard' (default) or a '+'-joined list of 'allied', "
                        "'quick<rounds>' (R39)")
    p.add_argument("--seed", type=_int_in("--seed", 0, MAX_SEED), default=0,
                   help="default 0; the same seed plays the same games")
    p.add_argument("--max-actions", type=_int_in("--max-actions", 1, MAX_ACTION_CAP), default=3000,
                   help="stop a game after this many actions (R36), default 3000")
    start = ": from the start" if opening == 0 else ""
    p.add_argument("--openings", "--opening", dest="opening", default=opening, metavar="PLIES",
                   type=_int_in("--openings", 0, MAX_OPENING_PLIES),
                   help=f"start each game from this many random plies (actions), each opening "
                        f"played with the sides rotated (default {opening}{start})")
    p.add_argument("--workers", type=_int_in("--workers", 1, 256), default=1,
                   help="processes playing the games (default 1); same results for any count")


def _match_parser(commands: _Commands) -> None:
    p = commands.add_parser(
        "match", help="agent A against agent B: A's score with a 95%% interval",
        description="Play GAMES seeded games of agent A against agent B (specs as for "
                    "tournament; a network of your own: 'best-net(FILE):400'): A plays one "
                    "team and B every other, A's team rotated over every team, each random "
                    "opening played once per rotation. Prints A's score (a win 1, a draw or "
                    "unfinished game 1/teams: wins plus half the draws in a two-team game, "
                    "A's share of the points with more teams) with its 95% Wilson interval, "
                    "the fair share (1/teams), the wins, draws and losses and the mean game "
                    "length. An agent that fails, or a worker that dies, stops the match as it "
                    "stops a tournament (exit status 1).")
    _add_pair(p, "the spec of agent")
    p.add_argument("--games", type=_int_in("--games", 1, MAX_GAMES), default=MATCH_GAMES,
                   help=f"games in all, a multiple of the teams (default {MATCH_GAMES}, a "
                        f"multiple of any)")
    _add_bulk_options(p, opening=MATCH_OPENING)
    _add_run_outputs(p, "the result (A's score, its interval, every game)")


def _network_parser(commands: _Commands) -> None:
    p = commands.add_parser("network", help="network files (.vnet): compare two",
                            description="Tools for the learned evaluation's network files.")
    actions = p.add_subparsers(dest="network_command", required=True, metavar="ACTION")
    c = actions.add_parser(
        "compare", help="two networks: their weights, and a match between them",
        description="Compare two network files (.vnet, or 'default' for the shipped one): "
                    "whether their weights are identical (the header's free info, which "
                    "holds wall-clock times, left out), the largest absolute difference of "
                    "each array and of all (an array in one file alone, or of other shapes, "
                    "is said so); then, unless --games 0, a match of best-net on A's "
                    "network against best-net on B's at equal iterations (as victorus match "
                    "plays it).")
    _add_pair(c, "the .vnet file of network")
    c.add_argument("--games", type=_int_in("--games", 0, MAX_GAMES), default=COMPARE_GAMES,
                   help="the match's games, a multiple of the teams (0: the weights alone)")
    c.add_argument("--iterations", type=_int_in("--iterations", 1, 2**31 - 1),
                   default=COMPARE_ITERATIONS, help="each agent's iterations a decision")
    _add_bulk_options(c, opening=MATCH_OPENING)
    _add_run_outputs(c, "the comparison (the weights, the match and its every game)")


def _play_parser(commands: _Commands) -> None:
    p = commands.add_parser(
        "play", help="play in the terminal against agents",
        description="Play some seats yourself against an agent at the others; type 'help' "
                    "at the prompt for the commands.")
    _add_table_options(p, "your seats, comma-separated (default 0, red)")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="paint the armies in their colors: 'auto' (default) on a terminal "
                        "unless NO_COLOR is set")
    p.add_argument("--boards", choices=("mine", "turns", "all"), default="mine",
                   help="when the board is printed: 'mine' once at the start of each of your "
                        "turns (default), 'turns' after every turn, 'all' after every action")


def _serve_parser(commands: _Commands) -> None:
    p = commands.add_parser(
        "serve", help="play and watch in the browser (a local web server)",
        description="Serve a page to play against agents, watch simulations and replay "
                    "records; the first game is set by the options, the page starts others.")
    _add_table_options(p, "seats played from the page, comma-separated (default: red's "
                          "whole team, red alone with 6 players; '' for none)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=_int_in("--port", 0, 65535), default=8000,
                   help="port (default 8000; 0 picks a free one)")
    p.add_argument("--agent-delay", type=float, default=0.3, metavar="SECONDS",
                   help="pause before each agent action so it can be followed (default 0.3)")
    p.add_argument("--open", action="store_true", help="open the page in a web browser")
    _add_log_options(p)


def _render_parser(commands: _Commands) -> None:
    p = commands.add_parser(
        "render", help="draw a position as SVG (or PNG with cairosvg)",
        description="Write a picture of the start position, or of --vpn, to OUT (.svg or .png).")
    p.add_argument("out", metavar="OUT")
    _add_game_options(p)
    p.add_argument("--vpn", default=None, help="draw this R39 position")
    p.add_argument("--seat", type=_int_in("--seat", 0, 5), default=0,
                   help="whose side is at the bottom")
    p.add_argument("--labels", action="store_true", help="write the cell labels")


def _bench_parser(commands: _Commands) -> None:
    p = commands.add_parser(
        "bench", help="measure speed against the pure-Python path",
        description="Print one table: perft, leg generation, random playouts, simulate, copy, "
                    "play+undo and state size, each against the pure-Python implementation.")
    p.add_argument("--quick", action="store_true", help="short workloads (a smoke run)")
    _add_json_option(p, "the rows")
    _add_long_job_options(p)


def _train_parser(commands: _Commands) -> None:
    from .training import BACKENDS, Settings
    from .training.settings import DECAY_TOWARD
    d = Settings()
    p = commands.add_parser(
        "train", help="train the learned evaluation from self-play of best",
        description="Train a network for the learned evaluation, its value and its policy: "
                    "rounds of self-play by best with the best network so far, training on the "
                    "positions searched deep, and an acceptance test (a sequential probability "
                    "ratio test) the new network must pass to replace the best; a checkpoint "
                    "after each round in OUT (network.vnet: the best, round-N.vnet, curve.json, "
                    "curve.svg). docs/training.md tells the recipe.")
    p.add_argument("out", metavar="OUT", help="the folder of the checkpoints and the curve")
    def setting(flag: str, ints: tuple[int, int] | None, help: str) -> None:
        """An option for the Settings field of its name: an int from ``ints[0]`` to
        ``ints[1]``, or a float (``ints`` None)."""
        p.add_argument(flag, type=float if ints is None else _int_in(flag, *ints),
                       default=getattr(d, flag[2:].replace("-", "_")), help=help)

    setting("--rounds", (0, 10_000),
            "rounds of self-play, training and gating after round 0, at most")
    setting("--minutes", None, "no new round starts after this many minutes")
    p.add_argument("--start", default=d.start, metavar="NETWORK",
                   help="round 0's network: the agents' shipped one ('default'), a shipped "
                        "network's name or a .vnet file; unset, a fresh one (the heuristic "
                        "evaluation)")
    setting("--games", (1, 1_000_000), "self-play games per round")
    setting("--iterations", (1, 1_000_000),
            "the fast search's iterations per self-play decision")
    setting("--label-iterations", (1, 1_000_000),
            "the deep search's iterations (the decisions kept for training)")
    setting("--label-share", None, "the share of self-play decisions searched deep and kept")
    setting("--noise", None, "the root Dirichlet noise's share of the fast searches' priors")
    setting("--label-noise", None,
            "the deep search's root noise (its visit counts are the policy label)")
    setting("--blend", None,
            "the deep search's value's share of a value label (the rest: the game's result)")
    setting("--epochs", (0, 1000), "passes over the window's positions a round")
    setting("--window", (1, 1000), "rounds of positions trained on")
    setting("--batch", (1, 1 << 20), "positions per step of Adam")
    setting("--policy-weight", None, "the policy's cross-entropy's weight in the loss")
    setting("--hidden", (1, 1024), "units of the first layer (the accumulator) of a fresh start")
    setting("--hidden2", (1, 1024), "units of the second layer of a fresh start")
    setting("--learning-rate", None, "Adam's step size")
    setting("--weight-decay", None, "AdamW's decay of the weights, per unit of learning rate")
    p.add_argument("--decay-toward", choices=DECAY_TOWARD, default=d.decay_toward,
                   help="what the decay pulls the weights toward: the best network so far, or 0")
    setting("--holdout-games", (0, 100_000), "games of the fixed held-out set")
    setting("--gate-games", (0, 100_000),
            "the acceptance test's cap on its games against the best so far (0: no test, "
            "accept every round)")
    setting("--elo0", None, "the test's H0: the new network this many Elo above the best")
    setting("--elo1", None, "the test's H1: the new network this many Elo above the best")
    setting("--alpha", None, "the test's most probability of accepting under H0")
    setting("--beta", None, "the test's most probability of refusing under H1")
    setting("--anchor-games", (0, 100_000),
            "games of an accepted network against each anchor (round 0, the first accepted)")
    setting("--match-iterations", (1, 1_000_000),
            "iterations a decision in the gate's and the curve's matches")
    setting("--curve-games", (0, 100_000),
            "games of an accepted round against round 0 and best-heuristic")
    setting("--seed", (0, MAX_SEED), "every game and every draw of training come from it")
    setting("--workers", (1, 1024), "self-play and match processes (or Ray tasks at once)")
    p.add_argument("--backend", choices=BACKENDS, default=d.backend,
                   help="ray: self-play as Ray tasks (pip install ray)")
    p.add_argument("--address", default=None, help="a Ray cluster's address (--backend ray)")
    p.add_argument("--distil", action=argparse.BooleanOptionalAction, default=d.distil,
                   help="search self-play with the best network so far (--no-distil: always "
                        "with round 0's)")
    p.add_argument("--resume", action="store_true", help="go on from OUT's last checkpoint")
    p.add_argument("--overwrite", action="store_true",
                   help="replace the run OUT holds (its checkpoints and curve); without it, or "
                        "--resume, a folder holding a run is refused")
    _add_long_job_options(p)


def _curve_parser(commands: _Commands) -> None:
    p = commands.add_parser(
        "curve", help="a training run's curve: a line a round, and its picture",
        description="Print the curve of the training run in RUN (victorus train's OUT; its "
                    "curve.json, checked), a line a round; --plot draws it as an SVG: the "
                    "losses per epoch and per configuration, the ladder's Elo by round with "
                    "95%% intervals, and the acceptance decisions.")
    p.add_argument("run", metavar="RUN", help="the folder of a training run")
    p.add_argument("--plot", default=None, metavar="FILE",
                   help="write the curve's picture to FILE (.svg); unset, none")


def cmd_curve(args: argparse.Namespace) -> int:
    from .training import Point, format_point
    from .training.checkpoint import read_curve
    from .training.plot import curve_svg
    path = os.path.join(args.run, "curve.json")
    if args.plot is not None:
        if not args.plot.lower().endswith(".svg"):
            raise VictorusError(f"--plot must end in .svg, got {shown_path(args.plot)}")
        _check_outputs(("--plot", args.plot), inputs=[("RUN's curve", path)])
    settings, points = read_curve(path)
    for point in points:
        print(format_point(Point(**point)))
    if args.plot is not None:
        write_atomic(args.plot, curve_svg(settings, points))
        print(f"wrote {shown_path(args.plot, quoted=False)}")
    return 0


#: The options of ``victorus train`` that are training.Settings' fields of the same name.
TRAIN_SETTINGS = ("rounds", "minutes", "start", "games", "iterations", "label_iterations",
                  "label_share", "noise", "label_noise", "blend", "epochs", "window", "batch",
                  "policy_weight", "hidden", "hidden2", "learning_rate", "weight_decay",
                  "decay_toward", "holdout_games",
                  "gate_games", "elo0", "elo1", "alpha", "beta", "anchor_games",
                  "match_iterations", "curve_games", "seed",
                  "workers", "backend", "address", "distil")


def cmd_train(args: argparse.Namespace) -> int:
    from .training import Settings, format_point, train
    settings = Settings(**{name: getattr(args, name) for name in TRAIN_SETTINGS})
    reported: list[Point] = []

    def report(point: Point) -> None:
        reported.append(point)
        print(format_point(point), flush=True)
    try:
        train(args.out, settings, resume=args.resume, progress=args.progress,
              report=report, overwrite=args.overwrite)
    except WorkerLost as lost:         # the rounds finished before it are saved
        print(f"victorus: error: {lost}", file=sys.stderr)
        return 1
    if not reported:
        print(f"victorus: {_nothing_trained(args.out, args.rounds, args.minutes)}", flush=True)
    print(f"victorus: the best network is {shown_path(os.path.join(args.out, 'network.vnet'), quoted=False)}",
          flush=True)
    return 0


def _nothing_trained(out: str, rounds: int, minutes: float) -> str:
    """Why a resumed run trained no round: its rounds are done, or its minutes spent."""
    from .training.checkpoint import read_curve
    last = read_curve(os.path.join(out, "curve.json"))[1][-1]
    if last["round"] >= rounds:
        return (f"{shown_path(out)} has rounds 0-{last['round']} already (--rounds {rounds}): "
                f"nothing to train; give more --rounds")
    return (f"{shown_path(out)} has spent {last['minutes']:g} minutes (--minutes {minutes:g}): "
            f"no new round starts; give more --minutes")


def cmd_perft(args: argparse.Namespace) -> int:
    _check_outputs(("--json", args.json))
    out = sys.stderr if args.json == "-" else sys.stdout
    counts = []
    if args.vpn is not None:
        if args.players is not None or args.variant != "standard" or args.board != "standard":
            raise VictorusError("--vpn gives board, players and variant itself; "
                                "do not combine it with --board, --players or --variant")
        game = Game.from_vpn(args.vpn)
    else:
        game = Game(board=args.board, players=args.players, variant=args.variant)
    for depth in range(1, args.depth + 1):
        start = time.perf_counter()
        try:
            if depth <= 3:
                count, hits = _perft(game, depth, hash_mb=args.hash)
            else:
                with Progress(len(game.legal_actions()), f"depth {depth}", None) as bar:
                    count, hits = _perft(game, depth, args.threads, bar.advance,   # Ctrl-C stops it
                                         args.hash)
        except MemoryError as exc:
            raise ConfigError(f"--hash {args.hash}: {exc}; give a smaller table (MiB)") from None
        elapsed = time.perf_counter() - start
        rate = count / elapsed if elapsed > 0 else float("inf")
        table = f", {hits} table hits" if args.hash else ""
        print(f"perft {depth}: {count} ({rate:,.0f} nodes/s, {elapsed:.3f} s{table})", file=out,
              flush=True)
        counts.append({"depth": depth, "count": count, "seconds": elapsed,
                       "nodes_per_second": rate, "table_hits": hits if args.hash else None})
    if args.json is not None:
        _write_json(args.json, {"vpn": game.vpn(),
                                "threads": args.threads, "hash_mb": args.hash, "depths": counts})
    return 0


def summarise(results: Sequence[SimulatedGame]) -> str:
    """The text summary of a list of SimulatedGame."""
    n = len(results)
    finished = [g for g in results if g.reason is not None]
    lines = [f"games: {n}, finished: {len(finished)}, stopped by the action cap: {n - len(finished)}"]
    reasons = Counter(g.reason or "unfinished" for g in results)
    lines.append("end reasons: " + ", ".join(f"{r} {c}" for r, c in reasons.most_common()))
    wins = Counter(seat for g in finished for seat in (g.winners or ()))
    lines.append("wins per seat: " + ", ".join(
        f"{s} {SEAT_NAMES[s]} {wins.get(s, 0)}" for s in range(6)))
    teams = Counter(tuple(g.winners) for g in finished if g.winners)
    lines.append("wins per team: " + (", ".join(
        f"{'+'.join(SEAT_NAMES[s] for s in team)} {count}"
        for team, count in sorted(teams.items())) or "none"))
    draws = sum(1 for g in finished if not g.winners)
    lines.append(f"draws: {draws}")
    lengths = sorted(g.actions for g in results)
    lines.append(f"actions per game: mean {sum(lengths) / n:,.1f}, median {lengths[n // 2]}, "
                 f"min {lengths[0]}, max {lengths[-1]}")
    lines.append(f"rounds per game: mean {sum(g.rounds for g in results) / n:,.1f}")
    caps = [sum(g.captures[k] for g in results) / n for k in range(7)]
    lines.append("captures per game by piece type: " + ", ".join(
        f"{PIECE_LETTERS[k]} {caps[k]:.2f}" for k in range(7)))
    return "\n".join(lines)


def cmd_simulate(args: argparse.Namespace) -> int:
    from .simulate import simulate
    if args.json == args.csv == "-":
        raise VictorusError("--json - and --csv - would both write to standard output, one "
                            "format inside the other; give one of them a file")
    _check_outputs(("--json", args.json), ("--csv", args.csv), backend=args.backend)
    start = time.perf_counter()
    stopped = None
    try:
        results = simulate(args.games, seed=args.seed, players=args.players, board=args.board,
                           variant=args.variant, workers=args.workers,
                           max_actions=args.max_actions, progress=args.progress,
                           backend=args.backend, address=args.address)
    except WorkerLost as lost:         # the games finished before it: kept and written
        results, stopped = list(lost.result or []), lost
    elapsed = time.perf_counter() - start
    if args.json is not None:
        data = json.dumps([g.as_dict() for g in results], indent=1)
        if args.json == "-":
            print(data)
        else:
            write_atomic(args.json, data + "\n")
    if args.csv is not None:
        _write_csv(results, args.csv)
    out = sys.stderr if "-" in (args.json, args.csv) else sys.stdout
    print(summarise(results), file=out)
    print(f"{len(results) / elapsed:,.1f} games/s, "
          f"{sum(g.actions for g in results) / elapsed:,.0f} actions/s", file=out)
    if stopped is not None:
        print(f"victorus: error: {stopped}", file=sys.stderr)
        return 1
    return 0


def _write_csv(results: Sequence[SimulatedGame], target: str) -> None:
    import csv
    import io
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["index", "seed", "winners", "reason", "actions", "rounds"]
                    + [f"captured_{letter}" for letter in PIECE_LETTERS])
    for g in results:
        writer.writerow([g.index, g.seed, "" if g.winners is None else " ".join(map(str, g.winners)),
                         g.reason or "unfinished", g.actions, g.rounds, *g.captures])
    if target == "-":
        sys.stdout.write(buffer.getvalue())
    else:
        write_atomic(target, buffer.getvalue())


def cmd_tournament(args: argparse.Namespace) -> int:
    from . import tournament
    _check_outputs(("--json", args.json), backend=args.backend,
                   inputs=_spec_files(args.agents, lambda _, spec: f"the network of agent {shown(spec, 60)}"))
    agents, calibration = args.agents, None
    if args.equal_cpu:
        calibration = tournament.calibrate(agents, args.board, args.players, seed=args.seed,
                                           progress=args.progress, variant=args.variant)
        agents = [calibration.budgets[spec] for spec in agents]
        print(f"equal CPU on this machine ({calibration.positions} positions): "
              f"{calibration.line()}", file=sys.stderr if args.json == "-" else sys.stdout)
    result = _finished(lambda: tournament.tournament(
        agents, args.games, seed=args.seed, board=args.board, players=args.players,
        variant=args.variant, max_actions=args.max_actions, progress=args.progress,
        openings=args.opening, lineup=args.lineup, workers=args.workers,
        backend=args.backend, address=args.address))
    extra = {} if calibration is None else {"equal_cpu": calibration.budgets}
    return _report(args, result.table(), {**extra, **result.as_dict()}, result.stopped)


def _finished(run: Callable[[], _Result]) -> _Result:
    """What ``run`` returns, or, if an agent failed or a worker died, the result of the
    games finished before it (the error's ``result``), to print and write."""
    try:
        return run()
    except (AgentError, WorkerLost) as error:
        if error.result is None:
            raise
        finished: _Result = error.result
        return finished


def _report(args: argparse.Namespace, table: str, data: dict[str, object], stopped: str | None,
            game: bool = True) -> int:
    """A bulk run's report: the game (unless ``game`` is False) and ``table`` on standard
    output (standard error with ``--json -``), ``data`` to --json, and, if it stopped early,
    the error and exit status 1."""
    played = {"board": args.board, "players": args.players, "variant": args.variant}
    header = f"{args.board} board, {args.players} players, {args.variant}\n" if game else ""
    print(f"{header}{table}", file=sys.stderr if args.json == "-" else sys.stdout)
    if args.json is not None:
        _write_json(args.json, {"game": played, **data} if game else data)
    if stopped is not None:
        print(f"victorus: error: {stopped}", file=sys.stderr)
        return 1
    return 0


def cmd_match(args: argparse.Namespace) -> int:
    from .match import match
    _check_outputs(("--json", args.json),
                   inputs=_spec_files([args.a, args.b], lambda index, _: f"{'AB'[index]}'s network"))
    result = _finished(lambda: match(
        args.a, args.b, args.games, seed=args.seed, board=args.board, players=args.players,
        variant=args.variant, opening=args.opening, max_actions=args.max_actions,
        workers=args.workers, progress=args.progress))
    return _report(args, result.table(), {"seed": args.seed, **result.as_dict()}, result.stopped)


def cmd_network(args: argparse.Namespace) -> int:
    from .evaluation.network import network_file
    from .match import compare_networks
    _check_outputs(("--json", args.json),             # (compare is the only action so far)
                   inputs=[("network A", network_file(args.a)), ("network B", network_file(args.b))])
    comparison = _finished(lambda: compare_networks(
        args.a, args.b, args.games, args.iterations, seed=args.seed, board=args.board,
        players=args.players, variant=args.variant, opening=args.opening,
        max_actions=args.max_actions, workers=args.workers, progress=args.progress))
    return _report(args, comparison.table(), {"seed": args.seed, **comparison.as_dict()},
                   comparison.stopped, game=comparison.match is not None)


def cmd_render(args: argparse.Namespace) -> int:
    from .render import _cairosvg, render_png, render_svg
    png = args.out.lower().endswith(".png")
    if not png and not args.out.lower().endswith(".svg"):
        raise VictorusError(f"OUT must end in .svg or .png, got {shown_path(args.out)}")
    if png:
        _cairosvg()                                       # the extra, before any work
    _check_outputs(("OUT", args.out))
    if args.vpn is not None:
        game = Game.from_vpn(args.vpn)
    else:
        game = Game(board=args.board, players=args.players, variant=args.variant)
    if png:
        render_png(game, args.out, seat=args.seat, labels=args.labels)
    else:
        write_atomic(args.out, render_svg(game, seat=args.seat, labels=args.labels))
    print(f"wrote {shown_path(args.out, quoted=False)}")
    return 0


def _seats(text: str) -> tuple[int, ...]:
    return tuple(parse_int(f"--seats (comma-separated seat numbers) in {shown(text, 40)}: a seat",
                           x.strip(), 0, 5, VictorusError, canonical=False)
                 for x in text.split(",") if x.strip())


def cmd_play(args: argparse.Namespace) -> int:
    from .play import session
    seats = _seats("0" if args.seats is None else args.seats)
    from .agents import make_agent
    make_agent(args.agent)                                # validate before the game starts
    color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty()
                                       and not os.environ.get("NO_COLOR"))   # no-color.org
    return session(args.board, args.players, args.variant, seats, args.agent, args.seed,
                   color, time_limit=args.time_limit, boards=args.boards).run()


def _page_people(args: argparse.Namespace) -> tuple[int, ...]:
    """The seats played from the page: ``--seats``, else the first army's whole team (a
    team game is one person against the computer)."""
    if args.seats is not None:
        return _seats(args.seats)
    config = Game(args.board, players=args.players, variant=args.variant).config
    first = config.teams[config.present[0]]
    return tuple(s for s in config.present if config.teams[s] == first)


def cmd_serve(args: argparse.Namespace) -> int:
    from .page.server import PERSON, Table, serve
    people = _page_people(args)
    table = Table(args.board, args.players, args.variant,
                  [PERSON if s in people else args.agent for s in range(6)],
                  args.time_limit, args.agent_delay, args.seed)

    def ready(url: str) -> None:
        print(f"victorus: serving the page at {url} (Ctrl-C to stop)", flush=True)
        if args.open:
            import webbrowser
            if not webbrowser.open(url):     # no browser here (a server, a container...)
                print(f"victorus: --open: no web browser could be started here; open {url} "
                      f"in one", flush=True)
    serve(args.host, args.port, table, ready, log_level=args.log_level)
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from .bench import format_table, run
    _check_outputs(("--json", args.json))
    rows = run(quick=args.quick, progress=args.progress)
    print(format_table(rows), file=sys.stderr if args.json == "-" else sys.stdout)
    if args.json is not None:
        _write_json(args.json, {"quick": args.quick, "rows": [row.as_dict() for row in rows]})
    return 0


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "perft": cmd_perft, "simulate": cmd_simulate, "bench": cmd_bench,
    "tournament": cmd_tournament, "match": cmd_match, "network": cmd_network,
    "render": cmd_render, "play": cmd_play,
    "serve": cmd_serve, "train": cmd_train, "curve": cmd_curve}


#: The exit status of a command stopped by Ctrl-C (SIGINT), and by SIGTERM (128 + its number).
INTERRUPTED, TERMINATED = 130, 143


class _Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread as Ctrl-C raises KeyboardInterrupt: the command
    stops as Ctrl-C stops it (its finished work kept), then exits with TERMINATED."""


def _raise_terminated(signum: int, frame: object) -> None:
    raise _Terminated


@contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """SIGTERM handled as Ctrl-C while a command runs (in the main thread, where SIGTERM
    is left to its default: not ignored, nor handled by a program calling main), and
    its previous handling restored after."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL):
        yield
        return
    signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


@contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Standard error a `QuietStream` while a command runs, restored after: with none
    (``2>&-``, a daemon, pythonw) or a reader gone, progress and messages are dropped and
    the command runs to its end; the closed standard descriptors are opened on the null
    device first (a file or a worker's pipe is never descriptor 2)."""
    hold_standard_fds()
    previous = sys.stderr
    sys.stderr = quiet(previous)
    try:
        yield
    finally:
        sys.stderr = previous


def main(argv: Sequence[str] | None = None) -> int:
    with _quiet_stderr():
        parser = build_parser()
        args = parser.parse_args(argv)
        if hasattr(args, "log_level"):
            args.log_level = _log_level(args)
        with _sigterm_as_interrupt():
            return _run(args)


def _run(args: argparse.Namespace) -> int:
    """The command ``args`` asks for; its errors and interruptions as an exit status."""
    try:
        return COMMANDS[args.command](args)
    except VictorusError as exc:
        print(f"victorus: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:                       # `victorus perft 6 | head`: the reader left
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 1
    except (OSError, ImportError) as exc:        # a file, or an extra not installed
        print(f"victorus: error: {os_error_line(exc) if isinstance(exc, OSError) else exc}",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt as stop:              # Ctrl-C, or SIGTERM (_Terminated)
        terminated = isinstance(stop, _Terminated)
        print(f"victorus: {'terminated' if terminated else 'interrupted'}", file=sys.stderr)
        return TERMINATED if terminated else INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
