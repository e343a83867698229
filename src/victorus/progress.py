"""A small progress bar with an ETA on stderr for long runs (on terminals, or with
VICTORUS_PROGRESS=1)."""

from __future__ import annotations

import os
import sys
import threading
import time


class Progress:
    """``with Progress(total, "games") as bar: bar.advance()`` draws
    ``games: [####    ] 40/100 (2.5/s, ETA 24 s)``."""

    def __init__(self, total: int, label: str, enabled: bool | None = None, stream=None):
        self.stream = stream or sys.stderr
        if enabled is None:                 # terminals, or VICTORUS_PROGRESS=1 (logs, tests)
            enabled = self.stream.isatty() or os.environ.get("VICTORUS_PROGRESS") == "1"
        self.enabled = enabled
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
            self.stream.write(f"\r{self.label}: [{'#' * filled}{' ' * (width - filled)}] "
                              f"{self.done}/{self.total} ({rate:,.1f}/s{eta})\033[K")
            self.stream.flush()

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc) -> None:
        if self.enabled:
            self.stream.write("\r\033[K")
            self.stream.flush()


def _duration(seconds: float) -> str:
    """``42 s``, ``3 min 05 s``, ``2 h 10 min``."""
    seconds = int(seconds + 0.5)
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"
