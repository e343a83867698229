"""Users' files (issue 16): atomic writes, bounded reads, one turn per record line."""

import os

import pytest

import victorus
from victorus import record
from victorus.cli import main
from victorus.files import read_limited, write_atomic


def finished_game():
    game = victorus.Game("compact", players=2, variant="quick3")
    victorus.play_random(game, seed=3)
    return game


def test_a_failed_write_leaves_the_previous_file_whole(tmp_path, monkeypatch):
    path = tmp_path / "game.vrec"
    record.save(finished_game(), path)
    before = path.read_text()

    def broken_fsync(fd):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(OSError, match="No space left"):
        record.save(victorus.Game(), path)
    assert path.read_text() == before and record.load(path).is_over
    assert [p.name for p in tmp_path.iterdir()] == ["game.vrec"]      # no temporary left


def test_simulate_outputs_are_written_atomically(tmp_path, monkeypatch, capsys):
    out = tmp_path / "games.json"
    out.write_text("previous")
    monkeypatch.setattr(os, "replace", lambda a, b: (_ for _ in ()).throw(OSError("full")))
    assert main(["simulate", "3", "--board", "compact", "--json", str(out)]) != 0
    assert "full" in capsys.readouterr().err
    assert out.read_text() == "previous"
    assert [p.name for p in tmp_path.iterdir()] == ["games.json"]     # no temporary left


def test_file_names_only():
    png = pytest.importorskip("cairosvg") and victorus.render.render_png
    with pytest.raises(victorus.ConfigError, match="a file name"):
        png(victorus.Game(), 3)                  # seat=3 was meant: never a file descriptor
    with pytest.raises(victorus.ConfigError, match="a file name"):
        write_atomic(1, "text")


def test_reads_stop_at_the_limit(tmp_path):
    with pytest.raises(victorus.RecordError, match="larger than"):
        record.load("/dev/zero")                 # an endless file
    big = tmp_path / "big.vrec"
    big.write_bytes(b"x" * 101)
    with pytest.raises(victorus.ConfigError, match="larger than 100 bytes"):
        read_limited(big, 100)
    assert read_limited(big, 101) == b"x" * 101


def test_a_whole_game_on_one_turn_line_is_refused():
    game = victorus.Game("compact", players=2)
    victorus.play_random(game, seed=1, max_actions=30)
    text = record.dumps(game)
    head, body = text.split("\n\n", 1)
    actions = " ".join(" ".join(line.split()[1:]) for line in body.splitlines() if line.strip())
    squashed = f"{head}\n\n1.0 {actions}\n"
    with pytest.raises(victorus.RecordError, match="one turn per line"):
        record.loads(squashed)


def test_line_breaks_are_lf_or_crlf_for_load_and_loads(tmp_path):
    text = record.dumps(finished_game())
    assert record.loads(text.replace("\n", "\r\n")).is_over
    cr_only = text.replace("\n", "\r")
    with pytest.raises(victorus.RecordError, match="carriage return"):
        record.loads(cr_only)
    path = tmp_path / "cr.vrec"
    path.write_bytes(cr_only.encode())
    with pytest.raises(victorus.RecordError, match="carriage return"):
        record.load(path)


def _interrupt(argv, ready, tmp_path):
    """Start a victorus command, send SIGINT once its progress bar shows ``ready``, and
    return (exit code, the rest of stderr, seconds from the signal to the exit)."""
    import signal
    import subprocess
    import sys
    import time
    env = {**os.environ, "VICTORUS_PROGRESS": "1"}          # progress on stderr: it started
    proc = subprocess.Popen([sys.executable, "-m", "victorus.cli", *argv], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        seen = ""
        while ready not in seen:            # the command is at work (not still starting)
            char = proc.stderr.read(1)
            assert char, f"the command ended before showing {ready!r}: {seen!r}"
            seen += char
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
        return proc.returncode, err, time.monotonic() - sent
    finally:
        proc.kill()


def test_ctrl_c_stops_perft_without_a_traceback(tmp_path):
    code, err, _ = _interrupt(["perft", "8"], "depth 5: [", tmp_path)
    assert code == 130 and err.strip().endswith("victorus: interrupted")
    assert "Traceback" not in err


def test_ctrl_c_stops_simulate_and_writes_nothing(tmp_path):
    code, err, _ = _interrupt(["simulate", "1000000", "--workers", "2", "--json", "out.json"],
                              "games: [", tmp_path)
    assert code == 130 and "victorus: interrupted" in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []            # no output, not even half of one
