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
import importlib.util
import os
import re
import select
import stat
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable

from .checks import ErrorFactory, shown, shown_path
from .errors import ConfigError, MissingDependencyError, install_hint

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
    raise ConfigError(f"a file name (str or pathlib.Path) is needed, got {shown_path(path)}")


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
        raise ConfigError(f"cannot write {shown_path(path)}: {exc.strerror}") from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise ConfigError(f"cannot write {shown_path(path)}: it is a folder; give a file name")
    if info is not None and not stat.S_ISREG(info.st_mode):
        if not os.access(path, os.W_OK):
            raise ConfigError(f"cannot write {shown_path(path)}: permission denied")
        return path                                  # a device or a FIFO: written to
    if info is not None and read_only(os.path.realpath(path), info):
        raise ConfigError(f"cannot write {shown_path(path)}: the file is read-only (make it writable, "
                          f"or give another name)")
    folder = os.path.dirname(os.path.realpath(path))
    named = shown_path(os.path.dirname(path) or ".")
    if not os.path.isdir(folder):
        raise ConfigError(f"cannot write {shown_path(path)}: the folder {named} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ConfigError(f"cannot write {shown_path(path)}: the folder {named} is not writable")
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
        raise error(f"{shown_path(path)} is larger than {limit} bytes, the most that is read")
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
                    raise error(f"{shown_path(path)} gave nothing to read for {wait:g} s (a pipe or device "
                                f"that is not written to)") from None
                continue
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if fifo and not chunks:
        raise error(f"{shown_path(path)} is a FIFO with nothing to read (no writer has it open): "
                    f"start the writer first, or give a regular file")
    return b"".join(chunks)


def os_error_line(exc: OSError) -> str:
    """An OSError as one short line: as Python words it (``[Errno 2] No such file or
    directory: 'x'``), the paths it names shown short (`victorus.checks.shown_path`), so a
    1 MB path is never printed whole.

    Args:
        exc: The error.

    Returns:
        Its line.
    """
    if exc.errno is None or exc.filename is None:
        return shown(str(exc), 200).strip("'\"")
    text = f"[Errno {exc.errno}] {exc.strerror}: {shown_path(exc.filename)}"
    return text if exc.filename2 is None else f"{text} -> {shown_path(exc.filename2)}"


def _too_long(path: str, existing: str) -> str | None:
    """Why ``path`` cannot be made below its existing folder ``existing`` (a name or the
    whole path longer than the file system takes), or None where it can or no limit is known
    (Windows has no pathconf)."""
    try:
        most_name = os.pathconf(existing or ".", "PC_NAME_MAX")
        most_path = os.pathconf(existing or ".", "PC_PATH_MAX")
    except (AttributeError, OSError, ValueError):
        return None
    if most_path > 0 and len(os.fsencode(os.path.abspath(path))) >= most_path:
        return f"the path is longer than the {most_path} bytes this file system takes"
    tail = os.path.relpath(path, existing or ".") if existing else path
    if most_name > 0 and any(len(os.fsencode(name)) > most_name for name in re.split(r"[/\\]", tail)):
        return f"a folder's name is longer than the {most_name} bytes this file system takes"
    return None


def make_folder(path: str | os.PathLike[str]) -> str:
    """``path`` made a folder if it is none yet, its missing parents first, one at a time
    (no recursion: a path 5,000 folders deep is refused in a line, not a RecursionError);
    a path the file system could not hold is refused before any folder is made.

    Args:
        path: The folder.

    Returns:
        The path as a ``str``.

    Raises:
        ConfigError: ``path`` is a file, or cannot be made (naming it, cut short).
    """
    path = file_path(path)
    missing: list[str] = []
    head = path
    try:
        while head and not os.path.isdir(head):
            if os.path.lexists(head):
                raise ConfigError(f"cannot make the folder {shown_path(path)}: "
                                  f"{shown_path(head)} is a file, not a folder")
            missing.append(head)
            parent = os.path.dirname(head)
            if parent == head:
                break
            head = parent
        why = _too_long(path, head) if missing else None
        if why is not None:
            raise ConfigError(f"cannot make the folder {shown_path(path)}: {why}")
        for folder in reversed(missing):
            try:
                os.mkdir(folder)
            except FileExistsError:
                if not os.path.isdir(folder):
                    raise
    except ConfigError:
        raise
    except (OSError, ValueError) as exc:
        words = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ConfigError(f"cannot make the folder {shown_path(path)}: {shown(words, 200)}") from None
    return path


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Whether two paths name one file: the same path once resolved (symlinks followed, even
    to a file not made yet), or, when both exist, the same file on the same device (a hard
    link, another spelling of a folder).

    Args:
        a: One path.
        b: The other.

    Returns:
        True if writing one would change the other.
    """
    try:
        if os.path.normcase(os.path.realpath(a)) == os.path.normcase(os.path.realpath(b)):
            return True
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


Named = Iterable[tuple[str, "str | os.PathLike[str] | None"]]
"""What a command names: (what it is, as a refusal says it: an option such as ``--json``,
``A``, ``OUT``), its path (None: not given)."""


def _written_to(path: str) -> bool:
    """Whether ``path`` is a stream written to (``-``, a device, a FIFO), never replaced."""
    if path == "-":
        return True
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False                                 # a file to be made


def _check_folder(what: str, folder: str) -> None:
    """``folder`` a folder this process can write into: a file made there and removed (a
    read-only mount, a full disk or a quota at its limit refuses it)."""
    if not os.path.isdir(folder):
        raise ConfigError(f"{what} {shown_path(folder)} is not a folder")
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=f".probe.{os.getpid()}-", suffix=".tmp")
    except OSError as exc:
        raise ConfigError(f"{what} {shown_path(folder)}: nothing can be written into it "
                          f"({exc.strerror})") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(b"\0")
            fh.flush()
            os.fsync(fh.fileno())
    except OSError as exc:
        raise ConfigError(f"{what} {shown_path(folder)}: nothing can be written into it "
                          f"({exc.strerror})") from None
    finally:
        _remove_temporary(probe)


def preflight(outputs: Named = (), inputs: Named = (), folders: Named = (),
              needs: Iterable[tuple[str, str]] = ()) -> None:
    """Check everything that can refuse a command's writes before anything is written,
    replaced or removed: the one rule of every command that writes a user's files (``--json``,
    ``--csv``, ``OUT``; `victorus.training.train`'s run folder). Nothing is changed by it
    (a folder's write test leaves nothing behind).

    - each output is no input: not the same path once resolved, nor (both existing) the
      same file by device and inode, so a symlink or a hard link to an input is caught;
      and no two outputs are one file (streams, ``-`` and devices, aside);
    - each output file can be written (`check_writable`), each output folder written into;
    - each optional package a chosen option needs is installed.

    Args:
        outputs: The files written: (the option, its path or None).
        inputs: The files read: (what names it, its path or None).
        folders: The folders written into: (the option, the folder or None).
        needs: The optional packages needed: (the option that needs it, the module).

    Raises:
        ConfigError: naming the option and the file refused.
        MissingDependencyError: naming the option and what to install.
    """
    for what, module in needs:
        if importlib.util.find_spec(module) is None:
            raise MissingDependencyError(install_hint(what, module))
    read = [(what, file_path(path)) for what, path in inputs if path is not None]
    written = [(what, file_path(path)) for what, path in outputs if path is not None]
    for i, (what, path) in enumerate(written):
        if _written_to(path):
            continue
        for source, other in read:
            if same_file(path, other):
                raise ConfigError(f"{what} {shown_path(path)} is {source}, which is read: an "
                                  f"output never replaces an input; give another file")
        for later, other in written[i + 1:]:
            if same_file(path, other):
                raise ConfigError(f"{what} and {later} name one file, {shown_path(path)}: give "
                                  f"each its own")
    for what, path in written:
        try:
            check_writable(path)
        except ConfigError as error:
            raise ConfigError(f"{what}: {error}") from None
    for what, folder in folders:
        if folder is not None:
            _check_folder(what, file_path(folder))


__all__ = ["Named", "check_writable", "file_path", "make_folder", "os_error_line", "preflight",
           "read_limited", "read_only", "remove_stale_temporaries", "same_file", "write_atomic"]
