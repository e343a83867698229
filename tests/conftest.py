"""Fixtures shared by the test modules."""

import pytest

from victorus.geometry import Board


@pytest.fixture(params=["standard", "compact"])
def board(request) -> Board:
    """Each of the two boards (R3)."""
    return Board(request.param)
