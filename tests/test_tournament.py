"""Tournaments: specs, agent objects and factories; random openings played with the sides
rotated (R33 teams); the same results on 1 or 2 worker processes; Bradley-Terry ratings
checked on synthetic results; bad input; ``victorus tournament --json``; the ladder tool."""

from __future__ import annotations

import json
import math
import sys
import threading

import numpy as np
import pytest

import victorus
from test_architecture import load_tool
from victorus.agents import LADDER_SPECS, GreedyAgent, RandomAgent
from victorus.cli import main
from victorus.ratings import PairScore, bradley_terry, wilson
from victorus.simulate import game_seed
from victorus.tournament import OPENING_DRAWS, ladder_agents, tournament


class FirstLegal:
    """A deterministic agent object: the first legal action."""

    name = "first"

    def __init__(self):
        self.moves = 0

    def choose(self, game):
        self.moves += 1
        return game.legal_actions()[0]


class Locked(FirstLegal):
    """An agent object that cannot be copied (it holds a lock)."""

    def __init__(self):
        super().__init__()
        self.lock = threading.Lock()


class Passer(FirstLegal):
    """Plays 'pass' whether it is legal or not."""

    def choose(self, game):
        return "pass"


class Recorder:
    """A random agent that logs (build number, position key) when it first chooses."""

    def __init__(self, log, build):
        self.name, self.log, self.build, self.rng = "recorder", log, build, RandomAgent(build)

    def choose(self, game):
        if not any(entry[0] == self.build for entry in self.log):
            self.log.append((self.build, game.key()))
        return self.rng.choose(game)


def test_specs_objects_and_factories_play_a_round_robin():
    original = FirstLegal()
    result = tournament(["random", original, GreedyAgent], games=2, seed=3)
    assert result.agents == ("random", "first", "greedy") and result.lineup == "round-robin"
    assert result.games == 6 and all(result.played(a) == 4 for a in result.agents)
    assert sum(result.wins.values()) + result.draws + result.unfinished == 6
    assert original.moves == 0                              # each game plays a deep copy
    assert [(p.a, p.b, p.games) for p in result.pairs()] == [
        ("random", "first", 2), ("random", "greedy", 2), ("first", "greedy", 2)]
    assert result == tournament(["random", FirstLegal(), GreedyAgent], games=2, seed=3)


def test_tournament_is_seeded_and_rotates_sides():
    a = tournament(["greedy", "random"], games=4, seed=5)
    assert a == tournament(["greedy", "random"], games=4, seed=5)
    assert [game.lineup for game in a.outcomes] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    low, high = a.interval("greedy")
    assert 0 <= low <= a.win_rate("greedy") <= high <= 1
    assert "95% CI" in a.table()
    assert a != tournament(["greedy", "random"], games=4, seed=6)


def test_each_opening_is_played_with_the_sides_swapped():
    log: list = []
    builds = iter(range(10**6))
    factory = lambda seed: Recorder(log, next(builds))            # noqa: E731 (workers=1)
    result = tournament([factory, factory], games=6, openings=4, seed=2, progress=False)
    assert [game.opening for game in result.outcomes] == [0, 0, 1, 1, 2, 2]
    assert [game.lineup for game in result.outcomes] == [(0, 1), (1, 0)] * 3
    # Builds 0 and 1 check the factory; game g builds 2 + 2g and 3 + 2g. The first
    # position either agent of a game sees is the opening.
    first = [next(key for build, key in log if build in (2 + 2 * g, 3 + 2 * g)) for g in range(6)]
    assert first[0] == first[1] and first[2] == first[3] and first[4] == first[5]
    assert len({first[0], first[2], first[4], victorus.Game("compact", players=2).key()}) == 4


def test_an_opening_never_ends_the_game_and_is_drawn_again():
    result = tournament(["random", "greedy"], games=20, openings=600, seed=1, max_actions=1)
    assert all(game.actions == 1 for game in result.outcomes)     # no opening ended its game
    first_draws = []
    for number in range(10):                                     # the first draw of each opening
        game = victorus.Game("compact", players=2)
        victorus.play_random(game, game_seed(1, number * OPENING_DRAWS), 600)
        first_draws.append(game.is_over)
    assert any(first_draws)                                      # so some were drawn again


def test_same_results_on_one_or_two_worker_processes():
    agents = ["greedy", "random", "mcts:15"]
    one = tournament(agents, games=2, openings=2, seed=7, workers=1)
    two = tournament(agents, games=2, openings=2, seed=7, workers=2)
    assert one == two and one.games == 6


def test_an_error_in_a_worker_process_reaches_the_caller():
    with pytest.raises(victorus.AgentError, match="agent 'first' answered 'pass'.*game [01] at VPN"):
        tournament([Passer(), "random"], games=2, workers=2)


def test_one_versus_the_rest_reports_the_share_of_the_wins():
    result = tournament(["greedy", "random"], games=3, players=3, lineup="one-vs-rest", seed=4)
    assert [game.lineup for game in result.outcomes] == [(0, 1, 1), (1, 0, 1), (1, 1, 0)]
    assert result.played("greedy") == 3 and result.teams == 3
    assert result.win_rate("greedy") == result.wins["greedy"] / 3
    assert "fair share 0.333" in result.table() and result.ratings() == ()


def test_three_team_tournament():
    result = tournament(["greedy", "random", "random"], games=3, players=3, seed=1)
    assert result.agents == ("greedy", "random", "random#2") and result.lineup == "teams"
    assert result.pairs() == () and result.ratings() == ()


@pytest.mark.parametrize("kwargs, message", [
    ({"agents": ["random"]}, "at least two"),
    ({"agents": "random"}, "list of agents"),
    ({"agents": ["random", 42]}, "an agent must be a spec"),
    ({"agents": ["random", "alpha:3"]}, "unknown agent"),
    ({"agents": ["random", lambda seed: 3]}, "not an agent"),
    ({"lineup": "swiss"}, "lineup must be one of auto, teams, round-robin, one-vs-rest"),
    ({"backend": "dask"}, "backend must be one of local, ray"),
    ({"address": "x:1"}, "address is only for backend='ray'"),
    ({"openings": 2, "games": 3}, "multiple of 2"),
    ({"openings": -1}, "openings"),
    ({"workers": 0}, "workers"),
    ({"players": 3}, "give 3 agents"),
    ({"players": 3, "lineup": "round-robin"}, "two-team games"),
    ({"agents": ["random", "greedy", "random"], "lineup": "one-vs-rest"}, "two agents"),
    ({"agents": ["random", lambda seed: RandomAgent(seed)], "workers": 2}, "cannot be sent"),
    ({"agents": ["random", Locked()]}, "cannot be copied for each game"),
])
def test_bad_input_is_a_clear_config_error(kwargs, message):
    kwargs = {"agents": ["random", "greedy"], "games": 2, **kwargs}
    with pytest.raises(victorus.ConfigError, match=message):
        tournament(**kwargs)


@pytest.mark.ray
def test_ray_backend_matches_local():
    agents = ["greedy", "random", "mcts:10"]
    assert (tournament(agents, games=2, openings=2, seed=4, backend="ray", workers=2)
            == tournament(agents, games=2, openings=2, seed=4))


def test_ray_backend_missing_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)                  # import ray fails
    with pytest.raises(victorus.MissingDependencyError, match=r"victorus\[ray\]"):
        tournament(["random", "greedy"], games=2, backend="ray")


def test_wilson_interval():
    low, high = wilson(70, 100, z=1.96)
    assert (low, high) == pytest.approx((0.60415, 0.78105), abs=2e-5)   # by hand
    assert wilson(0, 0) == (0.0, 1.0)


def test_bradley_terry_recovers_known_ratings_exactly():
    true = {"a": 0.0, "b": 100.0, "c": 300.0}
    n = 1_000_000
    scores = []
    for x, y in (("a", "b"), ("a", "c"), ("b", "c")):
        p = 1 / (1 + 10 ** ((true[y] - true[x]) / 400))
        scores.append(PairScore(x, y, round(n * p), n - round(n * p), 0))
    ratings = {r.agent: r for r in bradley_terry(true, scores, prior=0)}
    for name, value in true.items():
        assert abs(ratings[name].rating - value) < 0.5
    assert ratings["a"].low == ratings["a"].high == 0.0            # the anchor (first agent)
    assert [r.agent for r in bradley_terry(true, scores, prior=0)] == ["c", "b", "a"]


def test_two_agents_match_the_logit_formula_and_draws_count_half():
    (b, a) = bradley_terry(["a", "b"], [PairScore("a", "b", 30, 70, 0)], prior=0)
    elo = 400 / math.log(10)
    assert b.rating == pytest.approx(elo * math.log(70 / 30))
    se = elo / math.sqrt(100 * 0.7 * 0.3)
    assert (b.low, b.high) == pytest.approx((b.rating - 1.96 * se, b.rating + 1.96 * se), abs=0.01)
    (b, a) = bradley_terry(["a", "b"], [PairScore("a", "b", 0, 50, 100)], prior=0)
    assert b.rating == pytest.approx(400 * math.log10(2))            # 100 of 150 points
    assert b.games == a.games == 150


def test_intervals_cover_the_truth_on_simulated_games():
    rng = np.random.default_rng(11)
    true = {"random": 0.0, "w": -150.0, "x": 200.0, "y": 450.0}
    names = list(true)
    scores = []
    for i, x in enumerate(names):
        for y in names[i + 1:]:
            p = 1 / (1 + 10 ** ((true[y] - true[x]) / 400))
            outcome = rng.random(300)      # draws (4%) taken half from wins, half from losses
            wins = int(np.sum(outcome < p - 0.02))
            draws = int(np.sum(outcome < p + 0.02)) - wins
            scores.append(PairScore(x, y, wins, 300 - wins - draws, draws))
    ratings = bradley_terry(names, scores)
    covered = [r.low <= true[r.agent] <= r.high for r in ratings]
    assert all(covered) and {r.agent for r in ratings if r.rating == 0} == {"random"}
    assert all(r.high - r.low < 150 for r in ratings if r.agent != "random")


def test_a_clean_sweep_gets_a_finite_rating_and_bad_ratings_input_is_refused():
    (top, bottom) = bradley_terry(["random", "mcts"], [PairScore("random", "mcts", 0, 40, 0)])
    assert math.isfinite(top.rating) and top.rating > 400 and top.low > 0
    with pytest.raises(victorus.ConfigError, match="never met"):
        bradley_terry(["a", "b", "c"], [PairScore("a", "b", 1, 1, 0)])
    with pytest.raises(victorus.ConfigError, match="anchor"):
        bradley_terry(["a", "b"], [PairScore("a", "b", 1, 1, 0)], anchor="z")
    with pytest.raises(victorus.ConfigError, match="distinct agents"):
        bradley_terry(["a", "a"], [])


def test_tournament_ratings_are_anchored_on_random():
    result = tournament(["greedy", "random", "mcts:15"], games=4, openings=2, seed=1)
    ratings = result.ratings()
    assert {r.agent for r in ratings} == {"greedy", "random", "mcts:15"}
    assert next(r for r in ratings if r.agent == "random").rating == 0.0
    assert all(r.games == 8 for r in ratings)
    assert "Bradley-Terry, Elo scale, random = 0" in result.table()


def test_cli_json_output_parses(capsys):
    assert main(["tournament", "2", "random", "greedy", "mcts:10", "--openings", "2",
                 "--seed", "3", "--json", "-"]) == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out)                               # only JSON on standard output
    assert result["games"] == 6 and result["lineup"] == "round-robin"
    assert {a["agent"] for a in result["agents"]} == {"random", "greedy", "mcts:10"}
    assert len(result["pairs"]) == 3 and len(result["ratings"]) == 3
    pair = result["pairs"][0]
    assert pair["wilson_95"] == list(wilson(pair["wins_a"] + pair["draws"] / 2, 2))
    assert [g["opening"] for g in result["outcomes"]][:2] == [0, 0]
    assert "95% CI" in captured.err and "ratings" in captured.err
    # the game played is named: its board and players are not the other commands' defaults
    assert result["game"] == {"board": "compact", "players": 2, "variant": "standard"}
    assert captured.err.startswith("compact board, 2 players, standard\n")
    assert main(["tournament", "2", "greedy", "random", "--seed", "1"]) == 0
    assert "greedy" in capsys.readouterr().out


def test_cli_help_shows_the_tournament_defaults(capsys):
    with pytest.raises(SystemExit):
        main(["tournament", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for option, default in (("--board", "default compact"), ("--players", "default 2"),
                            ("--seed", "default 0"), ("--max-actions", "default 3000"),
                            ("--variant", "'standard' (default)")):
        assert default in text.split(option, 2)[-1], option
    assert main(["tournament", "3", "greedy", "random", "--openings", "2"]) == 2
    assert "multiple of 2" in capsys.readouterr().err


def test_ladder_specs_and_tool(tmp_path, capsys):
    assert ladder_agents(["10", "0.05s"])[:6] == (
        "random", "greedy", "mcts:10", "mcts:0.05s", "mcts-py:10", "mcts-py:0.05s")
    assert all(isinstance(spec, str) for spec in LADDER_SPECS)
    with pytest.raises(victorus.ConfigError, match="bad search budget"):
        ladder_agents(["fast"])
    doc = tmp_path / "agents.md"
    doc.write_text("before\n<!-- ladder: begin -->\nold\n<!-- ladder: end -->\nafter\n")
    ladder = load_tool("ladder")
    assert ladder.main(["--budgets", "5", "--games", "2", "--openings", "2",
                        "--write", str(doc)]) == 0
    text = doc.read_text()
    assert text.startswith("before\n") and text.endswith("after\n") and "old" not in text
    games = 2 * (len(ladder_agents(["5"])) - 1)                   # 2 against each other agent
    assert "| mcts:5 |" in text and f"| greedy | 0 | [0, 0] | {games} |" in text
    assert "python tools/ladder.py --budgets 5 --games 2" in text


def test_ladder_ctrl_c_is_one_line_not_a_traceback(monkeypatch, capsys):
    ladder = load_tool("ladder")

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(ladder, "tournament", interrupted)
    assert ladder.main(["--budgets", "5", "--games", "2"]) == 130
    assert capsys.readouterr().err == "ladder: interrupted; nothing written\n"
