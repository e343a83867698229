"""Golden playthroughs: a whole game written out step by step, the way OpenSpiel pins
its games, so that any change in the engine's behaviour shows as a readable diff.

A playthrough is plain text: a header (board, players, variant, seed), then one block
per action with the step number, round, seat and phase, the VPN at every turn start
(R39), the sorted legal actions (R38) and the action played, and finally the result.
`generate` plays a seeded game with a capture-loving random policy (captures,
bonuses, rescues and eliminations come up often); `regenerate` replays the
actions a playthrough records and writes it out again from the engine as it is now.
``tools/make_playthroughs.py`` writes the files under ``tests/data/playthroughs/``;
the test suite checks that each regenerates to itself.

>>> text = generate("compact", 6, "quick2", seed=1)
>>> regenerate(text) == text
True
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .errors import RecordError
from .game import Game

HEADER = "# VICTORUS playthrough; written by tools/make_playthroughs.py (victorus.playthrough)"
FIELDS = ("board", "players", "variant", "seed")


def _choose(game: Game, rng: random.Random) -> str:
    """A random capture when one is legal, else a random legal action."""
    legal = sorted(str(a) for a in game.legal_actions())
    captures = [a for a in legal if "x" in a]
    return rng.choice(captures or legal)


def _write(board: str, players: int, variant: str, seed: int,
           choose: Callable[[Game, int], str]) -> str:
    """Play ``choose(game, step)`` until the game ends and write every step."""
    game = Game(board, players=players, variant=variant)
    lines = [HEADER, f"board: {board}", f"players: {players}", f"variant: {variant}",
             f"seed: {seed}", ""]
    step = 0
    while not game.is_over:
        lines.append(f"step {step}  round {game.round}  seat {game.to_move}  {game.phase}")
        if game.phase == "start":
            lines.append(f"vpn {game.vpn()}")
        legal = sorted(str(a) for a in game.legal_actions())
        lines.append(f"legal {len(legal)}: {' '.join(legal)}")
        action = choose(game, step)
        lines.append(f"play {action}")
        game.play(action)
        step += 1
    lines.append(f"result {game.result_reason}  winners {','.join(map(str, game.winners or ()))}"
                 f"  after {step} actions")
    return "\n".join(lines) + "\n"


def generate(board: str, players: int, variant: str, seed: int) -> str:
    """A seeded game to its end (choose configurations whose games do end: random play can
    loop for ever, R36)."""
    rng = random.Random(seed)
    return _write(board, players, variant, seed, lambda game, step: _choose(game, rng))


def regenerate(text: str) -> str:
    """Replay the actions ``text`` records and write the playthrough anew.

    Raises RecordError when the header is malformed or a recorded action is not legal
    (the game then ends differently: the diff shows where).
    """
    lines = text.splitlines()
    header: dict[str, str] = {}
    for line in lines[1:1 + len(FIELDS)]:
        key, _, value = line.partition(": ")
        header[key] = value
    if lines[:1] != [HEADER] or tuple(header) != FIELDS:
        raise RecordError(f"not a playthrough: it starts with {HEADER!r} and the fields "
                          f"{', '.join(FIELDS)}")
    played = [line[len("play "):] for line in lines if line.startswith("play ")]

    def recorded(game: Game, step: int) -> str:
        if step >= len(played):
            raise RecordError(f"the game goes on after the {len(played)} recorded actions")
        return played[step]
    return _write(header["board"], int(header["players"]), header["variant"],
                  int(header["seed"]), recorded)


__all__ = ["generate", "regenerate"]
