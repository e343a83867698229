"""victorus play: the terminal session."""

import io
import threading
import time

import pytest

import victorus
from victorus import record
from victorus.cli import main
from victorus.clock import ManualTime
from victorus.play import session


def run(commands, **options):
    out = io.StringIO()
    s = session(stdin=io.StringIO("".join(c + "\n" for c in commands)), stdout=out, **options)
    code = s.run()
    return s, code, out.getvalue()


def test_commands_and_specific_errors(tmp_path):
    path = tmp_path / "game.vrec"
    s, code, out = run(["help", "legal h3", "legal z99", "zz9-a1", "h3-h9", "h3-h7",
                        f"save {path}", "board", "quit"], agent="random")
    assert code == 0 and "game left unfinished" in out        # quit: asked for, exit 0
    assert "commands:" in out and "h3-h7 h3-h11" in out
    assert "unknown cell 'z99'" in out
    assert "malformed action 'zz9-a1'" in out
    assert "'h3-h9' is not legal for red (seat 0" in out and "legal from h3: h3-g4, h3-h7" in out
    loaded = record.load(path)
    assert str(loaded.history()[0]) == "h3-h7" and loaded.to_move == 0
    assert s.game.round == 2


def test_help_shows_an_action_legal_on_the_board_played(tmp_path):
    for board, players in (("compact", 2), ("standard", 6)):
        s, _, out = run(["help", "quit"], board=board, players=players)
        example = out.split("one legal now: ")[1].split()[0]
        assert example in {str(a) for a in s.game.legal_actions()}, (board, example)


def test_save_into_a_missing_folder_names_it(tmp_path):
    target = tmp_path / "no-such-folder" / "game.vrec"
    _, _, out = run([f"save {target}", "quit"])
    line = next(line for line in out.splitlines() if "error:" in line)
    assert "no-such-folder" in line and "Errno" not in line, line


def test_undo_takes_back_the_agents_replies_too():
    s, _, out = run(["h3-h7", "undo", "quit"], agent="random")
    assert s.game.history() == [] and s.game.to_move == 0
    s, _, out = run(["undo", "quit"])
    assert "error: nothing to undo" in out


def test_load_continues_a_game(tmp_path):
    game = victorus.Game()
    victorus.play_random(game, seed=4, max_actions=30)
    while game.to_move != 0 or game.phase != "start":
        game.play(game.legal_actions()[0])
    path = tmp_path / "g.vrec"
    record.save(game, path)
    s, _, out = run([f"load {path}", "load /nonexistent.vrec", "quit"])
    assert len(s.game.history()) == len(game.history())
    assert "error:" in out and "nonexistent" in out


def test_agents_only_game_reports_the_result():
    s, code, out = run([], board="compact", players=2, humans=(), agent="greedy")
    assert code == 0 and s.game.is_over and "game over:" in out


def test_input_ending_leaves_the_game_unfinished():
    _, code, out = run([], agent="random")
    assert code == 1 and "input ended" in out


def test_play_command_errors(capsys):
    assert main(["play", "--seats", "x"]) == 2
    assert "--seats" in capsys.readouterr().err
    assert main(["play", "--seats", "2", "--players", "4"]) == 2
    assert "black (seat 2) is not in this game" in capsys.readouterr().err
    assert main(["play", "--agent", "wizard"]) == 2
    assert "unknown agent" in capsys.readouterr().err


def test_colored_board():
    from victorus.render import text_board
    text = text_board(victorus.Game(), color=True)
    assert "\033[1;31m0K" in text and text.count("\033[0m") == 72
    assert "\033[" not in text_board(victorus.Game())


class LateInput:
    """stdin of a person who lets the clock run out: the first read moves the clock past
    the limit, and the lines arrive only once ``out`` shows the forfeit."""

    def __init__(self, now, out, lines):
        self.now, self.out, self.lines = now, out, list(lines)
        self.started = threading.Event()

    def readline(self):
        if not self.started.is_set():
            self.started.set()
            self.now.advance(2.0)
        while "forfeits it (pass)" not in self.out.getvalue():
            time.sleep(0.01)
        return self.lines.pop(0) + "\n" if self.lines else ""


def test_time_limit_forfeits_a_turn_not_started_in_time(tmp_path):
    path = tmp_path / "clock.vrec"
    out = io.StringIO()
    now = ManualTime()
    s = session(board="compact", players=2, agent="random", time_limit=1.0, stdout=out,
                stdin=LateInput(now, out, [f"save {path}", "quit"]), now=now)
    assert s.run() == 0                                        # quit
    text = out.getvalue()
    assert text.count("forfeits it (pass)") == 1     # the clock never moves again
    assert "red did not start the turn within 1 s and forfeits it (pass)" in text
    assert "s to start]>" in text
    assert str(s.game.history()[0]) == "pass" and s.game.round == 2
    saved = path.read_text()
    assert "time-limit: 1\n" in saved and "\n1.0 pass\n" in saved
    assert len(record.load(path).history()) == len(s.game.history())


def test_the_clock_stops_once_the_turn_has_started():
    s = session(time_limit=5, stdin=io.StringIO(""), stdout=io.StringIO())
    assert s.clock.deadline(s.game) is not None
    for action in s.game.legal_actions():      # a first leg that leaves the turn open
        s.game.play(action)
        if s.game.phase != "start":
            break
        s.game.undo()
    assert s.clock.deadline(s.game) is None


def test_time_limit_option_is_checked():
    for bad in ("0", "-5", "nan", "soon"):
        with pytest.raises(SystemExit):
            main(["play", "--time-limit", bad])


def test_the_board_once_per_own_turn_agents_as_lines():
    """Agents' actions are one line each; the board is printed at the start of each of
    the person's turns ('mine', the default), after every turn, or after every action."""
    boards = {}
    for mode in ("mine", "turns", "all"):
        s, _, out = run(["h3-h7", "quit"], agent="random", boards=mode)
        boards[mode] = out.count(" to act")
        assert out.count(" (random) plays ") == s.game.ply - 1
    assert boards["mine"] == 2                      # the start, then red's second turn
    assert boards["turns"] == 7                     # the start and after each of six turns
    assert boards["all"] >= boards["turns"]
    with pytest.raises(victorus.VictorusError, match="boards"):
        session(boards="some")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("no_color, choice, painted", [
    (None, "auto", True), ("1", "auto", False), ("", "auto", True), ("1", "always", True),
    (None, "never", False)])
def test_no_color_turns_the_automatic_color_off(monkeypatch, no_color, choice, painted):
    """NO_COLOR (no-color.org), set and not empty, keeps a terminal's board plain unless
    --color always asks for color."""
    import victorus.play
    seen = []

    class Session:
        def run(self) -> int:
            return 0

    def fake_session(*args, **kwargs):
        seen.append(args[6])
        return Session()
    monkeypatch.setattr(victorus.play, "session", fake_session)
    monkeypatch.setattr("sys.stdout", Terminal())
    if no_color is None:
        monkeypatch.delenv("NO_COLOR", raising=False)
    else:
        monkeypatch.setenv("NO_COLOR", no_color)
    assert main(["play", "--color", choice]) == 0 and seen == [painted]


def test_print_shows_the_text_board_and_repr_the_summary():
    from victorus.render import text_board
    game = victorus.Game("compact", players=2)
    assert str(game) == text_board(game) and "\033[" not in str(game)
    assert repr(game) == "<Game compact 2p, ply 0, red to move>"
