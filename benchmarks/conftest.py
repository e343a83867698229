"""Benchmark workloads, shared with ``victorus bench`` (victorus.bench)."""

import pytest

from victorus.bench import leg_corpus, midgame_corpus, mobility_buffers


@pytest.fixture(scope="session", params=["standard", "compact"])
def corpus(request):
    return request.param, leg_corpus(request.param)


@pytest.fixture(scope="session")
def buffers(corpus):
    return corpus[0], mobility_buffers(corpus[1])


@pytest.fixture(scope="session")
def midgame():
    return midgame_corpus(8)
