"""The page's bound on every agent kind (the registry's PageLimits, docs/serve.md): a budget,
a time per decision, threads and the memory a seat holds, checked by one function
(make_page_agent) for every kind the page accepts."""

import json
import os
import subprocess
import sys

import pytest

import victorus
from victorus.agents import KINDS
from victorus.search.registry import PAGE_MENU, make_page_agent

PAGE_KINDS = [kind for kind in KINDS if kind.page is not None]


def test_every_kind_has_a_bound_on_time_memory_and_threads():
    for kind in PAGE_KINDS:
        limits = kind.page
        if kind.unit is None:
            continue                                       # no budget: one cheap decision
        assert limits.count and limits.seconds and limits.threads >= 1, kind.name
        agent = make_page_agent(f"{kind.name}:{limits.count}")
        assert agent.seconds == limits.seconds, kind.name    # a count is also cut by time
        for name, value in limits.settings.items():
            assert getattr(agent, name) == value, (kind.name, name)
    assert all(make_page_agent(spec) for spec in PAGE_MENU)


@pytest.mark.parametrize("kind", [k for k in PAGE_KINDS if k.unit], ids=lambda k: k.name)
def test_a_budget_past_the_page_limits_is_refused_by_name(kind):
    limits = kind.page
    for spec in (f"{kind.name}:{limits.count + 1}", f"{kind.name}:{limits.seconds + 1:g}s",
                 *([f"{kind.name}:10@{limits.threads + 1}"] if kind.threads else [])):
        with pytest.raises(victorus.ConfigError, match=f"on the page {kind.name} takes at most"):
            make_page_agent(spec)


PEAK = """
import json, victorus
from victorus.page.table import Table
from victorus.search.registry import REGISTRY

def kb(field):
    return int(open("/proc/self/status").read().split(field + ":")[1].split()[0])

# The worst mix: five seats keep a PUCT tree between their moves, the sixth thinks on
# four MCTS trees (one agent thinks at a time).
seats = ["best:20000"] * 5 + ["mcts:20000@4"]
table = Table("standard", 6, seats=seats, agent_delay=0)
table.work()
start = kb("VmRSS")
for _ in range(24):
    assert table.work() is True
bound = sum(REGISTRY[seat.partition(":")[0]].page.memory for seat in seats)
print(json.dumps({"grown_mb": (kb("VmHWM") - start) / 1024, "bound_mb": bound / 2**20}))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
@pytest.mark.skipif("libasan" in os.environ.get("LD_PRELOAD", ""),
                    reason="the sanitizer run (tools/sanitize-tests.sh): ASan's redzones, shadow "
                           "and quarantine of freed memory are not the program's memory")
def test_the_page_stays_within_its_memory_bound_with_its_most_expensive_seats():
    """The seats that hold the most memory the page accepts (five best at the largest
    budget, whose PUCT trees are kept between moves, and one mcts@4, four trees while it
    thinks) playing 24 decisions on the standard board: the process's peak grows by at
    most the seats' bounds, plus 32 MB for the rest (games, logs, the agents' Python
    objects)."""
    done = subprocess.run([sys.executable, "-c", PEAK], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["grown_mb"] <= figures["bound_mb"] + 32, figures
