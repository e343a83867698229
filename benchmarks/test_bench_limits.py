"""perft against the naive first-leg probe, and 2 threads against 1 beside a busy
process, as pytest-benchmark cases (the workloads of ``victorus bench``'s limit rows).
Rates: divide ``extra_info`` counts by the mean time; compare the probe's legs/s with
perft's leaves/s from the same session."""

import pytest

import victorus
from victorus.bench import busy_process, probe_positions


@pytest.fixture(scope="module")
def probe():
    return probe_positions(2000)


def test_first_leg_probe(benchmark, probe):
    benchmark.extra_info["legs"] = benchmark(probe.run, 4)


@pytest.mark.parametrize("threads", [1, 2])
def test_perft_standard_start_d5(benchmark, threads):
    benchmark.extra_info["leaves"] = benchmark.pedantic(
        victorus.perft, (victorus.Game(), 5), {"threads": threads}, rounds=5)


@pytest.fixture
def busy():
    process = busy_process()
    yield process
    process.kill()
    process.wait()


@pytest.mark.parametrize("threads", [1, 2])
def test_perft_d5_beside_a_busy_process(benchmark, busy, threads):
    benchmark.extra_info["leaves"] = benchmark.pedantic(
        victorus.perft, (victorus.Game(), 5), {"threads": threads}, rounds=10)


@pytest.mark.parametrize("threads", [1, 2])
def test_vector_stepping_beside_a_busy_process(benchmark, busy, threads):
    from victorus.vector import VectorGames
    games = VectorGames(256, threads=threads, seed=1, observations=None, legal=None)

    def steps():
        for _ in range(10):
            games.step(games.sample())
        return 2560
    benchmark.extra_info["actions"] = benchmark.pedantic(steps, rounds=10)
