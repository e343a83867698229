"""Users' files, written and read safely, as users keep them.

A regular file (or a path that will be one) is written to a temporary file beside it
and replaced in one rename, so a failure (disk full, a size limit, Ctrl-C) leaves the
previous file whole; the replaced file keeps its mode, a new one gets the umask's mode
(as ``open()`` gives). A symlink's target is the file replaced (the link stays). Devices,
FIFOs, ``-`` (standard output) and process substitution (``>(jq .)``) are written
to, never replaced. A read stops at a size limit instead of eating memory, and a FIFO
with no writer is an error, not a wait forever.
"""

from __future__ import annotations

import os
import select
import stat
import sys
import tempfile
import threading

from .errors import ConfigError

#: How long a read from a pipe or a device waits for data that has not come yet.
READ_WAIT_SECONDS = 10.0

_umask_lock = threading.Lock()


def file_path(path) -> str:
    """A file name (str or os.PathLike); integers (file descriptors) and the rest refused."""
    if isinstance(path, (str, os.PathLike)) and not isinstance(path, bytes):
        return os.fspath(path)
    raise ConfigError(f"a file name (str or pathlib.Path) is needed, got {path!r}")


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


def write_atomic(path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path``: a regular file all at once or not at
    all (its mode kept; a symlink's target replaced); ``-``, a device or a FIFO streamed."""
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
    mode = stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~_umask()
    directory = os.path.dirname(target)
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{os.path.basename(target)}.",
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


def _keep_mode_and_owner(fd: int, tmp: str, mode: int, info) -> None:
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


def check_writable(path) -> str:
    """``path`` if [`write_atomic`][victorus.files.write_atomic] can write it, checked before any long work
    (so a simulation of an hour does not end on a missing folder); a ConfigError naming
    ``path`` otherwise: a folder, a missing parent folder, or one that is not writable."""
    path = file_path(path)
    if path == "-":
        return path
    try:
        info = os.stat(path)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise ConfigError(f"cannot write {path!r}: {exc.strerror}") from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise ConfigError(f"cannot write {path!r}: it is a folder; give a file name")
    if info is not None and not stat.S_ISREG(info.st_mode):
        if not os.access(path, os.W_OK):
            raise ConfigError(f"cannot write {path!r}: permission denied")
        return path                                  # a device or a FIFO: written to
    folder = os.path.dirname(os.path.realpath(path))
    shown = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise ConfigError(f"cannot write {path!r}: the folder {shown!r} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ConfigError(f"cannot write {path!r}: the folder {shown!r} is not writable")
    return path


def read_limited(path, limit: int, error=ConfigError, wait: float = READ_WAIT_SECONDS) -> bytes:
    """The bytes of ``path`` (``-``: standard input); ``error`` if there are more than
    ``limit`` (devices and pipes that never end included), if ``path`` is a FIFO with no
    writer, or if a pipe or device gives nothing for ``wait`` seconds."""
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
        raise error(f"{path!r} is larger than {limit} bytes, the most that is read")
    return data


def _read_nonblocking(path: str, limit: int, error, wait: float, fifo: bool) -> bytes:
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
                    raise error(f"{path!r} gave nothing to read for {wait:g} s (a pipe or device "
                                f"that is not written to)") from None
                continue
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if fifo and not chunks:
        raise error(f"{path!r} is a FIFO with nothing to read (no writer has it open): "
                    f"start the writer first, or give a regular file")
    return b"".join(chunks)


__all__ = ["check_writable", "file_path", "read_limited", "write_atomic"]
