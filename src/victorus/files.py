"""Users' files, written and read safely: a write goes to a temporary file beside the
target and replaces it in one rename, so a failure (disk full, a size limit, Ctrl-C)
leaves the previous file whole; a read stops at a size limit instead of eating memory.
"""

from __future__ import annotations

import os
import tempfile

from .errors import ConfigError


def file_path(path) -> str:
    """A file name (str or os.PathLike); integers (file descriptors) and the rest refused."""
    if isinstance(path, (str, os.PathLike)) and not isinstance(path, bytes):
        return os.fspath(path)
    raise ConfigError(f"a file name (str or pathlib.Path) is needed, got {path!r}")


def write_atomic(path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` all at once, or not at all."""
    path = file_path(path)
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{os.path.basename(path)}.",
                               suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def read_limited(path, limit: int, error=ConfigError) -> bytes:
    """The bytes of ``path``; ``error`` if there are more than ``limit`` (devices and pipes
    that never end included)."""
    path = file_path(path)
    with open(path, "rb") as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise error(f"{path!r} is larger than {limit} bytes, the most that is read")
    return data


__all__ = ["file_path", "read_limited", "write_atomic"]
