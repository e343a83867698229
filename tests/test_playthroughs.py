"""Golden playthroughs (tests/data/playthroughs/, written by tools/make_playthroughs.py):
whole games with the turn-start VPN (R39) and the sorted legal actions (R38) at every step.
A change of behaviour fails here with a diff of the first lines that changed."""

import difflib
from pathlib import Path

import pytest

from helpers import load_tool
from victorus._reference_game import ReferenceGame
from victorus.errors import RecordError
from victorus.playthrough import regenerate

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "playthroughs"
FILES = sorted(DATA.glob("*.txt"))


def test_every_configuration_of_the_tool_has_its_file():
    games = load_tool("make_playthroughs").GAMES
    assert sorted(f"{name}.txt" for name in games) == [f.name for f in FILES]
    boards = {board for board, _, _, _ in games.values()}
    players = {p for _, p, _, _ in games.values()}
    variants = "+".join(v for _, _, v, _ in games.values())
    assert boards == {"standard", "compact"} and {2, 3, 4, 5, 6} <= players
    assert "allied" in variants and "quick" in variants


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_playthrough_regenerates_unchanged(path):
    text = path.read_text()
    again = regenerate(text)
    if again != text:
        diff = difflib.unified_diff(text.splitlines(), again.splitlines(), "recorded", "now",
                                    lineterm="", n=2)
        pytest.fail(f"{path.name} changed (python tools/make_playthroughs.py rewrites it):\n"
                    + "\n".join(list(diff)[:40]))


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_reference_rules_agree_with_the_playthrough(path):
    """The pure-Python rules give the same legal actions and positions at every step."""
    lines = path.read_text().splitlines()
    header = dict(line.split(": ", 1) for line in lines[1:5])
    game = ReferenceGame(header["board"], players=int(header["players"]),
                         variant=header["variant"])
    for line in lines[6:]:
        if line.startswith("vpn "):
            assert game.vpn() == line[4:]
        elif line.startswith("legal "):
            assert sorted(str(a) for a in game.legal_actions()) == line.split(": ")[1].split()
        elif line.startswith("play "):
            game.play(line[5:])
    assert game.is_over and lines[-1].startswith(f"result {game.result_reason} ")


def test_a_changed_action_shows_in_the_diff_and_bad_files_are_refused():
    text = FILES[0].read_text()
    lines = text.splitlines()
    i = next(n for n, line in enumerate(lines) if line.startswith("play ") and n > 20)
    legal = lines[i - 1].split(": ")[1].split()
    other = next(a for a in legal if a != lines[i][5:])
    lines[i] = f"play {other}"
    changed = "\n".join(lines) + "\n"
    try:
        assert regenerate(changed) != changed    # later steps no longer match the record
    except (RecordError, ValueError):
        pass                                     # or a recorded action became illegal
    with pytest.raises(RecordError, match="not a playthrough"):
        regenerate("board: compact\n")
