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
    heuristic,
    lookahead,
    make_evaluator,
    material,
    rollouts,
    uniform,
)
from victorus.evaluation import network as network_module
from victorus.evaluation.registry import network


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


def test_the_knobs_and_the_spec_give_the_same_search():
    """PUCT's and the UCT's old settings name an evaluator: the same searches to the visit."""
    game = victorus.Game("compact", players=2)
    for knobs, spec in ((dict(rollout_actions=3, evaluated=True, network="default"),
                         "rollouts(3, network(default))"),
                        (dict(evaluated=True, evaluated_priors=True),
                         "rollouts(10, lookahead(heuristic))"),
                        (dict(), "rollouts(10, material)"),
                        (dict(evaluator="uniform"), "uniform")):
        a = PUCTAgent(60, seed=3, **knobs).search(game)
        b = PUCTAgent(60, seed=3, evaluator=spec).search(game)
        assert (a.visits, a.values) == (b.visits, b.values)
    a = MCTSAgent(80, seed=2, evaluated=True).search(game)
    b = MCTSAgent(80, seed=2, evaluator="rollouts(10, heuristic)").search(game)
    assert a.visits == b.visits


def test_alphabeta_takes_any_evaluator_and_refuses_two():
    game = victorus.Game("compact", players=2)
    a = AlphaBetaAgent(300, seed=1, network="default").search(game)
    b = AlphaBetaAgent(300, seed=1, evaluator="network(default)").search(game)
    assert (a.action, a.value) == (b.action, b.value)
    with pytest.raises(ConfigError, match="not both"):
        AlphaBetaAgent(300, evaluator="material", weights={"material": 1.0})


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
    assert network_module.VALUE_BOUND == VALUE_BOUND == pytest.approx(0.99)


def test_values_stay_within_the_bound_and_a_finished_game_is_its_returns():
    game = victorus.Game("compact", players=2)
    for action in game.legal_actions()[:1]:
        game.play(action)
    for spec in ("heuristic", "network(default)", "material", "uniform"):
        search = PUCTAgent(30, seed=0, evaluator=spec).search(game)
        assert all(abs(v) < 1 for v in search.seat_values)
    assert uniform().spec == "uniform" and lookahead(material()).spec == "lookahead(material)"
