"""Matches (victorus.match, ``victorus match``): A against B from seeded openings with A's
team rotated over every team; A's score counted from the games, with its Wilson interval
and the fair share; the same games on 1 or 2 workers; and a network per agent in the specs
(``best-net(FILE):400``) of tournaments and matches, bad ones refused in one line."""

from __future__ import annotations

import json

import pytest

import victorus
from victorus import progress
from victorus.agents import make_agent
from victorus.cli import main
from victorus.errors import AgentError, ConfigError
from victorus.evaluation.network import Network, NetworkFileError
from victorus.match import MatchResult, match
from victorus.ratings import wilson
from victorus.search.registry import make_page_agent, make_vector_opponent
from victorus.tournament import GameOutcome, TournamentResult, calibrate, tournament


@pytest.fixture(autouse=True)
def _quiet(monkeypatch):
    monkeypatch.delenv("VICTORUS_PROGRESS", raising=False)


def test_a_two_team_match_plays_each_side_of_each_opening_and_scores_a():
    result = match("best:10", "greedy", games=4, opening=4, seed=1, progress=False)
    games = result.tournament.outcomes
    assert result.a == "best:10" and result.b == "greedy" and result.teams == 2
    assert [g.lineup for g in games] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    assert [g.opening for g in games] == [0, 0, 1, 1]       # each opening with A on each side
    assert result.wins + result.losses + result.draws + result.unfinished == result.games == 4
    assert result.wins == sum(g.winner == 0 for g in games)
    assert result.losses == sum(g.winner == 1 for g in games)
    points = result.wins + (result.draws + result.unfinished) / 2
    assert result.score == points / 4 and result.interval() == wilson(points, 4)
    assert result.fair_share == 0.5
    assert result.mean_actions == sum(g.actions for g in games) / 4
    data = result.as_dict()
    assert data["score"] == result.score and data["wilson_95"] == list(result.interval())
    assert len(data["outcomes"]) == 4 and "stopped" not in data


def test_in_a_game_of_three_armies_a_plays_one_and_every_seat_in_turn():
    result = match("greedy", "random", games=6, players=3, opening=2, seed=3, progress=False)
    lineups = [g.lineup for g in result.tournament.outcomes]
    assert all(lineup.count(0) == 1 and len(lineup) == 3 for lineup in lineups)
    assert {lineup.index(0) for lineup in lineups} == {0, 1, 2}
    assert result.fair_share == pytest.approx(1 / 3)
    assert "fair share 0.333" in result.table() and "a draw or unfinished game counts 1/3" in result.table()
    with pytest.raises(ConfigError, match="games must be a multiple of 3, got 4"):
        match("greedy", "random", games=4, players=3)


def test_a_draw_counts_one_over_the_teams_and_an_unfinished_game_as_a_draw():
    def game(index, winner, finished=True):
        return GameOutcome(index, 0, None, (0, 1, 1), winner, finished, 10 * (index + 1))
    games = (game(0, 0), game(1, None), game(2, None, finished=False), game(3, 1))
    result = MatchResult(TournamentResult(("a", "b"), "one-vs-rest", 3, 0, games))
    assert (result.wins, result.draws, result.unfinished, result.losses) == (1, 1, 1, 1)
    assert result.score == pytest.approx((1 + 2 / 3) / 4)
    assert result.interval() == wilson(1 + 2 / 3, 4)
    assert result.mean_actions == 25.0
    assert MatchResult(TournamentResult(("a", "b"), "one-vs-rest", 2, 0, ())).score == 0.5


def test_the_same_games_on_one_or_two_worker_processes():
    one = match("best:8", "mcts:8", games=4, opening=2, seed=5, progress=False)
    two = match("best:8", "mcts:8", games=4, opening=2, seed=5, workers=2, progress=False)
    assert one.tournament.outcomes == two.tournament.outcomes
    other = match("best:8", "mcts:8", games=4, opening=2, seed=6, progress=False)
    assert other.tournament.outcomes != one.tournament.outcomes


class Passer:
    """Answers 'pass' whether or not it is legal."""

    name = "passer"

    def choose(self, game):
        return "pass"


def test_an_agent_that_fails_stops_the_match_with_the_games_before_it():
    with pytest.raises(AgentError) as raised:
        match(Passer(), "greedy", games=2, opening=0, progress=False)
    assert isinstance(raised.value.result, MatchResult)
    assert raised.value.result.games == 0 and "passer" in raised.value.result.stopped


def test_the_command_writes_json_and_prints_the_score(capsys):
    argv = ["match", "best:10", "greedy", "--games", "2", "--opening", "2", "--seed", "4"]
    assert main([*argv, "--json", "-"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)                           # only JSON on standard output
    assert data["game"] == {"board": "compact", "players": 2, "variant": "standard"}
    assert (data["a"], data["b"], data["games"], data["teams"], data["seed"]) == \
        ("best:10", "greedy", 2, 2, 4)
    assert data["wins"] + data["draws"] + data["losses"] + data["unfinished"] == 2
    assert data["wilson_95"] == list(wilson(data["wins"] + (data["draws"] + data["unfinished"]) / 2, 2))
    assert data["fair_share"] == 0.5 and data["mean_actions"] > 0 and data["openings"] == 2
    assert "A's score" in captured.err and "95% CI" in captured.err
    assert main([*argv[:5], "--openings", "2", "--seed", "4"]) == 0     # the tournament's spelling
    assert f"A's score: {data['score']:.3f}" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["match", "best:10", "nobody"], "unknown agent 'nobody'"),
    (["match", "best:10", "greedy", "--games", "3"], "games must be a multiple of 2, got 3"),
    (["match", "best-net(/nonexistent/a.vnet):10", "greedy"], "no such network file"),
    (["match", "random(a.vnet)", "greedy"], "random takes no network"),
])
def test_the_command_refuses_bad_input_in_one_line(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("victorus: error: ") and message in err


def test_off_a_terminal_the_command_prints_progress_lines(monkeypatch, capsys):
    monkeypatch.setattr(progress, "LINE_SECONDS", 0.0)        # a line at every game
    assert main(["match", "greedy", "random", "--games", "2", "--opening", "0"]) == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("games: ")]
    assert [line.split(",")[0] for line in lines] == ["games: 1/2 (50%)", "games: 2/2 (100%)"]
    assert main(["match", "greedy", "random", "--games", "2", "--no-progress"]) == 0
    assert capsys.readouterr().err == ""


# -- a network per agent --------------------------------------------------------------------

@pytest.fixture(scope="module")
def network_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("nets") / "mine.vnet"
    Network.fresh(4, 4, seed=3).save(path)
    return str(path)


def test_a_spec_names_its_network(network_file):
    agent = make_agent(f"best-net({network_file}):10", seed=1)
    assert agent.name == f"best-net({network_file}):10"
    assert agent.evaluator.network.arrays["w1"].tobytes() == \
        Network.load(network_file).arrays["w1"].tobytes()
    assert make_agent(f"alphabeta-net({network_file}):50").name == f"alphabeta-net({network_file}):50"
    assert make_agent("best-net(default):10").name == "best-net(default):10"
    assert make_agent("best-net:10").name == "best-net:10"               # the specs of before
    assert make_agent("mcts:").name == "mcts:1000"
    make_vector_opponent(f"best-net({network_file}):10")                # plays in the step too


@pytest.mark.parametrize("spec, error, message", [
    ("random(x.vnet)", ConfigError, "random takes no network; the kinds that do are alphabeta-net, best-net"),
    ("mcts(x.vnet):10", ConfigError, "mcts takes no network"),
    ("best-net():10", ConfigError, "the network between the parentheses is empty"),
    ("best-net(a(1).vnet):10", ConfigError, "its network is written 'best-net(FILE)[:BUDGET]'"),
    ("best-net(a.vnet:10", ConfigError, "without parentheses"),
    ("best-net(/nonexistent/a.vnet):10", NetworkFileError,
     "agent 'best-net(/nonexistent/a.vnet):10': /nonexistent/a.vnet: no such network file"),
    ("best-net(default):ten", ConfigError, "bad search budget"),
    ("random:", ConfigError, "unknown agent"),
])
def test_bad_network_specs_say_what_was_wrong_and_what_is_accepted(spec, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")):
        make_agent(spec)


def test_a_network_in_the_spec_and_in_the_settings_is_refused(network_file):
    with pytest.raises(ConfigError, match="give no network= beside it"):
        make_agent(f"best-net({network_file}):10", network="default")


def test_the_page_reads_no_network_file(network_file):
    with pytest.raises(ConfigError, match="on the page best-net plays the shipped network"):
        make_page_agent(f"best-net({network_file}):1s")


def test_tournaments_take_a_network_per_agent(tmp_path, network_file):
    result = tournament([f"best-net({network_file}):5", "best-net(default):5"], games=2,
                        openings=2, seed=1, progress=False)
    assert result.agents == (f"best-net({network_file}):5", "best-net(default):5")
    narrow = tmp_path / "standard.vnet"
    Network(Network.load(network_file).arrays, {"boards": ["standard"], "players": [6]}).save(narrow)
    with pytest.raises(ConfigError, match=r"agent 'best-net\(.*standard.vnet\):5': standard.vnet: "
                                          r"trained for boards \['standard'\]"):
        tournament([f"best-net({narrow}):5", "greedy"], games=2)
    counts = calibrate([f"best-net({network_file}):0.01s"], positions=1)
    assert counts.budgets[f"best-net({network_file}):0.01s"].startswith(f"best-net({network_file}):")
    assert victorus.ConfigError is ConfigError


# -- each network read once, at the start ----------------------------------------------------

def content_name(path) -> str:
    import hashlib
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()[:12]


def test_a_network_replaced_mid_match_changes_no_game(tmp_path):
    """A spec's file is read once, at the match's start: replacing it while the games are
    played (here by B's factory, at each game it builds B for) changes no game's agent,
    and the result names the content that played. Read per game, the replacement (made for
    another board) would stop the match half way."""
    path = tmp_path / "mine.vnet"
    Network.fresh(4, 4, seed=3).save(path)
    content = content_name(path)
    spec = f"best-net({path}):5"
    reference = match(spec, "greedy", games=4, opening=2, seed=1, progress=False)
    other = Network(Network.load(path).arrays, {"boards": ["standard"], "players": [6]})
    built = []

    def greedy_replacing_a(seed):
        if built:                                      # the match has started: A's file replaced
            other.save(path)
        built.append(seed)
        return make_agent("greedy", seed)
    played = match(spec, greedy_replacing_a, games=4, opening=2, seed=1, progress=False)
    assert len(built) == 5 and content_name(path) != content            # replaced during the games
    assert played.tournament.outcomes == reference.tournament.outcomes
    assert played.tournament.networks == reference.tournament.networks == {spec: content}
    assert played.as_dict()["networks"] == {spec: content}
    assert f"{spec} played network {content}" in played.table().splitlines()


def test_workers_play_the_network_read_at_the_start(tmp_path):
    """The workers get the network's bytes from the start, not its file: the same games as
    in one process, whatever the file holds meanwhile."""
    path = tmp_path / "mine.vnet"
    Network.fresh(4, 4, seed=5).save(path)
    spec = f"best-net({path}):5"
    alone = tournament([spec, "greedy"], games=4, openings=2, seed=2, progress=False)
    shared = tournament([spec, "greedy"], games=4, openings=2, seed=2, progress=False, workers=2)
    assert shared.outcomes == alone.outcomes and shared.networks == {spec: content_name(path)}
    assert json.loads(json.dumps(shared.as_dict()))["networks"] == {spec: content_name(path)}


def test_a_spec_network_is_read_once_per_run(tmp_path, monkeypatch):
    """However many games, a tournament reads a spec's file once."""
    path = tmp_path / "mine.vnet"
    Network.fresh(4, 4, seed=3).save(path)
    reads = []
    real = Network.load.__func__

    def counted(cls, file):
        reads.append(str(file))
        return real(cls, file)
    monkeypatch.setattr(Network, "load", classmethod(counted))
    tournament([f"best-net({path}):5", "random"], games=6, openings=1, seed=3, progress=False)
    assert reads == [str(path)]
