"""Agents and the render/simulate --csv commands (tournaments: test_tournament.py)."""

import csv
import io

import pytest

import victorus
from helpers import position
from victorus.agents import GreedyAgent, MCTSAgent, PythonMCTSAgent, RandomAgent, make_agent
from victorus.cli import main


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:8", "mcts:8@2", "mcts-py:8"])
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


MCTS_AGENTS = [MCTSAgent, PythonMCTSAgent]


@pytest.mark.parametrize("agent", MCTS_AGENTS)
def test_mcts_prefers_a_winning_entry(agent):
    # Red's King can enter the centre at once (R28): MCTS must take it.
    game = victorus.Game.from_vpn(position({"i8": "0K", "i20": "1Tb"}, armies={0: "a,3,"},
                                           laps={"i8": 1}))
    assert str(agent(iterations=60, seed=1).choose(game)) == "i8-i14"


@pytest.mark.parametrize("agent", MCTS_AGENTS)
def test_mcts_captures_a_hanging_queen(agent):
    # Taking blue's only royal left on the board eliminates nobody but wins material (R37).
    game = victorus.Game.from_vpn(position({"i6": "0Tw", "i10": "1Q", "m6": "1Xw",
                                            "i20": "1Tb", "h1": "0K"}))
    assert str(agent(iterations=150, seed=2).choose(game)) == "i6xi10"


def _midgame(seed, actions=60, **config):
    game = victorus.Game(**({"board": "compact", "players": 2} | config))
    victorus.play_random(game, seed, actions)
    return game


@pytest.mark.parametrize("config", [{}, {"board": "standard", "players": 6},
                                    {"board": "standard", "players": 3, "variant": "quick"}])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_c_mcts_expands_each_root_action_once_and_scores_it_as_python_does(config, seed):
    # With no rollouts, the first len(actions) iterations expand every root action once
    # and back up the value of the position it leads to: the C evaluation (material or
    # result, per team) must equal the Python example's, action by action.
    game = _midgame(seed, **config)
    if game.is_over or len(game.legal_actions()) < 2:
        pytest.skip("no choice here")
    actions = game.legal_actions()
    result = MCTSAgent(iterations=len(actions), seed=seed, evaluator="rollouts(0, material)").search(game)
    assert result.actions == tuple(actions) and result.visits == (1,) * len(actions)
    python = PythonMCTSAgent(iterations=1)
    for action, value in zip(actions, result.values):
        child = game.copy(history=False)
        child.play(action)
        assert value == pytest.approx(python._returns(child)[game.to_move], abs=1e-6)


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_c_mcts_is_deterministic_for_a_seed_and_thread_count(threads):
    game = _midgame(7)
    runs = [MCTSAgent(iterations=400, threads=threads, seed=11).search(game) for _ in range(2)]
    assert runs[0] == runs[1]
    assert runs[0].iterations == 400 and sum(runs[0].visits) == 400   # each one passes the root
    assert runs[0].nodes <= 400 + threads                # a node per iteration, a root per tree
    other = MCTSAgent(iterations=400, threads=threads, seed=12).search(game)
    assert other.visits != runs[0].visits


def test_c_mcts_tree_stops_growing_at_max_nodes_and_still_searches():
    game = _midgame(8)
    result = MCTSAgent(iterations=300, max_nodes=5, seed=1).search(game)
    assert result.nodes == 5 and result.iterations == 300
    assert result.action in game.legal_actions()
    assert sum(result.visits) == 300          # the root and 4 children, then selection only
    assert sum(1 for v in result.visits if v) == 4


def test_c_mcts_by_time_and_in_teams_of_six_armies():
    game = _midgame(4, board="standard", players=6, variant="allied")
    result = MCTSAgent(iterations=None, seconds=0.05, threads=2, seed=3).search(game)
    assert result.action in game.legal_actions() and result.iterations == sum(result.visits)
    assert all(-1.0 <= v <= 1.0 for v in result.values)


def test_ctrl_c_stops_a_c_mcts_search(ctrl_c):
    import _thread
    import threading
    game = _midgame(5)
    agent = MCTSAgent(iterations=10**9, seconds=120, threads=2, seed=1)
    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            agent.search(game)                # (without Ctrl-C it would return in 120 s)
    finally:
        timer.cancel()
    assert MCTSAgent(iterations=50, seed=1).search(game).iterations == 50   # searches again


def test_make_agent_errors():
    for spec, message in [("bogus", "unknown agent"), ("mcts:0", "from 1 to"),
                          ("mcts:x", "bad search budget"), ("random:3", "unknown agent"),
                          ("mcts-py:5@2", "bad search budget"), ("mcts:1e3s", "bad search budget"),
                          ("mcts:0s", "seconds must be"), ("mcts:5@0", "threads must be"),
                          ("mcts:5@65", "threads must be"), (5, "must be a string")]:
        with pytest.raises(victorus.ConfigError, match=message):
            make_agent(spec)
    with pytest.raises(victorus.ConfigError, match="iterations"):
        MCTSAgent(iterations=0)
    with pytest.raises(victorus.ConfigError, match="budget"):
        MCTSAgent(iterations=None)
    with pytest.raises(victorus.ConfigError, match="rollout actions"):
        MCTSAgent(evaluator="rollouts(-1, material)")
    for c in (-1, float("nan"), "1.4"):
        with pytest.raises(victorus.ConfigError, match="UCT exploration"):
            MCTSAgent(c=c)
    with pytest.raises(victorus.ConfigError, match="nothing to search"):
        over = victorus.Game("compact", players=2)
        victorus.play_random(over, 1, None)
        MCTSAgent(iterations=5).search(over)
    assert isinstance(make_agent("random"), RandomAgent)
    agent = make_agent("mcts:0.25s@2", seed=1)
    assert (agent.name, agent.iterations, agent.seconds, agent.threads) == (
        "mcts:0.25s@2", None, 0.25, 2)
    assert isinstance(make_agent("mcts-py:30"), PythonMCTSAgent)


def test_render_commands(tmp_path, capsys):
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
