"""Users' files, written and read safely, as users keep them.

A regular file (or a path that will be one) is written to a temporary file beside it
and replaced in one rename, so a failure (disk full, a size limit, Ctrl-C) leaves the
previous file whole; the replaced file keeps its mode, a new one gets the umask's mode
(as ``open()`` gives). A file the user cannot write, or made read-only (no write bit:
``chmod a-w``, Windows' read-only attribute), is refused before anything is written, on
every platform, even where a rename could replace it. A write's temporary file is named
``.<name>.<pid>-<random>.tmp``; one left by a write that was killed is removed by
`remove_stale_temporaries` (a training run calls it on its folder when it starts).
A symlink's target is the file replaced (the link stays). Devices,
FIFOs, ``-`` (standard output) and process substitution (``>(jq .)``) are written
to, never replaced. A read stops at a size limit instead of eating memory, and a FIFO
with no writer is an error, not a wait forever.
"""

from __future__ import annotations

import errno
import os
import re
import select
import stat
import sys
import tempfile
import threading
import time
from collections.abc import Callable

from .checks import ErrorFactory, shown
from .errors import ConfigError

READ_WAIT_SECONDS = 10.0
"""How long a read from a pipe or a device waits for data that has not come yet."""
STALE_SECONDS = 60.0
"""How old a killed write's temporary must be to be removed (a write takes seconds)."""

_umask_lock = threading.Lock()


def file_path(path: object) -> str:
    """A file name (str or os.PathLike); integers (file descriptors) and the rest refused.

    Args:
        path: The file name to check: a str or an os.PathLike.

    Returns:
        The name as a ``str``.

    Raises:
        ConfigError: ``path`` is neither a str nor an os.PathLike (an int, bytes...).
    """
    if isinstance(path, (str, os.PathLike)) and not isinstance(path, bytes):
        name: str = os.fspath(path)
        return name
    raise ConfigError(f"a file name (str or pathlib.Path) is needed, got {shown(path, 200)}")


def _umask() -> int:
    """The process's umask, read without a window where another thread sees it changed
    (Linux: /proc; elsewhere set and restored under a lock)."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    with _umask_lock:
        mask = os.umask(0o077)
        os.umask(mask)
    return mask


def read_only(path: str, info: os.stat_result) -> bool:
    """Whether the existing file ``path`` is one the user cannot write or made read-only:
    no write bit at all (which even root, who may write anything, is told to respect).

    Args:
        path: The file's name.
        info: Its ``os.stat`` result.

    Returns:
        True if the file is read-only to the user.
    """
    return not info.st_mode & 0o222 or not os.access(path, os.W_OK)


_TEMPORARY = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)-[a-z0-9_]+\.tmp$")
"""A write's temporary file: ``.<name>.<pid>-<random>.tmp`` beside the file it replaces."""


def _process_gone(pid: int) -> bool:
    """Whether no process ``pid`` runs here (POSIX; elsewhere: never known to be gone)."""
    if os.name != "posix":
        return False
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except (OSError, OverflowError, ValueError):   # not ours to signal, or no pid at all
        return False
    return False


def remove_stale_temporaries(folder: str, names: Callable[[str], bool] | None = None,
                             older_than: float = STALE_SECONDS) -> list[str]:
    """Remove from ``folder`` the temporary files of killed writes: those whose process is
    gone (as this machine sees it) and that are ``older_than`` seconds old (a live write
    of another machine or container, whose process this one cannot see, is younger).

    Args:
        folder: The folder to clean ("" for the current one).
        names: Which files' temporaries (a test of the file's name); None for any.
        older_than: How old a temporary must be, in seconds, to be taken for stale.

    Returns:
        The paths removed.
    """
    removed: list[str] = []
    try:
        entries = os.listdir(folder or ".")
    except OSError:
        return removed
    now = time.time()
    for entry in entries:
        match = _TEMPORARY.match(entry)
        if match is None or (names is not None and not names(match["name"])):
            continue
        path = os.path.join(folder, entry)
        try:
            young = now - os.lstat(path).st_mtime < older_than
        except OSError:
            continue
        if not young and _process_gone(int(match["pid"])):
            _remove_temporary(path)
            if not os.path.exists(path):
                removed.append(path)
    return removed


def _stream(path: str, payload: bytes) -> None:
    """Write to what is there: standard output, a device, a FIFO, a pipe."""
    if path == "-":
        out = sys.stdout
        out.flush()
        out.buffer.write(payload)
        out.buffer.flush()
        return
    with open(path, "wb") as fh:
        fh.write(payload)


def _renamed(exc: OSError, path: str) -> OSError:
    """``exc`` naming the user's path instead of a temporary file's."""
    return type(exc)(exc.errno, exc.strerror, path) if exc.errno is not None else exc


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path``: a regular file all at once or not at
    all (its mode kept; a symlink's target replaced); ``-``, a device or a FIFO streamed.

    Args:
        path: The file name; ``-`` for standard output.
        data: What to write: text (written as UTF-8) or bytes.

    Raises:
        ConfigError: ``path`` is not a file name.
        PermissionError: the file is read-only (nothing is written).
        OSError: the write failed (the previous file is left whole).
    """
    path = file_path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    if path == "-":
        _stream(path, payload)
        return
    try:
        info = os.stat(path)                         # follows symlinks
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise _renamed(exc, path) from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        _stream(path, payload)
        return
    target = os.path.realpath(path)                  # a symlink (even dangling): its target
    if info is not None and read_only(target, info):
        raise PermissionError(errno.EACCES, "the file is read-only: not replaced (make it "
                              "writable, or give another name)", path)
    mode = stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~_umask()
    directory = os.path.dirname(target)
    name = os.path.basename(target)
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{name}.{os.getpid()}-",
                                   suffix=".tmp")
    except OSError as exc:
        raise _renamed(exc, path) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            _keep_mode_and_owner(fh.fileno(), tmp, mode, info)
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException as exc:
        _remove_temporary(tmp)
        if isinstance(exc, OSError) and exc.filename == tmp:
            raise _renamed(exc, path) from None
        raise


def _remove_temporary(tmp: str) -> None:
    """Delete a write's temporary file if it can be; Windows refuses to delete a read-only
    file (the mode it took from the read-only file it was to replace): made writable first."""
    try:
        os.unlink(tmp)
    except PermissionError:
        try:
            os.chmod(tmp, stat.S_IREAD | stat.S_IWRITE)
            os.unlink(tmp)
        except OSError:
            pass
    except OSError:
        pass


def _keep_mode_and_owner(fd: int, tmp: str, mode: int, info: os.stat_result | None) -> None:
    """Give the new file ``mode``, and the replaced file's owner where the platform has
    owners (Windows has neither os.fchmod before Python 3.13 nor os.fchown)."""
    if hasattr(os, "fchmod"):
        os.fchmod(fd, mode)
    else:
        os.chmod(tmp, mode)
    if info is None or not hasattr(os, "fchown"):
        return
    if (info.st_uid, info.st_gid) != (os.geteuid(), os.getegid()):
        try:
            os.fchown(fd, info.st_uid, info.st_gid)
        except OSError:
            pass                                     # not ours to give away: keep going


def check_writable(path: str | os.PathLike[str]) -> str:
    """``path`` if [`write_atomic`][victorus.files.write_atomic] can write it, checked before any long work
    (so a simulation of an hour does not end on a missing folder); a ConfigError naming
    ``path`` otherwise: a folder, a missing parent folder, or one that is not writable.

    Args:
        path: The file name; ``-`` for standard output.

    Returns:
        The name as a ``str``.

    Raises:
        ConfigError: ``path`` cannot be written (a folder, a read-only file, a missing or
            unwritable folder, or no file name).
    """
    path = file_path(path)
    if path == "-":
        return path
    try:
        info = os.stat(path)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise ConfigError(f"cannot write {shown(path, 200)}: {exc.strerror}") from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise ConfigError(f"cannot write {shown(path, 200)}: it is a folder; give a file name")
    if info is not None and not stat.S_ISREG(info.st_mode):
        if not os.access(path, os.W_OK):
            raise ConfigError(f"cannot write {shown(path, 200)}: permission denied")
        return path                                  # a device or a FIFO: written to
    if info is not None and read_only(os.path.realpath(path), info):
        raise ConfigError(f"cannot write {shown(path, 200)}: the file is read-only (make it writable, "
                          f"or give another name)")
    folder = os.path.dirname(os.path.realpath(path))
    named = shown(os.path.dirname(path) or ".", 200)
    if not os.path.isdir(folder):
        raise ConfigError(f"cannot write {shown(path, 200)}: the folder {named} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ConfigError(f"cannot write {shown(path, 200)}: the folder {named} is not writable")
    return path


def read_limited(path: str | os.PathLike[str], limit: int, error: ErrorFactory = ConfigError,
                 wait: float = READ_WAIT_SECONDS) -> bytes:
    """The bytes of ``path`` (``-``: standard input); ``error`` if there are more than
    ``limit`` (devices and pipes that never end included), if ``path`` is a FIFO with no
    writer, or if a pipe or device gives nothing for ``wait`` seconds.

    Args:
        path: The file name; ``-`` for standard input.
        limit: The most bytes read.
        error: The error class (or a callable given the message) raised when refused.
        wait: How long a pipe or a device may give nothing, in seconds.

    Returns:
        The bytes read.

    Raises:
        ConfigError: (or ``error``) more than ``limit`` bytes, a FIFO with no writer, or a
            pipe or device silent for ``wait`` seconds; ConfigError also when ``path`` is no
            file name.
        OSError: the file cannot be opened or read.
    """
    path = file_path(path)
    if path == "-":
        data = sys.stdin.buffer.read(limit + 1)
    else:
        info = os.stat(path)
        # Windows has neither FIFOs nor select.poll(): its devices (NUL, CON) read as files
        if stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode) or not hasattr(select, "poll"):
            with open(path, "rb") as fh:
                data = fh.read(limit + 1)
        else:
            data = _read_nonblocking(path, limit, error, wait, stat.S_ISFIFO(info.st_mode))
    if len(data) > limit:
        raise error(f"{shown(path, 200)} is larger than {limit} bytes, the most that is read")
    return data


def _read_nonblocking(path: str, limit: int, error: ErrorFactory, wait: float, fifo: bool) -> bytes:
    """Read a FIFO or a device without blocking: what comes until the end (or the limit)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)   # a FIFO's open would block for a writer
    chunks: list[bytes] = []
    size = 0
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    try:
        while size <= limit:
            try:
                chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            except BlockingIOError:
                if not poller.poll(wait * 1000):
                    raise error(f"{shown(path, 200)} gave nothing to read for {wait:g} s (a pipe or device "
                                f"that is not written to)") from None
                continue
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if fifo and not chunks:
        raise error(f"{shown(path, 200)} is a FIFO with nothing to read (no writer has it open): "
                    f"start the writer first, or give a regular file")
    return b"".join(chunks)


__all__ = ["check_writable", "file_path", "read_limited", "read_only", "remove_stale_temporaries",
           "write_atomic"]
