"""The command line as a newcomer meets it: every failure is one ``victorus: error:`` line
and exit status 2, outputs are checked before any work, ``--json`` everywhere it makes
sense, ``python -m victorus``."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from victorus.checks import shown_path
from victorus.cli import main


@pytest.fixture(autouse=True)
def victorus_logger_as_it_was():
    """The commands set the "victorus" logger's level (--log-level, -v): put it back."""
    import logging
    logger = logging.getLogger("victorus")
    level = logger.level
    yield
    logger.setLevel(level)


def one_error_line(capsys, *words) -> str:
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("victorus: error: "), err
    for word in words:
        assert word in lines[0], err
    return lines[0]


def no_work(monkeypatch):
    """Make the long work fail, so a test sees the check came first."""
    import victorus.bench
    import victorus.tournament

    def boom(*args, **kwargs):
        raise AssertionError("the work ran before the output was checked")
    monkeypatch.setattr(sys.modules["victorus.simulate"], "simulate", boom)
    monkeypatch.setattr(victorus.tournament, "tournament", boom)
    monkeypatch.setattr(victorus.bench, "run", boom)


@pytest.mark.parametrize("argv", [
    ["simulate", "1000", "--json", "{out}"],
    ["simulate", "1000", "--csv", "{out}"],
    ["tournament", "100", "random", "greedy", "--json", "{out}"],
    ["bench", "--json", "{out}"],
    ["perft", "1", "--json", "{out}"],
    ["render", "{out}.svg"],
    ["render", "{out}.png"],
])
@pytest.mark.parametrize("case", ["missing folder", "a folder", "read-only folder"])
def test_outputs_checked_before_any_work(argv, case, tmp_path, monkeypatch, capsys):
    no_work(monkeypatch)
    if case == "missing folder":
        out, words = str(tmp_path / "nodir" / "x"), ("does not exist",)
    elif case == "a folder":
        out, words = str(tmp_path / "sub"), ("is a folder",)
    else:
        if os.geteuid() == 0:
            pytest.skip("root writes into read-only folders")
        folder = tmp_path / "ro"
        folder.mkdir()
        folder.chmod(0o500)
        out, words = str(folder / "x"), ("not writable",)
    argv = [a.replace("{out}", out) for a in argv]
    path = argv[1] if argv[0] == "render" else argv[-1]
    if case == "a folder":
        os.mkdir(path)
    assert main(argv) == 2
    line = one_error_line(capsys, *words)
    assert shown_path(path) in line and ".tmp" not in line       # the user's path, named


def test_png_without_cairosvg_is_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "cairosvg", None)           # import cairosvg fails
    out = tmp_path / "x.png"
    assert main(["render", str(out)]) == 2
    one_error_line(capsys, "cairosvg", "victorus[render]")
    assert not out.exists()


def test_json_outputs(tmp_path, capsys):
    out = tmp_path / "p.json"
    assert main(["perft", "2", "--board", "compact", "--json", str(out)]) == 0
    counts = json.loads(out.read_text())
    assert [d["count"] for d in counts["depths"]][0] > 0 and counts["vpn"].startswith("compact")


def test_help_has_no_doubled_percent(capsys):
    with pytest.raises(SystemExit):
        main(["tournament", "--help"])
    text = " ".join(capsys.readouterr().out.split())          # however argparse wraps it
    assert "95% Wilson" in text and "%%" not in text


def test_python_dash_m(tmp_path):
    done = subprocess.run([sys.executable, "-m", "victorus", "perft", "1", "--json", "-"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["depths"][0]["count"] == 31     # stdout is only the JSON
    done = subprocess.run([sys.executable, "-m", "victorus", "render", "x.gif"],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert done.stderr.startswith("victorus: error:")


def test_progress_shows_an_eta():
    import io

    from victorus.progress import Progress
    stream = io.StringIO()
    with Progress(10, "games", True, stream) as bar:
        bar._last = -1.0
        bar.advance()
    assert "1/10" in stream.getvalue() and "ETA" in stream.getvalue()


# -- logging ----------------------------------------------------------------------------

@pytest.mark.parametrize("flags, shown", [([], False), (["-v"], True),
                                          (["--log-level", "info"], True),
                                          (["-v", "--log-level", "error"], False)])
def test_long_jobs_log_to_the_victorus_logger(caplog, capsys, flags, shown):
    """-v / --log-level set the "victorus" logger's level (--log-level wins)."""
    import logging
    caplog.set_level(logging.DEBUG, logger="")        # the root lets everything through
    assert main(["simulate", "3", "--board", "compact", "--players", "2", *flags]) == 0
    records = [r for r in caplog.records if r.name == "victorus.simulate"]
    assert bool(records) == shown
    assert all(r.levelno == logging.INFO for r in records)


def test_serve_passes_its_log_level_to_uvicorn(monkeypatch):
    """serve no longer silences uvicorn: its level follows --log-level / -v, and info
    turns its access log on."""
    import victorus.page.server
    from victorus.page.server import Server, Table
    seen = []
    monkeypatch.setattr(victorus.page.server, "serve",
                        lambda *args, log_level: seen.append(log_level))
    assert main(["serve", "--port", "0"]) == 0
    assert main(["serve", "--port", "0", "-v"]) == 0
    assert main(["serve", "--port", "0", "--log-level", "debug"]) == 0
    assert seen == ["warning", "info", "debug"]
    server = Server(Table(), port=0, worker=False, log_level="info")
    try:
        assert server._uvicorn.config.log_level == "info" and server._uvicorn.config.access_log
    finally:
        server.server_close()


def test_simulate_refuses_json_and_csv_into_one_stream(capsys, tmp_path):
    assert main(["simulate", "2", "--json", "-", "--csv", "-"]) == 2
    one_error_line(capsys, "--json - and --csv -", "give one of them a file")
    assert main(["simulate", "2", "--board", "compact", "--players", "2", "--json", "-",
                 "--csv", str(tmp_path / "games.csv")]) == 0
    assert json.loads(capsys.readouterr().out)[0]["index"] == 0


@pytest.mark.parametrize("opened", [True, False])
def test_serve_open_says_when_no_browser_opens(monkeypatch, capsys, opened):
    import webbrowser

    import victorus.page.server
    monkeypatch.setattr(webbrowser, "open", lambda url: opened)
    monkeypatch.setattr(victorus.page.server, "serve",
                        lambda host, port, table, ready, log_level: ready("http://127.0.0.1:1/"))
    assert main(["serve", "--open"]) == 0
    out = capsys.readouterr().out
    assert ("no web browser could be started here; open http://127.0.0.1:1/" in out) != opened


@pytest.mark.parametrize("argv, people", [
    (["serve", "--board", "compact", "--players", "2"], (0, 2, 4)),   # red's whole team
    (["serve", "--players", "3"], (0, 3)),
    (["serve"], (0,)),                                               # six armies: red alone
    (["serve", "--players", "2", "--seats", "0"], (0,)),             # as asked
    (["serve", "--players", "2", "--seats", ""], ()),
])
def test_the_page_plays_the_first_armys_whole_team_by_default(argv, people):
    """victorus serve: a person takes the first army's whole team unless --seats says
    otherwise, as the page's New game does."""
    from victorus.cli import _page_people, build_parser
    assert _page_people(build_parser().parse_args(argv)) == people
