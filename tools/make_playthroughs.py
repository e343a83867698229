"""Write the golden playthroughs under tests/data/playthroughs/ (victorus.playthrough).

Run after a deliberate change of behaviour, then read the diff (git diff tests/data)
before committing it: every changed line is a changed legal action, position or result.
Usage: python tools/make_playthroughs.py [--check]
"""

import argparse
import sys
from pathlib import Path

from victorus.files import write_atomic
from victorus.playthrough import generate

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "playthroughs"

#: name -> (board, players, variant, seed): every board, 2-6 players, allied, quick.
GAMES = {
    "standard-6p": ("standard", 6, "standard", 1),
    "standard-2p": ("standard", 2, "standard", 2),
    "standard-allied": ("standard", 6, "allied", 3),
    "standard-5p-quick8": ("standard", 5, "quick8", 4),
    "compact-3p-quick10": ("compact", 3, "quick10", 5),
    "compact-4p": ("compact", 4, "standard", 6),
    "compact-6p-quick6": ("compact", 6, "quick6", 7),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only report files that differ")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    differ = 0
    for name, (board, players, variant, seed) in GAMES.items():
        path = OUT / f"{name}.txt"
        text = generate(board, players, variant, seed)
        same = path.exists() and path.read_text() == text
        differ += not same
        print(f"{path.name}: {'unchanged' if same else 'differs' if args.check else 'written'}"
              f" ({text.count('play ')} actions, {len(text) // 1024} KiB)")
        if not same and not args.check:
            write_atomic(path, text)
    return 1 if args.check and differ else 0


if __name__ == "__main__":
    sys.exit(main())
