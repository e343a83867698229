"""Agents, the tournament runner and the tournament/render/simulate --csv commands (issue 5)."""

import csv
import io

import pytest

import victorus
from helpers import position
from victorus.agents import GreedyAgent, MCTSAgent, RandomAgent, make_agent, tournament
from victorus.cli import main


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:8"])
def test_agents_choose_legal_actions(spec):
    agent = make_agent(spec, seed=1)
    game = victorus.Game("compact", players=2)
    for _ in range(40):
        if game.is_over:
            break
        before = game.vpn() if game.phase == "start" else None
        action = agent.choose(game)
        assert action in game.legal_actions()
        if before is not None:
            assert game.vpn() == before                  # choosing never changes the game
        game.play(action)


def test_greedy_takes_the_most_valuable_capture():
    # The Templar can take a Queen-less knight (Xw, 4) or the blue Queen (10).
    game = victorus.Game.from_vpn(position({"i6": "0Tw", "i10": "1Q", "m6": "1Xw",
                                            "i20": "1Tb"}))
    assert str(GreedyAgent(seed=1).choose(game)) == "i6xi10"


def test_greedy_avoids_leaving_a_piece_en_prise():
    game = victorus.Game.from_vpn(position({"i6": "0Tw", "m10": "1Xw", "i20": "1Tb"}))

    def attacked_after(action):
        trial = game.copy()
        trial.play(action)
        return action.target in {a.target for a in trial.legal_actions() if a.capture}
    assert any(attacked_after(a) for a in game.legal_actions())     # a trap exists...
    for seed in range(5):                                          # ...and greedy avoids it
        assert not attacked_after(GreedyAgent(seed=seed).choose(game))


def test_mcts_prefers_a_winning_entry():
    # Red's King can enter the centre at once (R28): MCTS must take it.
    game = victorus.Game.from_vpn(position({"i8": "0K", "i20": "1Tb"}, armies={0: "a,3,"},
                                           laps={"i8": 1}))
    assert str(MCTSAgent(iterations=60, seed=1).choose(game)) == "i8-i14"


def test_mcts_captures_a_hanging_queen():
    # Taking blue's only royal left on the board eliminates nobody but wins material (R37).
    game = victorus.Game.from_vpn(position({"i6": "0Tw", "i10": "1Q", "m6": "1Xw",
                                            "i20": "1Tb", "h1": "0K"}))
    assert str(MCTSAgent(iterations=150, seed=2).choose(game)) == "i6xi10"


def test_make_agent_errors():
    for spec, message in [("bogus", "unknown agent"), ("mcts:0", "bad MCTS budget"),
                          ("mcts:x", "bad MCTS budget"), ("random:3", "unknown agent"),
                          (5, "must be a string")]:
        with pytest.raises(victorus.ConfigError, match=message):
            make_agent(spec)
    with pytest.raises(victorus.ConfigError, match="iterations"):
        MCTSAgent(iterations=0)
    assert isinstance(make_agent("random"), RandomAgent)


def test_tournament_is_seeded_and_rotates_sides():
    a = tournament(["greedy", "random"], games=4, seed=5)
    b = tournament(["greedy", "random"], games=4, seed=5)
    assert a == b and a.games == 4
    assert sum(a.wins.values()) + a.draws + a.unfinished == 4
    low, high = a.interval("greedy")
    assert 0 <= low <= a.win_rate("greedy") <= high <= 1
    assert "95% CI" in a.table()
    with pytest.raises(victorus.ConfigError, match="give 2 agents"):
        tournament(["random", "random", "random"], games=1)
    with pytest.raises(victorus.ConfigError, match="at least two"):
        tournament(["random"], games=1)


def test_three_team_tournament():
    result = tournament(["greedy", "random", "random"], games=2, players=3, seed=1)
    assert result.games == 2 and len(result.agents) == 3


def test_tournament_and_render_commands(tmp_path, capsys):
    assert main(["tournament", "2", "greedy", "random", "--seed", "1"]) == 0
    assert "greedy" in capsys.readouterr().out
    svg = tmp_path / "board.svg"
    assert main(["render", str(svg), "--board", "compact", "--seat", "3", "--labels"]) == 0
    assert svg.read_text().startswith("<svg")
    png = tmp_path / "board.png"
    assert main(["render", str(png), "--vpn", victorus.Game().vpn()]) == 0
    assert png.read_bytes()[:4] == b"\x89PNG"
    assert main(["render", str(tmp_path / "x.gif")]) == 2
    assert ".svg or .png" in capsys.readouterr().err


def test_simulate_csv(tmp_path, capsys):
    out = tmp_path / "games.csv"
    assert main(["simulate", "5", "--seed", "2", "--csv", str(out), "--board", "compact"]) == 0
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    games = victorus.simulate(5, seed=2, board="compact")
    assert [int(r["actions"]) for r in rows] == [g.actions for g in games]
    assert rows[0]["reason"] == (games[0].reason or "unfinished")
