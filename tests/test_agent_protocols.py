"""What an agent is (victorus.search.protocols, handed on by victorus.agents): a user's
agent with only ``name`` and ``choose(game)`` is an Agent and is called without a stop
token; every built-in agent of a vector kind is a NativeAgent; an object without
``choose`` is refused where agents are accepted."""

import pytest

from victorus.agents import VECTOR_KINDS, Agent, NativeAgent, PythonMCTSAgent, make_agent
from victorus.errors import ConfigError
from victorus.search.protocols import takes_stop
from victorus.search.registry import make_vector_opponent
from victorus.tournament import tournament


class FirstLegal:
    """A user's agent: a name and choose(game), no stop token, no base class."""

    name = "first"

    def choose(self, game):
        return game.legal_actions()[0]


class Nameless:
    """Something with no choose: not an agent."""

    name = "nameless"


def test_a_users_agent_with_choose_game_only_is_an_agent_called_without_stop():
    agent = FirstLegal()
    assert isinstance(agent, Agent) and not isinstance(agent, NativeAgent)
    assert not takes_stop(agent)
    result = tournament([agent, "random"], games=2, seed=1, progress=False)   # choose(game) only
    assert result.agents == ("first", "random") and result.games == 2


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:5", "puct:5", "alphabeta:5"])
def test_a_built_in_c_agent_is_a_native_agent(spec):
    agent = make_agent(spec, seed=0)
    assert spec.partition(":")[0] in VECTOR_KINDS
    assert isinstance(agent, NativeAgent) and isinstance(agent, Agent) and takes_stop(agent)
    assert make_vector_opponent(agent) is not None


def test_the_python_mcts_agent_is_an_agent_but_not_native():
    agent = make_agent("mcts-py:5", seed=0)
    assert isinstance(agent, PythonMCTSAgent) and isinstance(agent, Agent)
    assert not isinstance(agent, NativeAgent) and takes_stop(agent)


def test_an_object_without_choose_is_refused():
    assert not isinstance(Nameless(), Agent)
    with pytest.raises(ConfigError, match="an object with a name and choose"):
        tournament([Nameless(), "random"], games=2, progress=False)
    with pytest.raises(ConfigError, match="not an agent"):
        tournament([lambda seed: Nameless(), "random"], games=2, progress=False)
    with pytest.raises(ConfigError, match="the agents that play inside the step"):
        make_vector_opponent(FirstLegal())            # an agent, but not a native one
