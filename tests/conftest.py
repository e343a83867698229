"""Fixtures shared by the test modules."""

import signal

import pytest

from victorus.geometry import Board


@pytest.fixture(params=["standard", "compact"])
def board(request) -> Board:
    """Each of the two boards (R3)."""
    return Board(request.param)


@pytest.fixture
def ctrl_c():
    """Ctrl-C handled as a terminal's would be, for a test that interrupts the main thread
    (`_thread.interrupt_main`): a suite started in the background has SIGINT ignored, and
    an ignored SIGINT is never raised, so such a test would wait for its search's whole
    budget. The previous handler is put back after the test."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)
