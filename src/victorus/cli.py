"""Command line: ``victorus perft`` (API.md)."""

from __future__ import annotations

import argparse
import sys
import time

from . import __version__
from .errors import VictorusError
from .game import Game, perft


def _positive_depth(text: str) -> int:
    try:
        depth = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"DEPTH must be a whole number from 1 to 10, got {text!r}")
    if not 1 <= depth <= 10:
        raise argparse.ArgumentTypeError(f"DEPTH must be a whole number from 1 to 10, got {depth}")
    return depth


def _players(text: str) -> int:
    if text not in ("2", "3", "4", "5", "6"):
        raise argparse.ArgumentTypeError(f"--players must be 2, 3, 4, 5 or 6, got {text!r}")
    return int(text)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="victorus", description="VICTORUS game engine")
    parser.add_argument("--version", action="version", version=f"victorus {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    p = commands.add_parser(
        "perft", help="count action sequences (R40) from a position",
        description="Print one line per depth 1..DEPTH: the perft count (R40) and nodes per second.")
    p.add_argument("depth", type=_positive_depth, metavar="DEPTH", help="deepest depth, 1-10")
    p.add_argument("--board", choices=("standard", "compact"), default="standard")
    p.add_argument("--players", type=_players, default=None, help="2-6 (R33), default 6")
    p.add_argument("--variant", default="standard",
                   help="'standard' or a '+'-joined list of 'allied', 'quick<rounds>' (R39)")
    p.add_argument("--vpn", default=None, help="start from this R39 position instead")
    return parser


class _Progress:
    """A one-line progress display on stderr for long perft runs (terminals only)."""

    def __init__(self, stream=sys.stderr):
        self.stream = stream
        self.active = stream.isatty()

    def show(self, depth, done, total):
        if self.active:
            self.stream.write(f"\rdepth {depth}: {done}/{total} root actions")
            self.stream.flush()

    def clear(self):
        if self.active:
            self.stream.write("\r\033[K")
            self.stream.flush()


def _perft_with_progress(game: Game, depth: int, progress: _Progress) -> int:
    if depth <= 2 or game.is_over:
        return perft(game, depth)
    actions = game.legal_actions()
    total = 0
    for i, action in enumerate(actions):
        progress.show(depth, i, len(actions))
        game.play(action)
        total += perft(game, depth - 1)
        game.undo()
    progress.clear()
    return total


def cmd_perft(args) -> int:
    if args.vpn is not None:
        if args.players is not None or args.variant != "standard" or args.board != "standard":
            raise VictorusError("--vpn gives board, players and variant itself; "
                                "do not combine it with --board, --players or --variant")
        game = Game.from_vpn(args.vpn)
    else:
        game = Game(board=args.board, players=args.players, variant=args.variant)
    progress = _Progress()
    for depth in range(1, args.depth + 1):
        start = time.perf_counter()
        count = _perft_with_progress(game, depth, progress)
        elapsed = time.perf_counter() - start
        rate = count / elapsed if elapsed > 0 else float("inf")
        print(f"perft {depth}: {count} ({rate:,.0f} nodes/s, {elapsed:.3f} s)", flush=True)
    return 0


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return cmd_perft(args)
    except VictorusError as exc:
        print(f"victorus: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("victorus: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
