"""Users' files: atomic writes, bounded reads, one turn per record line."""

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


def test_devices_read_as_files_where_select_has_no_poll(monkeypatch):
    """Windows has no select.poll(): a device is read as a file there, up to the limit."""
    import select
    monkeypatch.delattr(select, "poll", raising=False)
    assert read_limited("/dev/null", 10) == b""
    with pytest.raises(victorus.ConfigError, match="larger than 10 bytes"):
        read_limited("/dev/zero", 10)


def test_the_mode_is_kept_where_os_has_no_fchmod_or_fchown(tmp_path, monkeypatch):
    """Windows (before Python 3.13) has neither: the mode is set by name, owners skipped."""
    target = tmp_path / "games.json"
    target.write_text("old")
    target.chmod(0o640)
    for name in ("fchmod", "fchown", "geteuid", "getegid"):
        monkeypatch.delattr(os, name, raising=False)
    write_atomic(target, "new")
    assert target.read_text() == "new" and (target.stat().st_mode & 0o777) == 0o640


def test_a_failed_write_over_a_read_only_file_leaves_no_temporary(tmp_path, monkeypatch):
    """Windows: the temporary takes the read-only mode of the file it replaces (set by
    name, no fchmod), the replace of a read-only file is refused and a read-only file
    cannot be deleted; the temporary is still removed."""
    import stat
    target = tmp_path / "games.json"
    target.write_text("old")
    target.chmod(0o444)
    unlink = os.unlink

    def refused(src, dst):
        raise PermissionError(13, "Access is denied", str(dst))

    def windows_unlink(path, *args, **kwargs):
        if not os.stat(path).st_mode & stat.S_IWRITE:
            raise PermissionError(13, "Access is denied", str(path))
        unlink(path, *args, **kwargs)

    for name in ("fchmod", "fchown"):
        monkeypatch.delattr(os, name, raising=False)
    monkeypatch.setattr(os, "replace", refused)
    monkeypatch.setattr(os, "unlink", windows_unlink)
    with pytest.raises(PermissionError):
        write_atomic(target, "new")
    assert [p.name for p in tmp_path.iterdir()] == ["games.json"]     # no temporary left
    target.chmod(0o644)


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
    # A suite started in the background (no job control) has SIGINT ignored, and a child
    # inherits that: give the command the default handling a terminal gives it.
    proc = subprocess.Popen([sys.executable, "-m", "victorus.cli", *argv], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
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


# -- files as users keep them: only regular files are replaced -------------------------

def _reader(path, out):
    """Read a FIFO in a thread (what `jq` would do at the end of a pipe)."""
    import threading

    def run():
        with open(path, "rb") as fh:
            out.append(fh.read())
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_a_fifo_is_written_to_not_replaced(tmp_path):
    import stat
    fifo = tmp_path / "out.json"
    os.mkfifo(fifo)
    got: list = []
    thread = _reader(fifo, got)
    write_atomic(fifo, "streamed\n")
    thread.join(10)
    assert got == [b"streamed\n"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]      # no temporary left


def test_process_substitution_is_streamed(tmp_path):
    read_end, write_end = os.pipe()                  # what `--json >(jq .)` hands over
    try:
        assert main(["simulate", "2", "--board", "compact", "--json",
                     f"/dev/fd/{write_end}"]) == 0
        os.close(write_end)
        write_end = -1
        with os.fdopen(read_end, "rb") as fh:
            read_end = -1
            data = fh.read()
        assert data.startswith(b"[") and b'"seed"' in data
    finally:
        for fd in (read_end, write_end):
            if fd >= 0:
                os.close(fd)
    assert list(tmp_path.iterdir()) == []


def test_a_device_is_written_to_not_replaced(tmp_path):
    import stat
    device = tmp_path / "null"
    try:
        os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))     # a /dev/null of our own
    except (PermissionError, AttributeError):
        pytest.skip("making a device node needs root")
    write_atomic(device, "into the void")
    assert stat.S_ISCHR(os.stat(device).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["null"]


def test_dash_is_standard_output(tmp_path, monkeypatch, capfd):
    monkeypatch.chdir(tmp_path)
    record.save(finished_game(), "-")
    assert capfd.readouterr().out.startswith(record.MAGIC)
    assert list(tmp_path.iterdir()) == []                            # no file named '-'


def test_a_symlink_updates_its_target(tmp_path):
    target = tmp_path / "real.vrec"
    target.write_text("old")
    link = tmp_path / "game.vrec"
    link.symlink_to(target)
    record.save(finished_game(), link)
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert record.load(target).is_over
    dangling = tmp_path / "later.vrec"
    dangling.symlink_to(tmp_path / "made.vrec")
    write_atomic(dangling, "made")
    assert dangling.is_symlink() and (tmp_path / "made.vrec").read_text() == "made"


def test_a_replaced_file_keeps_its_mode_and_a_new_one_follows_the_umask(tmp_path):
    kept = tmp_path / "kept.txt"
    kept.write_text("old")
    kept.chmod(0o644)
    write_atomic(kept, "new")
    assert kept.read_text() == "new" and kept.stat().st_mode & 0o777 == 0o644
    old = os.umask(0o027)
    try:
        fresh = tmp_path / "fresh.txt"
        write_atomic(fresh, "new")
    finally:
        os.umask(old)
    assert fresh.stat().st_mode & 0o777 == 0o640


def test_errors_name_the_users_path_not_a_temporary(tmp_path):
    missing = tmp_path / "no" / "such" / "dir" / "game.vrec"
    with pytest.raises(OSError) as info:
        write_atomic(missing, "text")
    assert info.value.filename == str(missing) and ".tmp" not in str(info.value)


def _in_thread(call, seconds=30):
    """``call()``'s exception (or None), from a thread: a read that blocks forever fails
    the test instead of hanging it."""
    import threading
    box: list = []

    def run():
        try:
            call()
            box.append(None)
        except BaseException as exc:           # noqa: BLE001 - handed to the test
            box.append(exc)
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert box, f"{call} still blocks after {seconds} s"
    return box[0]


def test_loading_a_fifo_without_a_writer_is_an_error_not_a_wait(tmp_path):
    fifo = tmp_path / "game.vrec"
    os.mkfifo(fifo)
    error = _in_thread(lambda: record.load(fifo))
    assert isinstance(error, victorus.RecordError) and "FIFO" in str(error)
    assert str(fifo) in str(error)


def test_loading_a_pipe_and_standard_input(monkeypatch):
    import io
    text = record.dumps(finished_game())
    read_end, write_end = os.pipe()                  # what `<(cat game.vrec)` hands over
    try:
        os.write(write_end, text.encode())
        os.close(write_end)
        assert record.load(f"/dev/fd/{read_end}").is_over
    finally:
        os.close(read_end)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    assert record.load("-").is_over
