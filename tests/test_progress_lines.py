"""Progress off a terminal: a plain line now and then (at most one an interval, and one at
the end once any was printed), with the clock and the interval given by the test, so no
test depends on timing; progress=False stays silent and progress=True draws the bar."""

from __future__ import annotations

import io

import pytest

from victorus import progress
from victorus.progress import Progress


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Pipe(io.StringIO):
    """A stream that is not a terminal (a log file, a pipe)."""

    def isatty(self) -> bool:
        return False


@pytest.fixture(autouse=True)
def _no_forced_bar(monkeypatch):
    monkeypatch.delenv("VICTORUS_PROGRESS", raising=False)


def test_off_a_terminal_a_line_each_interval_and_one_at_the_end():
    clock, out = Clock(), Pipe()
    with Progress(100, "round 3 self-play", stream=out, interval=30.0, clock=clock) as bar:
        assert bar.lines and not bar.enabled
        for _ in range(10):                      # 10 units in 20 s: no line yet
            clock.now += 2.0
            bar.advance()
        assert out.getvalue() == ""
        clock.now += 10.0                        # 30 s since the start: the first line
        bar.advance(10)
        clock.now += 29.0                        # 29 s since that line: none
        bar.advance(30)
        clock.now += 1.0                         # 30 s: the second line
        bar.advance(10)
        clock.now += 15.0
        bar.advance(40)                          # all done; the last line comes at the end
    lines = out.getvalue().splitlines()
    assert lines == ["round 3 self-play: 20/100 (20%), 30 s, 0.667/s, ETA 2 min 00 s",
                     "round 3 self-play: 60/100 (60%), 1 min 00 s, 1/s, ETA 40 s",
                     "round 3 self-play: 100/100 (100%), 1 min 15 s, 1.33/s"]
    assert "\r" not in out.getvalue() and "\033" not in out.getvalue()


def test_a_run_shorter_than_the_interval_prints_nothing():
    clock, out = Clock(), Pipe()
    with Progress(5, "games", stream=out, interval=30.0, clock=clock) as bar:
        for _ in range(5):
            clock.now += 5.0
            bar.advance()
    assert out.getvalue() == ""


def test_a_line_at_the_end_is_not_repeated():
    clock, out = Clock(), Pipe()
    with Progress(2, "games", stream=out, interval=1.0, clock=clock) as bar:
        clock.now += 1.0
        bar.advance(2)
    assert out.getvalue() == "games: 2/2 (100%), 1 s, 2/s\n"


def test_a_run_stopped_early_ends_with_where_it_stopped():
    clock, out = Clock(), Pipe()
    with pytest.raises(KeyboardInterrupt):
        with Progress(10, "games", stream=out, interval=1.0, clock=clock) as bar:
            clock.now += 1.0
            bar.advance()
            clock.now += 0.5
            bar.advance()
            raise KeyboardInterrupt
    assert out.getvalue().splitlines()[-1].startswith("games: 2/10 (20%), 2 s")


@pytest.mark.parametrize("enabled", [False, True])
def test_false_is_silent_and_true_is_the_bar(enabled):
    clock, out = Clock(), Pipe()
    with Progress(3, "games", enabled, stream=out, interval=0.0, clock=clock) as bar:
        for _ in range(3):
            clock.now += 60.0
            bar.advance()
    assert not bar.lines
    if enabled:
        assert out.getvalue().startswith("\rgames: [") and out.getvalue().endswith("\r\033[K")
    else:
        assert out.getvalue() == ""


def test_on_a_terminal_the_default_is_the_bar():
    class Terminal(Pipe):
        def isatty(self) -> bool:
            return True
    out = Terminal()
    with Progress(1, "games", stream=out, interval=0.0) as bar:
        bar.advance()
    assert not bar.lines and out.getvalue().startswith("\rgames: [")


def test_the_default_interval_is_read_when_a_progress_is_made(monkeypatch):
    """LINE_SECONDS is the default, read at construction (a long command's tests set it)."""
    monkeypatch.setattr(progress, "LINE_SECONDS", 0.0)
    out = Pipe()
    with Progress(2, "games", stream=out) as bar:
        bar.advance()
        bar.advance()
    assert [line.split(",")[0] for line in out.getvalue().splitlines()] == \
        ["games: 1/2 (50%)", "games: 2/2 (100%)"]


# -- no standard error: progress is dropped, the run goes on ---------------------------------

class Broken(Pipe):
    """A stream whose reader left: every write and flush fails (EPIPE)."""

    def __init__(self) -> None:
        super().__init__()
        self.tries = 0

    def write(self, text: str) -> int:
        self.tries += 1
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self) -> None:
        raise BrokenPipeError(32, "Broken pipe")


@pytest.mark.parametrize("enabled", [None, True])
def test_with_no_stderr_progress_goes_nowhere(monkeypatch, enabled):
    """sys.stderr None (``2>&-``, a daemon, pythonw): lines and the bar are dropped."""
    monkeypatch.setattr("sys.stderr", None)
    clock = Clock()
    with Progress(3, "games", enabled, interval=1.0, clock=clock) as bar:
        for _ in range(3):
            clock.now += 2.0
            bar.advance()
    assert bar.done == 3 and not bar.stream.isatty()


@pytest.mark.parametrize("enabled", [None, True])
def test_a_stream_that_fails_is_left_not_raised(enabled):
    """A write that fails (a reader gone, a descriptor closed) is the last one tried."""
    clock, out = Clock(), Broken()
    with Progress(5, "games", enabled, stream=out, interval=1.0, clock=clock) as bar:
        for _ in range(5):
            clock.now += 2.0
            bar.advance()
    assert bar.done == 5 and out.tries == 1


def test_a_library_run_with_no_stderr_goes_on(monkeypatch):
    """simulate's progress left to its default, with no stderr: the games are played."""
    from victorus.simulate import simulate
    monkeypatch.setattr("sys.stderr", None)
    monkeypatch.setattr(progress, "LINE_SECONDS", 0.0)     # a line for each game
    assert [game.index for game in simulate(2, max_actions=100, workers=1)] == [0, 1]


def test_a_quiet_stream_of_nothing():
    """What a QuietStream of no stream answers: no terminal, no descriptor, utf-8."""
    import io as io_module
    nowhere = progress.QuietStream(None)
    assert nowhere.write("dropped") == 7 and not nowhere.isatty()
    assert nowhere.encoding == "utf-8" and nowhere.writable()
    with pytest.raises(io_module.UnsupportedOperation):
        nowhere.fileno()
    nowhere.flush()
    assert progress.quiet(nowhere) is nowhere
