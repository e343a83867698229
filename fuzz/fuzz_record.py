"""Coverage-guided fuzzing of game records (atheris): parse, replay, write back.

Run (see docs/robustness.md):

    pip install atheris
    mkdir -p fuzz/work-record
    python fuzz/fuzz_record.py fuzz/work-record fuzz/corpus-record -max_total_time=600

Any exception other than victorus.RecordError, and any accepted record whose
game does not write back to a record that replays to the same actions, is a
finding: atheris stops and writes the input to ``crash-*``.
"""

import sys

import atheris

import victorus
from victorus import record


def test_one_input(data: bytes) -> None:
    text = data.decode("latin-1")       # every byte string is some text; seeds stay as they are
    try:
        game = record.loads(text)
    except victorus.RecordError:
        return
    again = record.loads(record.dumps(game))
    if [str(a) for a in again.history()] != [str(a) for a in game.history()]:
        raise AssertionError("record does not round-trip")


def main() -> None:
    atheris.instrument_all()            # coverage feedback from every loaded Python function
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
