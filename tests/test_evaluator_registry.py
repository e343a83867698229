"""The evaluation floor (victorus.evaluation): evaluators composed from specs, each search
taking one, the shipped network named by its content, and the terms written once."""

import copy
import hashlib
import pickle
import re
from importlib import resources

import pytest

import victorus
from victorus.agents import AlphaBetaAgent, MCTSAgent, PUCTAgent, make_agent
from victorus.errors import ConfigError
from victorus.evaluation import (
    EVALUATORS,
    VALUE_BOUND,
    lookahead,
    make_evaluator,
    material,
    rollouts,
    twin,
    uniform,
)
from victorus.evaluation import network as network_module
from victorus.evaluation.registry import heuristic, network
from victorus.evaluation.registry import network as network_evaluator


@pytest.mark.parametrize("spec", ["heuristic", "material", "uniform", "network(default)",
                                  "rollouts(3, network(default))", "rollouts(10, material)",
                                  "lookahead(heuristic, material)", "lookahead(network(default))"])
def test_a_spec_names_the_evaluator_it_builds(spec):
    evaluator = make_evaluator(spec)
    assert evaluator.spec == spec
    assert make_evaluator(evaluator) is evaluator
    assert pickle.loads(pickle.dumps(evaluator)).spec == spec
    assert copy.deepcopy(evaluator) is evaluator                 # immutable, shared


@pytest.mark.parametrize("spec, why", [
    ("rollouts(3", "')' is missing"), ("foo", "or a spec"), ("default", "or a spec"),
    ("rollouts(3, material))", "text after its end"), ("", "unreadable"),
    ("rollouts(material)", "takes other arguments"), ("network(/no/such.vnet)", "no such"),
    ("bogus(3)", "unknown evaluator 'bogus'")])
def test_a_bad_spec_is_refused_naming_what_was_wrong(spec, why):
    with pytest.raises(ConfigError, match=re.escape(why)):
        make_evaluator(spec)


def test_bad_arguments_are_refused():
    with pytest.raises(ConfigError):
        rollouts(-1, material())
    with pytest.raises(ConfigError):
        rollouts(3, "material")
    with pytest.raises(ConfigError):
        heuristic({"nope": 1.0})
    with pytest.raises(ConfigError):
        network(3)
    with pytest.raises(ConfigError):
        make_evaluator(3)


def test_every_registered_evaluator_is_reachable_from_a_spec():
    assert set(EVALUATORS) == {"heuristic", "material", "network", "uniform", "rollouts",
                               "lookahead"}


def test_an_evaluator_and_its_spec_give_the_same_search():
    """An agent's one evaluator= takes an Evaluator or its spec: the same searches to the visit."""
    game = victorus.Game("compact", players=2)
    for spec in ("rollouts(3, network(default))", "rollouts(10, lookahead(heuristic))",
                 "rollouts(10, material)", "uniform"):
        a = PUCTAgent(60, seed=3, evaluator=make_evaluator(spec)).search(game)
        b = PUCTAgent(60, seed=3, evaluator=spec).search(game)
        assert (a.visits, a.values) == (b.visits, b.values)
    a = MCTSAgent(80, seed=2, evaluator=make_evaluator("rollouts(10, heuristic)")).search(game)
    b = MCTSAgent(80, seed=2, evaluator="rollouts(10, heuristic)").search(game)
    assert a.visits == b.visits
    a = AlphaBetaAgent(300, seed=1, evaluator=network_evaluator("default")).search(game)
    b = AlphaBetaAgent(300, seed=1, evaluator="network(default)").search(game)
    assert (a.action, a.value) == (b.action, b.value)
    weighted = AlphaBetaAgent(300, seed=1, evaluator=heuristic({"material": 3.0}))
    assert weighted.evaluator.spec == "heuristic({'material': 3.0})"
    with pytest.raises(ConfigError, match="unknown evaluator"):
        AlphaBetaAgent(300, evaluator="materiel(2)")


def test_a_new_evaluator_plays_in_every_search_and_in_the_vector_step():
    """material, never a kind's own, in each C search and as a vector opponent."""
    from victorus.vector import VectorGames
    game = victorus.Game("compact", players=2)
    for agent in (AlphaBetaAgent(200, seed=0, evaluator="material"),
                  PUCTAgent(40, seed=0, evaluator="material"),
                  MCTSAgent(40, seed=0, evaluator="lookahead(material)")):
        assert agent.choose(game) in game.legal_actions()
        games = VectorGames(2, board="compact", players=2, seed=1, opponents={1: agent})
        for _ in range(6):
            games.step(games.sample())


def test_each_kind_names_its_evaluator():
    from victorus.search.registry import KINDS
    for kind in KINDS:
        if kind.evaluator is not None:
            agent = make_agent(f"{kind.name}:20" if kind.unit else kind.name, seed=0)
            assert agent.evaluator.spec == kind.evaluator, kind.name


def test_the_shipped_networks_are_named_by_their_content():
    folder = resources.files("victorus.evaluation.networks")
    files = [f for f in folder.iterdir() if f.name.endswith(".vnet")]
    assert files and network_module.DEFAULT_FILE in [f.name for f in files]
    for file in files:
        digest = hashlib.sha256(file.read_bytes()).hexdigest()[:12]
        assert file.name.endswith(f"-{digest}.vnet"), file.name


def test_the_layout_and_the_boards_come_from_the_c_sizes():
    sizes = network_module.SIZES
    assert network_module.LAYOUT == (f"seat-kind-cell/t{sizes['types']}-s{sizes['seat_inputs']}"
                                     f"-g{sizes['global_inputs']}-k{sizes['skip_terms']}")
    assert sizes["boards"] == len(network_module.BOARDS)
    assert twin.VALUE_BOUND == VALUE_BOUND == pytest.approx(0.99)


def test_values_stay_within_the_bound_and_a_finished_game_is_its_returns():
    game = victorus.Game("compact", players=2)
    for action in game.legal_actions()[:1]:
        game.play(action)
    for spec in ("heuristic", "network(default)", "material", "uniform"):
        search = PUCTAgent(30, seed=0, evaluator=spec).search(game)
        assert all(abs(v) < 1 for v in search.seat_values)
    assert uniform().spec == "uniform" and lookahead(material()).spec == "lookahead(material)"


CYCLES = """
import gc, victorus
from victorus.search import _puct
from victorus.evaluation import make_evaluator
from victorus.vector import VectorGames
gc.disable()
game = victorus.Game("compact", players=2)
for spec in ("rollouts(3, material)", "network(default)"):
    tree = _puct.PuctTree(game._engine, 4, 1000, 1.5, 0.0, "none", False, lambda e: None,
                          make_evaluator(spec))
    holder = [tree]
    holder.append(holder)
    del tree, holder
    gc.collect()
for spec in ("mcts:100", "puct:20", "alphabeta-net:100"):
    games = VectorGames(1, "compact", players=2, variant="quick6", seed=1,
                        opponents={"team:1": spec})
    games.step(games.sample().copy())
    holder = [games._engine]
    holder.append(holder)
    del games, holder
    gc.collect()
print("survived")
"""


def test_a_search_in_a_reference_cycle_frees_its_evaluator_workspace_last():
    """A tree or a vector pool collected in a cycle frees its evaluators' workspaces
    before the evaluators go (the garbage collector must not clear them first: with
    Python's debug allocator, a freed evaluator read there crashes)."""
    import os
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-c", CYCLES], capture_output=True, text=True,
                         timeout=300, env={**os.environ, "PYTHONMALLOC": "debug"})
    assert out.returncode == 0 and out.stdout.strip() == "survived", out.stderr[-2000:]


OUT_OF_MEMORY = """
import resource, victorus
from victorus.vector import VectorGames

def vm_bytes():
    for line in open("/proc/self/status"):
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
warm = VectorGames(1, "compact", players=2, variant="quick6", seed=1, opponents={"team:1": "random"})
warm.step(warm.sample().copy())
soft, hard = resource.getrlimit(resource.RLIMIT_AS)
resource.setrlimit(resource.RLIMIT_AS, (vm_bytes() + (4 << 20), hard))
try:
    VectorGames(1, "compact", players=2, variant="quick6", seed=1,
                opponents={"team:1": "mcts:1000000"})
    print("made")
except MemoryError:
    print("MemoryError")
finally:
    resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
"""


@pytest.mark.skipif(not __import__("sys").platform.startswith("linux"), reason="RLIMIT_AS: Linux")
@pytest.mark.skipif("libasan" in __import__("os").environ.get("LD_PRELOAD", ""),
                    reason="ASan reserves its own address space")
def test_a_search_workspace_out_of_memory_is_a_memory_error():
    """The UCT's workspace (a tree for a million iterations and its rollouts' buffers)
    refused by the allocator: a MemoryError, with nothing half-made freed twice."""
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-c", OUT_OF_MEMORY], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0 and out.stdout.split()[-1] in ("MemoryError", "made"), out.stderr


def test_an_evaluator_is_made_by_its_constructor_once():
    from victorus.evaluation import Evaluator
    from victorus.evaluation._rollouts import RolloutsEvaluator

    class Mine(Evaluator):
        pass
    with pytest.raises(TypeError):
        Evaluator()
    with pytest.raises(TypeError):
        Mine()
    bare = RolloutsEvaluator.__new__(RolloutsEvaluator)
    game = victorus.Game("compact", players=2)
    with pytest.raises(ConfigError):
        PUCTAgent(10, evaluator=bare)
    with pytest.raises(ConfigError):
        rollouts(3, bare)
    assert PUCTAgent(10, evaluator=make_evaluator("material")).choose(game) in game.legal_actions()
    made = make_evaluator("rollouts(3, material)")
    with pytest.raises(TypeError, match="made once"):
        made.__init__(3, make_evaluator("network(default)"))


def test_a_kind_is_built_from_its_spec_with_a_network_in_place_of_its_own():
    """best-net(FILE) and make_agent(network=...) put that network into the evaluator spec the
    kind declares; every other setting is the kind's."""
    from victorus.search.registry import REGISTRY
    game = victorus.Game("compact", players=2)
    declared = REGISTRY["best-net"].evaluator
    assert declared == "rollouts(3, network(default))"
    named = make_agent("best-net(default-35c93a166b61):60", seed=4)
    assert named.evaluator.spec == "rollouts(3, network(default-35c93a166b61))"
    assert named.name == "best-net(default-35c93a166b61):60"
    given = make_agent("best-net:60", seed=4, network=network_evaluator("default-35c93a166b61"))
    assert given.evaluator.spec == named.evaluator.spec and given.name == "best-net:60"
    assert given.c_puct == named.c_puct == REGISTRY["best-net"].settings["c_puct"]
    a, b = named.search(game), given.search(game)
    assert (a.visits, a.values) == (b.visits, b.values)
    assert make_agent("alphabeta-net:50", network="default-35c93a166b61").evaluator.spec == \
        "network(default-35c93a166b61)"
    for spec, settings, why in (("best-heuristic:50", {"network": "default"}, "takes no network"),
                                ("best-net(default):50", {"network": "default"}, "names its network"),
                                ("best-net:50", {"network": "default", "evaluator": "uniform"},
                                 "not both"),
                                ("best-net:50", {"network": make_evaluator("material")},
                                 "got the evaluator 'material'")):
        with pytest.raises(ConfigError, match=why):
            make_agent(spec, **settings)


def test_an_evaluator_says_which_games_it_serves():
    """Evaluator.check: a network's evaluator (alone or inside another) refuses a board or a
    number of players it was not trained for; every search agent checks before it chooses,
    a decisive action included."""
    narrow = network_module.Network.fresh(trained={"boards": ["compact"], "players": [2]})
    inner = rollouts(3, network_evaluator(narrow))
    inner.check(victorus.Game("compact", players=2))
    for game in (victorus.Game("standard", players=2), victorus.Game("compact", players=3)):
        with pytest.raises(ConfigError, match="trained for boards"):
            inner.check(game)
        for agent in (PUCTAgent(10, evaluator=inner), MCTSAgent(10, evaluator=inner),
                      AlphaBetaAgent(10, evaluator=network_evaluator(narrow))):
            with pytest.raises(ConfigError, match="trained for boards"):
                agent.choose(game)
    make_evaluator("heuristic").check(victorus.Game("standard"))       # serves every game


def test_networks_of_the_old_layout_name_still_load(tmp_path):
    """A network file of the layout's old name (same sizes) is read."""
    data = network_module.default_network().to_bytes()
    old = network_module.Network.from_bytes(data)             # rewritten with the old name:
    header = data.replace(network_module.LAYOUT.encode(), b"seat-kind-cell/1", 1)
    assert header != data
    import struct
    fixed = len(network_module.MAGIC) + 8
    size = struct.unpack("<I", header[len(network_module.MAGIC) + 4:fixed])[0]
    body = header[:fixed - 4] + struct.pack("<I", size - (len(data) - len(header))) + header[fixed:-32]
    again = network_module.Network.from_bytes(body + hashlib.sha256(body).digest())
    assert again.to_bytes() == old.to_bytes()
