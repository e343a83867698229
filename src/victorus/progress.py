"""A small progress bar with an ETA for long runs: on stderr on terminals (or with
VICTORUS_PROGRESS=1), and in Jupyter as a line of the cell's output that updates in place
(an IPython display handle: a notebook shows neither stderr's carriage returns nor its
terminal codes as a terminal does). No dependency: tqdm is not needed."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Protocol, TextIO


class _DisplayHandle(Protocol):
    """What IPython's ``display(..., display_id=True)`` returns: a line to update."""

    def update(self, obj: object) -> None: ...


#: IPython's ``display``.
_Display = Callable[..., "_DisplayHandle | None"]


class Progress:
    """``with Progress(total, "games") as bar: bar.advance()`` draws
    ``games: [####    ] 40/100 (2.5/s, ETA 24 s)``."""

    def __init__(self, total: int, label: str, enabled: bool | None = None,
                 stream: TextIO | None = None) -> None:
        self.stream: TextIO = stream or sys.stderr
        # In a notebook (and no stream given), the bar is a display handle's text.
        self._display = _notebook_display() if stream is None else None
        if enabled is None:      # terminals, notebooks, or VICTORUS_PROGRESS=1 (logs, tests)
            enabled = (self.stream.isatty() or self._display is not None
                       or os.environ.get("VICTORUS_PROGRESS") == "1")
        self.enabled = enabled
        self._handle: _DisplayHandle | None = None
        self.total = max(total, 1)
        self.label = label
        self.done = 0
        self.start = time.perf_counter()
        self._last = 0.0
        self._lock = threading.Lock()

    def advance(self, n: int = 1) -> None:
        """Count ``n`` more units done (thread-safe)."""
        with self._lock:
            self.done += n
            self._draw()

    def _draw(self) -> None:
        now = time.perf_counter()
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
        if self.enabled and self._display is None:
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
