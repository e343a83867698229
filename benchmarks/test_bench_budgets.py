"""Time budgets: a decision's wall time against its budget for every kind that takes one,
as pytest-benchmark cases (the workload of ``victorus bench``'s budget rows,
victorus.timing.decision_times: two agents of the kind in fresh compact 2-player games,
``agent.choose(game)``, the garbage collector on). ``extra_info`` holds the median and
the slowest decision over the budget; the one round times DECISIONS decisions."""

import pytest

from victorus.timing import BUDGET, DECISIONS, decision_times, time_budget_kinds


@pytest.mark.parametrize("kind", time_budget_kinds())
def test_decision_time_against_the_budget(benchmark, kind):
    times = benchmark.pedantic(decision_times, (f"{kind}:{BUDGET:g}s", DECISIONS), rounds=1)
    ordered = sorted(times)
    benchmark.extra_info["budget_s"] = BUDGET
    benchmark.extra_info["median_over_budget"] = ordered[len(ordered) // 2] / BUDGET
    benchmark.extra_info["slowest_over_budget"] = ordered[-1] / BUDGET
