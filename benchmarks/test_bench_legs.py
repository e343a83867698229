"""Legs generated per second: Cython core against the pure-Python reference.

Run: ``python -m pytest benchmarks --benchmark-only``. One "leg" is the full
destination set of one piece in one position (every direction of its R11 set).
"""

from victorus.bench import legs_bulk, legs_per_run


def test_legs_core(benchmark, corpus):
    name, positions = corpus
    benchmark.extra_info["board"] = name
    benchmark.extra_info["legs_per_round"] = benchmark(legs_per_run, positions, False)


def test_legs_core_bulk(benchmark, buffers):
    name, bufs = buffers
    benchmark.extra_info["board"] = name
    benchmark.extra_info["legs_per_round"] = benchmark(legs_bulk, bufs)


def test_legs_reference(benchmark, corpus):
    name, positions = corpus
    benchmark.extra_info["board"] = name
    benchmark.extra_info["legs_per_round"] = benchmark.pedantic(
        legs_per_run, (positions, True), rounds=3, iterations=1)
