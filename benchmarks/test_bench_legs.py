"""Legs generated per second: Cython core against the pure-Python reference.

Run: ``pytest benchmarks --benchmark-only``. One "leg" is the full destination
set of one piece in one position (every direction of its R11 set).
"""

def _count(corpus):
    return sum(len(movers) for _, _, movers in corpus)


def test_legs_core(benchmark, corpus):
    name, positions = corpus

    def run():
        n = 0
        for core, _, movers in positions:
            for cell, army, _, mask, colours in movers:
                core.leg(cell, army, mask, colours)
                n += 1
        return n

    assert benchmark(run) == _count(positions)
    benchmark.extra_info["board"] = name
    benchmark.extra_info["legs_per_round"] = _count(positions)


def test_legs_reference(benchmark, corpus):
    name, positions = corpus

    def run():
        n = 0
        for _, ref, movers in positions:
            for cell, army, _, mask, colours in movers:
                ref.leg(cell, army, mask, colours)
                n += 1
        return n

    assert benchmark.pedantic(run, rounds=3, iterations=1) == _count(positions)
    benchmark.extra_info["board"] = name
    benchmark.extra_info["legs_per_round"] = _count(positions)
