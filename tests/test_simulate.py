"""Bulk simulation (victorus.simulate, victorus simulate) and the bench command's output."""

import array
import json

import pytest

import victorus
from victorus.bench import format_table, run
from victorus.cli import main, summarise
from victorus.simulate import game_seed


def test_simulate_is_reproducible_for_any_worker_count():
    one = victorus.simulate(24, seed=5, workers=1)
    two = victorus.simulate(24, seed=5, workers=2)
    many = victorus.simulate(24, seed=5, workers=7)
    assert one == two == many
    assert [g.index for g in one] == list(range(24))
    assert victorus.simulate(24, seed=6, workers=2) != one


def test_simulated_games_replay_through_the_api():
    """Each simulated game is the engine's own random playout from its seed."""
    for record in victorus.simulate(6, seed=9, board="compact", players=3, workers=2):
        game = victorus.Game("compact", players=3)
        n = game._engine.random_playout(game_seed(9, record.index), -1, True)
        assert n == record.actions
        assert (game.winners, game.result_reason) == (record.winners, record.reason)
        assert game.round == record.rounds
        # Every capture is a held piece, or came back through a rescue (R31).
        assert sum(record.captures) >= sum(len(game.held(s)) for s in range(6))


def test_simulate_records():
    games = victorus.simulate(10, seed=2, variant="quick12", players=2, workers=2)
    for g in games:
        assert g.reason in ("centre", "elimination", "round-limit", "draw")
        assert g.rounds <= 13 and len(g.captures) == 7
        assert g.as_dict()["captures"].keys() == set("TUBXHKQ")
        json.dumps(g.as_dict())


def test_action_cap_leaves_games_unfinished_r36():
    games = victorus.simulate(5, seed=1, max_actions=30, workers=2)
    assert all(g.actions == 30 and g.winners is None and g.reason is None for g in games)


@pytest.mark.parametrize("kwargs, message", [
    ({"games": -1}, "games must be an integer from 0 to 10000000"),
    ({"games": 10**9}, "games must be an integer from 0 to 10000000"),
    ({"games": 2, "workers": 0}, "workers must be an integer from 1 to 256"),
    ({"games": 2, "seed": -3}, "seed must be an integer >= 0"),
    ({"games": 2, "max_actions": 0}, "max_actions must be an integer from 1 to"),
    ({"games": 2, "max_actions": 2**63}, "max_actions must be an integer from 1 to"),
    ({"games": 2, "board": "hex"}, "unknown board"),
    ({"games": 2, "players": 1}, "players must be"),
])
def test_simulate_argument_errors(kwargs, message):
    with pytest.raises(victorus.ConfigError, match=message):
        victorus.simulate(**kwargs)


def test_simulate_command(capsys, tmp_path):
    out_file = tmp_path / "games.json"
    assert main(["simulate", "8", "--board", "compact", "--seed", "4", "--workers", "2",
                 "--json", str(out_file)]) == 0
    text = capsys.readouterr().out
    assert "games: 8" in text and "wins per seat" in text and "games/s" in text
    data = json.loads(out_file.read_text())
    assert [g["index"] for g in data] == list(range(8))
    games = victorus.simulate(8, seed=4, board="compact")
    assert data == [g.as_dict() for g in games]
    # 64-bit seeds as digits, exact for JSON readers whose numbers are doubles
    assert [g["seed"] for g in data] == [str(g.seed) for g in games]
    assert any(g.seed > 2**53 for g in games)


def test_simulate_command_errors(capsys):
    for argv in (["simulate", "0"], ["simulate", "1000000000"],
                 ["simulate", "2", "--max-actions", "9223372036854775808"],
                 ["simulate", "2", "--max-actions", "9" * 5000]):
        with pytest.raises(SystemExit):                 # a usage error, not a traceback
            main(argv)
        err = capsys.readouterr().err
        assert "must be an integer from 1 to" in err and "Traceback" not in err
    assert main(["simulate", "2", "--json", "/nonexistent/dir/x.json"]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_summary_counts():
    games = victorus.simulate(12, seed=3, workers=2)
    text = summarise(games)
    assert "games: 12, finished: 12" in text
    wins = sum(int(part.split()[-1]) for part in text.splitlines()[2].split(": ")[1].split(", "))
    assert wins == sum(len(g.winners) for g in games)


def test_mobility_matches_single_legs():
    from victorus.bench import leg_corpus
    for core, _, movers in leg_corpus("standard", 5):
        flat = array.array("i", [x for m in movers for x in m])
        counts = core.mobility(flat)
        assert list(counts) == [sum(map(len, core.leg(*m))) for m in movers]
    with pytest.raises(ValueError, match="quadruples"):
        core.mobility(array.array("i", [1, 2, 3]))
    with pytest.raises(ValueError, match="cell index"):
        core.mobility(array.array("i", [999, 0, 1, 3]))


def test_bench_quick_table():
    rows = run(quick=True, progress=False)
    table = format_table(rows)
    assert table.splitlines()[0].split()[:2] == ["case", "unit"]
    assert len(table.splitlines()) == len(rows) + 2
    # "its own cost" and PUCT's "boundary" rows are differences of two timings (only their
    # sign can be noise); "runs" rows count runs that lost, and may be 0.
    assert all(row.fast > 0 for row in rows if "its own cost" not in row.case
               and "boundary" not in row.case and row.unit != "runs")
    assert {row.unit for row in rows} >= {"leaves/s", "legs/s", "actions/s", "games/s", "us",
                                          "bytes", "steps/s"}
    cases = " / ".join(row.case for row in rows)
    for path in ("observation(seat)", "legal_action_mask()", "legal_action_ids()", "play_id()",
                 "copy() after 1,000 actions", "Game()", "PettingZoo", "vector, 64 games",
                 "2 threads", "C playout", "undo history per action"):
        assert path in cases


@pytest.mark.ray
def test_ray_backend_matches_local():
    ray_results = victorus.simulate(30, seed=8, board="compact", players=2, backend="ray",
                                    workers=2)
    assert ray_results == victorus.simulate(30, seed=8, board="compact", players=2, workers=1)


def test_backend_arguments():
    with pytest.raises(victorus.ConfigError, match="backend must be one of local, ray"):
        victorus.simulate(2, backend="spark")
    with pytest.raises(victorus.ConfigError, match="address is only for backend='ray'"):
        victorus.simulate(2, address="127.0.0.1:6379")


def test_summary_wins_per_team():
    games = victorus.simulate(6, seed=1, board="compact", players=2, workers=2)
    text = summarise(games)
    line = next(x for x in text.splitlines() if x.startswith("wins per team"))
    assert "red+black+purple" in line or "blue+green+orange" in line
