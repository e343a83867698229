"""Coverage-guided fuzzing of the VPN parser and of play on what it accepts (atheris).

Run (see docs/robustness.md):

    pip install atheris
    mkdir -p fuzz/work && python fuzz/fuzz_vpn.py fuzz/work fuzz/corpus -max_total_time=600

Any exception other than victorus.NotationError, and any accepted position that
does not round-trip or that breaks play/undo, is a finding: atheris stops and
writes the input to ``crash-*``.
"""

import sys

import atheris

import victorus


def test_one_input(data: bytes) -> None:
    text = data.decode("latin-1")       # every byte string is some text; seeds stay as they are
    try:
        game = victorus.Game.from_vpn(text)
    except victorus.NotationError:
        return
    canonical = game.vpn()
    again = victorus.Game.from_vpn(canonical)
    if again.vpn() != canonical:
        raise AssertionError(f"VPN does not round-trip: {canonical!r}")
    legal = game.legal_actions()
    if not legal:
        raise AssertionError(f"no legal action in a running game: {canonical!r}")
    action = legal[len(data) % len(legal)]
    game.play(action)
    game.undo()
    if game.vpn() != canonical:
        raise AssertionError(f"play/undo changed the position: {canonical!r}")


def main() -> None:
    atheris.instrument_all()            # coverage feedback from every loaded Python function
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
