"""One rule for every call that takes a StopToken (game.check_stop, docs/robustness.md): a
token already stopped raises Cancelled before any work; stopped during the call, perft
and simulate raise Cancelled and a search returns what it has searched. The page stops
an agent's search once its answer is no longer wanted."""

import threading

import pytest

import victorus
from victorus.agents import KINDS, PUCTAgent, make_agent
from victorus.page.table import Table
from victorus.session import PERSON

SPECS = [kind.name + (":40" if kind.unit else "") for kind in KINDS]   # every kind


def stopped_token():
    token = victorus.StopToken()
    token.stop()
    return token


@pytest.mark.parametrize("spec", SPECS)
def test_every_agent_refuses_a_token_already_stopped(spec):
    game = victorus.Game("compact", players=2)
    game.play(game.legal_actions()[3])
    before = game.vpn() if game.phase == "start" else game.history()
    agent = make_agent(spec, seed=1)
    with pytest.raises(victorus.Cancelled, match="already stopped"):
        agent.choose(game, stop=stopped_token())
    if hasattr(agent, "search"):
        with pytest.raises(victorus.Cancelled, match="already stopped"):
            agent.search(game, stop=stopped_token())
    assert (game.vpn() if game.phase == "start" else game.history()) == before
    assert agent.choose(game, stop=victorus.StopToken()) in game.legal_actions()


def test_perft_and_simulate_refuse_a_token_already_stopped():
    with pytest.raises(victorus.Cancelled, match="perft"):
        victorus.perft(victorus.Game("compact", players=2), 2, stop=stopped_token())
    with pytest.raises(victorus.Cancelled, match="simulate"):
        victorus.simulate(2, board="compact", players=2, workers=1, stop=stopped_token())


@pytest.mark.parametrize("bad", ["stop", 1, True])
def test_a_stop_that_is_not_a_token_is_refused(bad):
    with pytest.raises(victorus.ConfigError, match="StopToken or None"):
        make_agent("mcts:10").choose(victorus.Game("compact", players=2), stop=bad)


def test_a_search_stopped_during_its_work_returns_what_it_searched():
    """The token is stopped from inside the search (its evaluator's first call): the
    search ends there, with the root evaluated, instead of running its hour."""
    token = victorus.StopToken()

    def evaluator(batch):
        token.stop()
        return None, [0.0] * batch.size
    agent = PUCTAgent(None, seconds=3600, evaluator=evaluator, batch_size=1, seed=1)
    game = victorus.Game("compact", players=2)
    result = agent.search(game, stop=token)
    assert result.action in game.legal_actions() and result.iterations <= 2


@pytest.mark.parametrize("spec", ["mcts:3600s", "alphabeta:3600s", "best:3600s", "mcts-py:3600s"])
def test_a_token_stopped_from_another_thread_ends_an_hour_long_search(spec):
    """Stopped before it began (Cancelled) or while it searched (an action): either way
    the call returns at once instead of after its hour."""
    game = victorus.Game("compact", players=2)
    agent, token, outcome = make_agent(spec, seed=2), victorus.StopToken(), []

    def think():
        try:
            outcome.append(agent.choose(game.copy(), stop=token))
        except victorus.Cancelled as exc:
            outcome.append(exc)
    thread = threading.Thread(target=think)
    thread.start()
    token.stop()
    thread.join(120)
    assert not thread.is_alive() and len(outcome) == 1
    assert isinstance(outcome[0], victorus.Cancelled) or outcome[0] in game.legal_actions()


@pytest.mark.parametrize("change", ["new game", "seats", "resign"])
def test_the_page_stops_an_agent_whose_answer_it_no_longer_wants(change):
    """An agent of the page thinking (best at 5 s, the page's longest) when the game is
    replaced, its seat changes or a person resigns: its token is stopped and its answer
    dropped, and the worker is free again."""
    seats = ["best:5s", PERSON, "greedy", "greedy", "greedy", "greedy"]
    table = Table("compact", 2, seats=seats, agent_delay=0)
    started = threading.Event()
    choose = table.session.agents[0].choose

    def noted(game, stop=None):
        started.set()
        return choose(game, stop=stop)
    table.session.agents[0].choose = noted
    worker = threading.Thread(target=table.work)
    worker.start()
    assert started.wait(60)
    token = table.thinking
    assert token is not None and not token.stopped
    if change == "new game":
        table.new_game("compact", 2, seats=[PERSON] * 6)
    elif change == "seats":
        table.set_seats([PERSON] * 6)
    else:
        table.resign(1)
    assert token.stopped and table.thinking is None
    worker.join(120)
    assert not worker.is_alive()
    assert table.game.history() == []                    # the stopped answer was dropped


def test_a_new_game_stops_the_analysis_of_the_old_one():
    """The page's analysis of a position (a search in a thread of its own) is stopped by
    its token when a new game replaces the position, and its result dropped."""
    table = Table("compact", 2, seats=[PERSON] * 6, agent_delay=0)
    table.analysis.seconds = 3600                       # would run for an hour unstopped
    assert table.analyse()["status"] == "running"
    token = table.analysis._stop
    assert token is not None and not token.stopped
    table.new_game("compact", 2, seats=[PERSON] * 6)
    assert token.stopped and table.analysis.state()["status"] == "none"
    for thread in threading.enumerate():
        if thread.name == "victorus-analysis":
            thread.join(120)
            assert not thread.is_alive()
    assert table.analysis.state()["status"] == "none"            # the stopped result dropped
