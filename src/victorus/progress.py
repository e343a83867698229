"""A small progress bar with an ETA for long runs: on stderr on terminals (or with
VICTORUS_PROGRESS=1), and in Jupyter as a line of the cell's output that updates in place
(an IPython display handle: a notebook shows neither stderr's carriage returns nor its
terminal codes as a terminal does). Elsewhere (a log file, a pipe, a batch job) a run
that is left to its default prints a plain line on stderr now and then instead: the
label, done/total, the percent, the time so far, the rate and the ETA, at most one line
every LINE_SECONDS, and one at the end once it has printed any (a run shorter than that
prints nothing). No dependency: tqdm is not needed.

Where there is no standard error (closed, ``2>&-``, a daemon's, pythonw's ``None``, a pipe
whose reader left), progress is silently dropped and the run goes on: every line goes
through a `QuietStream`, whose writes never fail. `hold_standard_fds` keeps the standard
descriptors 0-2 taken, so that a file or a worker's pipe opened later is never one of them."""

from __future__ import annotations

import io
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Protocol, TextIO, cast


class _DisplayHandle(Protocol):
    """What IPython's ``display(..., display_id=True)`` returns: a line to update."""

    def update(self, obj: object) -> None: ...


#: IPython's ``display``.
_Display = Callable[..., "_DisplayHandle | None"]

LINE_SECONDS = 30.0
"""Off a terminal, the seconds between two progress lines (read when a Progress is made)."""


class QuietStream(io.TextIOBase):
    """A text stream whose writes never fail: each goes to ``stream`` while it takes them,
    and is dropped where there is none (None) or once a write or flush has failed (a
    closed descriptor, a pipe whose reader left). What it asks for (``isatty``, ``fileno``,
    ``encoding``) is ``stream``'s, or that of nowhere.

    Args:
        stream: Where to write, or None (nowhere).
    """

    def __init__(self, stream: TextIO | None) -> None:
        super().__init__()
        self._stream = stream

    def write(self, text: str) -> int:
        if self._stream is not None:
            try:
                self._stream.write(text)
            except (OSError, ValueError):     # gone (EPIPE, EBADF, closed): nowhere now
                self._stream = None
        return len(text)

    def flush(self) -> None:
        if self._stream is not None:
            try:
                self._stream.flush()
            except (OSError, ValueError):
                self._stream = None

    def isatty(self) -> bool:
        try:
            return self._stream is not None and self._stream.isatty()
        except (OSError, ValueError):
            return False

    def fileno(self) -> int:
        if self._stream is None:
            raise io.UnsupportedOperation("no standard error to write to")
        return self._stream.fileno()

    # io's are read-only properties too; typeshed declares them attributes.
    @property
    def encoding(self) -> str:                      # type: ignore[override]
        return getattr(self._stream, "encoding", None) or "utf-8"

    @property
    def errors(self) -> str | None:                 # type: ignore[override]
        return getattr(self._stream, "errors", None)

    def writable(self) -> bool:
        return True


def quiet(stream: TextIO | None) -> TextIO:
    """``stream`` as a `QuietStream` (itself if it is one): a ``TextIO`` for all that
    writes to it (typeshed's ``TextIO`` is a protocol io's classes do not declare)."""
    return stream if isinstance(stream, QuietStream) else cast(TextIO, QuietStream(stream))


def hold_standard_fds() -> None:
    """Standard input, output and error's descriptors (0, 1, 2) taken: each one that is
    closed (``2>&-``, a daemon, pythonw) opened on the null device. Otherwise the next
    file or pipe opened would get it, and a worker started then would write its standard
    error into that pipe, or a library's warning on descriptor 2 into that file."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            try:
                null = os.open(os.devnull, os.O_RDWR)
            except OSError:
                return
            if null != fd:
                os.dup2(null, fd)                    # inheritable, as a standard one is
                os.close(null)
            else:
                os.set_inheritable(fd, True)         # os.open's are not (PEP 446)


class Progress:
    """``with Progress(total, "games") as bar: bar.advance()`` draws
    ``games: [####    ] 40/100 (2.5/s, ETA 24 s)`` on a terminal; off one, with ``enabled``
    None, it prints ``games: 40/100 (40%), 16 s, 2.5/s, ETA 24 s`` lines now and then.

    Args:
        total: The units of the whole run.
        label: What the bar or line names first.
        enabled: True: the bar, always; False: nothing; None: the bar on a terminal, in a
            notebook or with VICTORUS_PROGRESS=1, else a line now and then.
        stream: Where to write (None: stderr, or a notebook's display; with no stderr,
            nowhere).
        interval: Off a terminal, the seconds between two lines (None: LINE_SECONDS).
        clock: The seconds clock (tests give their own).
    """

    def __init__(self, total: int, label: str, enabled: bool | None = None,
                 stream: TextIO | None = None, *, interval: float | None = None,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        #: Where it writes: ``stream`` or stderr, as a `QuietStream` (a write never fails).
        self.stream: TextIO = quiet(sys.stderr if stream is None else stream)
        # In a notebook (and no stream given), the bar is a display handle's text.
        self._display = _notebook_display() if stream is None else None
        #: Whether it prints a plain line now and then (off a terminal, left to its default).
        self.lines = False
        if enabled is None:      # terminals, notebooks, or VICTORUS_PROGRESS=1 (logs, tests)
            enabled = (self.stream.isatty() or self._display is not None
                       or os.environ.get("VICTORUS_PROGRESS") == "1")
            self.lines = not enabled
        self.enabled = enabled
        self._handle: _DisplayHandle | None = None
        self.total = max(total, 1)
        self.label = label
        self.done = 0
        self.interval = LINE_SECONDS if interval is None else interval
        self._clock = clock
        self.start = clock()
        self._last = 0.0
        self._line_at = self.start       # when the last line was printed (or the start)
        self._line_done: int | None = None  # done at the last line (None: no line yet)
        self._lock = threading.Lock()

    def advance(self, n: int = 1) -> None:
        """Count ``n`` more units done (thread-safe)."""
        with self._lock:
            self.done += n
            if self.lines:
                if self._clock() - self._line_at >= self.interval:
                    self._line()
            else:
                self._draw()

    def _line(self) -> None:
        """A plain line: no carriage return, no terminal code."""
        now = self._clock()
        self._line_at, self._line_done = now, self.done
        elapsed = max(now - self.start, 0.0)
        rate = self.done / max(elapsed, 1e-9)
        eta = (f", ETA {_duration((self.total - self.done) / rate)}"
               if self.done and self.done < self.total else "")
        self.stream.write(f"{self.label}: {self.done}/{self.total} "
                          f"({100 * self.done // self.total}%), {_duration(elapsed)}, "
                          f"{rate:,.3g}/s{eta}\n")
        self.stream.flush()

    def _draw(self) -> None:
        now = self._clock()
        if self.enabled and (now - self._last > 0.1 or self.done >= self.total):
            self._last = now
            width = 30
            filled = int(width * self.done / self.total)
            rate = self.done / max(now - self.start, 1e-9)
            eta = f", ETA {_duration((self.total - self.done) / rate)}" if self.done else ""
            text = (f"{self.label}: [{'#' * filled}{' ' * (width - filled)}] "
                    f"{self.done}/{self.total} ({rate:,.1f}/s{eta})")
            if self._display is not None:
                self._show(text)
            else:
                self.stream.write(f"\r{text}\033[K")
                self.stream.flush()

    def _show(self, text: str) -> None:
        """The notebook's line: made on the first draw, then updated (it stays at the end)."""
        assert self._display is not None
        if self._handle is None:
            self._handle = self._display(_Text(text), display_id=True)
        else:
            self._handle.update(_Text(text))

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.lines:
            with self._lock:              # the last line, if lines were printed and it is news
                if self._line_done is not None and self._line_done != self.done:
                    self._line()
        elif self.enabled and self._display is None:
            self.stream.write("\r\033[K")
            self.stream.flush()


class _Text:
    """Plain text for IPython's display (its repr is the text, without quotes)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _notebook_display() -> _Display | None:
    """IPython's ``display`` when this runs in a Jupyter kernel (notebook, JupyterLab, VS
    Code, Colab: an IPKernelApp), else None (a terminal, a plain IPython, a script)."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is None or "IPKernelApp" not in getattr(shell, "config", {}):
        return None
    from IPython.display import display
    shown: _Display = display
    return shown


def _duration(seconds: float) -> str:
    """``42 s``, ``3 min 05 s``, ``2 h 10 min``."""
    seconds = int(seconds + 0.5)
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"
