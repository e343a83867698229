"""The learned evaluation (victorus.evaluation._network, victorus.evaluation.network): the C
evaluator against its numpy twin (victorus.evaluation.twin) and against the heuristic it
starts from, its inputs against the observation planes, the network file and its refusals,
and the searches that use it. R33 (team values), R22-R24 (the turn's inputs), R28-R29
(progress)."""

from __future__ import annotations

import os
import random
import stat
import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import victorus
from victorus.constants import PIECE_LETTERS, PLANES
from victorus.errors import ConfigError
from victorus.evaluation import _network, rollouts
from victorus.evaluation.heuristic import evaluate, terms
from victorus.evaluation.network import FORMAT_VERSION, MAGIC, Network, NetworkFileError
from victorus.evaluation.registry import network as network_evaluator
from victorus.evaluation.twin import BOARDS, block_starts, inputs, team_matrix
from victorus.search.alphabeta import AlphaBetaAgent
from victorus.search.puct import PUCTAgent

CONFIGS = [("compact", 2, "standard"), ("compact", 3, "standard"), ("compact", 4, "quick"),
           ("standard", 2, "standard"), ("standard", 6, "allied"), ("standard", 6, "quick"),
           ("compact", 6, "standard"), ("standard", 5, "standard")]
TYPES = _network.SIZES["types"]


def positions(board, players, variant, seed, count=60):
    """Positions of a random game, mid-turn ones included (R22)."""
    game = victorus.Game(board, players=players, variant=variant)
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        if game.is_over:
            break
        out.append(game.copy())
        game.play(rng.choice(game.legal_actions()))
    out.append(game.copy())
    return out


def noisy(network: Network, scale: float, seed: int = 1) -> Network:
    """The network with every weight moved at random (a trained network's stand-in)."""
    rng = np.random.default_rng(seed)
    return Network({k: v + rng.normal(0, scale, v.shape) for k, v in network.arrays.items()},
                   network.trained)


@pytest.fixture(scope="module")
def fresh():
    return Network.fresh(hidden=16, hidden2=8, seed=3)


@pytest.fixture(scope="module")
def trained(fresh):
    return noisy(fresh, 0.3)


@pytest.mark.parametrize("board,players,variant", CONFIGS)
def test_a_fresh_network_is_the_heuristic_evaluation(fresh, board, players, variant):
    """Network.fresh evaluates every position as the heuristic evaluation (its default
    weights; danger and mobility are 0 there), finished games included (R33)."""
    for seed in range(2):
        for game in positions(board, players, variant, seed):
            assert fresh.evaluate(game) == pytest.approx(evaluate(game), abs=1e-6)


@pytest.mark.parametrize("board,players,variant", CONFIGS)
def test_the_c_evaluator_is_its_numpy_twin(trained, board, players, variant):
    """The C forward pass equals the numpy one (the one training differentiates) on a
    network with every weight non-zero."""
    for game in positions(board, players, variant, 5):
        assert trained.evaluate(game) == pytest.approx(trained.reference_evaluate(game), abs=2e-5)


def test_values_are_per_team_and_centred(trained):
    """R33: team mates share one value; with two teams they are opposite; absent seats 0."""
    for board, players, variant in CONFIGS:
        game = positions(board, players, variant, 7, 30)[-1]
        if game.is_over:
            continue
        value = trained.evaluate(game)
        teams = game.config.teams
        present = game.config.present
        for a in range(6):
            if a not in present:
                assert value[a] == 0
            for b in present:
                if a in present and teams[a] == teams[b]:
                    assert value[a] == pytest.approx(value[b], abs=1e-6)
        if len({teams[a] for a in present}) == 2:
            first = present[0]
            other = next(a for a in present if teams[a] != teams[first])
            assert value[first] == pytest.approx(-value[other], abs=1e-6)
        assert all(abs(v) < 1 for v in value)


def test_team_matrix_averages_mates():
    teams = [0, 1, 0, 1, -1, 2]
    m = team_matrix(teams)
    raw = np.array([1.0, 2.0, 3.0, 5.0, 100.0, 9.0])
    scores = {0: 2.0, 1: 3.5, 2: 9.0}
    expect = [scores[t] if t >= 0 else 0 for t in teams]
    assert m @ raw == pytest.approx(expect)
    assert np.diag(m) == pytest.approx([0.5, 0.5, 0.5, 0.5, 0, 1])


def observed_rows(game):
    """The sparse rows read off the observation planes of the army to act (an independent
    path): pieces by kind, royal knights, frozen pieces and the moving piece."""
    seat = game.to_move
    obs = game.observation(seat)
    n = obs.shape[1]
    owner = {}
    rows = []
    for rel in range(6):
        for kind, letter in enumerate(PIECE_LETTERS):
            for col in np.flatnonzero(obs[PLANES.index(f"army{rel}_{letter}")]):
                owner[col] = rel
                rows.append((rel * TYPES + kind) * n + col)
    for name, kind in (("royal", TYPES - 3), ("moving", TYPES - 2), ("frozen", TYPES - 1)):
        for col in np.flatnonzero(obs[PLANES.index(name)]):
            if col in owner:
                rows.append((owner[col] * TYPES + kind) * n + col)
    return sorted(rows)


@pytest.mark.parametrize("board,players,variant", CONFIGS)
def test_inputs_match_the_observation_and_the_heuristic_terms(board, players, variant):
    """The sparse rows are the observation's pieces, royal knights (R35), moving (R22) and
    frozen (R24) pieces; the skip terms are the heuristic evaluation's terms of each
    seat's team (R37 material, R28/R29 progress, captures)."""
    for game in positions(board, players, variant, 11):
        if game.is_over:
            continue
        _, rows, dense, skip, teams = inputs(game)
        assert sorted(rows.tolist()) == observed_rows(game)
        seen = terms(game)
        seat = game.to_move
        for i in range(6):
            a = (seat + i) % 6
            if a not in game.config.present:
                assert teams[i] == -1 and not skip[:, i].any()
                continue
            team = game.config.teams[a]
            assert teams[i] == team
            assert skip[0, i] == pytest.approx(seen["material"][team], abs=1e-5)
            assert skip[1, i] == pytest.approx(seen["progress"][team], abs=1e-5)
            assert skip[2, i] == pytest.approx(seen["captures"][team], abs=1e-5)


def test_laps_count_in_the_race_inputs(fresh):
    """R29: a King or Queen with laps is further in the race (its winding is base + 360
    laps): the progress inputs and the value see it as the heuristic does."""
    start = victorus.Game("compact", players=2)
    vpn = start.vpn().replace(" a,0,,0,0/a,0,,0,0/", " a,0,,1,0/a,0,,0,1/", 1)
    assert vpn != start.vpn()
    game = victorus.Game.from_vpn(vpn)
    _, _, dense, skip, _ = inputs(game)
    _, _, dense0, skip0, _ = inputs(start)
    assert skip[1, 0] == pytest.approx(terms(game)["progress"][0]) and skip[1, 0] > skip0[1, 0]
    assert dense[5] > dense0[5] and dense[8 + 6] > dense0[8 + 6]     # its King, the other's Queen
    assert fresh.evaluate(game) == pytest.approx(evaluate(game), abs=1e-6)


@settings(max_examples=40, deadline=None)
@given(board=st.sampled_from(BOARDS), players=st.sampled_from([2, 3, 6]),
       moves=st.lists(st.tuples(st.integers(0, 10**6), st.booleans()), max_size=40))
def test_play_and_undo_leave_no_trace_in_the_evaluation(board, players, moves):
    """After any sequence of play and undo, the network's inputs and value are those of
    the same position reached afresh by its actions alone (no undo): the evaluation is
    recomputed from the position, nothing is carried from move to move that could drift."""
    network = noisy(Network.fresh(hidden=8, hidden2=4, seed=0), 0.2, seed=2)
    game = victorus.Game(board, players=players)
    for pick, undo in moves:
        if undo and game.ply:
            game.undo()
        elif not game.is_over:
            legal = game.legal_actions()
            game.play(legal[pick % len(legal)])
    again = victorus.Game(board, players=players)
    for action in game.history():
        again.play(action)
    assert network.evaluate(game) == network.evaluate(again)
    if not game.is_over:
        first, second = inputs(game), inputs(again)
        for x, y in zip(first[1:], second[1:]):
            assert np.array_equal(x, y)


# -- the file -------------------------------------------------------------------------------

def test_a_network_file_round_trips(tmp_path, trained):
    path = tmp_path / "net.vnet"
    trained.save(path)
    loaded = Network.load(path)
    for name, array in trained.arrays.items():
        assert np.array_equal(loaded.arrays[name], array)
    assert loaded.trained == trained.trained and loaded.name == "net.vnet"
    game = positions("compact", 2, "standard", 3, 20)[-1]
    assert loaded.evaluate(game) == trained.evaluate(game)


def test_saving_replaces_a_file_at_once_and_keeps_its_mode(tmp_path, trained, fresh):
    path = tmp_path / "net.vnet"
    fresh.save(path)
    os.chmod(path, 0o640)
    trained.save(path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert Network.load(path).arrays["w1"].tobytes() == trained.arrays["w1"].tobytes()
    assert [p.name for p in tmp_path.iterdir()] == ["net.vnet"]


def rewrite(data: bytes, header_edit=None, version=None) -> bytes:
    """The file's bytes with its header or version changed and the checksum made good."""
    import hashlib
    import json
    fixed = len(MAGIC) + 8
    got_version, size = struct.unpack_from("<II", data, len(MAGIC))
    header = json.loads(data[fixed:fixed + size])
    if header_edit:
        header_edit(header)
    text = json.dumps(header).encode()
    body = (MAGIC + struct.pack("<II", got_version if version is None else version, len(text))
            + text + data[fixed + size:-32])
    return body + hashlib.sha256(body).digest()


def refusal(tmp_path, data: bytes) -> str:
    path = tmp_path / "bad.vnet"
    path.write_bytes(data)
    with pytest.raises(NetworkFileError) as info:
        Network.load(path)
    message = str(info.value)
    assert message.startswith(f"{path}: ") and "\n" not in message
    return message


def test_network_files_are_refused_in_one_line_naming_what_does_not_match(tmp_path, fresh):
    good = fresh.to_bytes()
    assert "not a victorus network file" in refusal(tmp_path, b"PK\x03\x04" + good[4:])
    assert "version 9; this victorus reads version 1" in refusal(tmp_path, rewrite(good, version=9))
    flipped = bytearray(good)
    flipped[len(good) // 2] ^= 1
    assert "checksum mismatch" in refusal(tmp_path, bytes(flipped))
    assert "checksum mismatch" in refusal(tmp_path, good[:-100])
    assert "truncated" in refusal(tmp_path, good[:len(MAGIC) + 10])

    def layout(h):
        h["layout"] = "something-else/7"
    assert "feature layout 'something-else/7'" in refusal(tmp_path, rewrite(good, layout))

    def cells(h):
        h["board_cells"]["compact"] = 91
    assert "made for boards of" in refusal(tmp_path, rewrite(good, cells))

    def hidden(h):
        h["hidden"] = [16, 9]
    assert "are not those of hidden sizes [16, 9]" in refusal(tmp_path, rewrite(good, hidden))

    def trained(h):
        h["trained"] = {"boards": ["hexagon"], "players": [2]}
    assert "'trained' must name boards" in refusal(tmp_path, rewrite(good, trained))
    assert "its header is not a network header" in refusal(
        tmp_path, rewrite(good, lambda h: h.pop("arrays")))
    for edit in (lambda h: h.update(info="abc"), lambda h: h.update(info=5)):
        assert "its header is not a network header" in refusal(tmp_path, rewrite(good, edit))
    assert "'trained' must name boards" in refusal(
        tmp_path, rewrite(good, lambda h: h.update(trained={"boards": [["compact"]],
                                                           "players": [2]})))
    assert "hidden sizes [True, True]: two integers" in refusal(
        tmp_path, rewrite(good, lambda h: h.update(hidden=[True, True])))
    extra = rewrite(good)[:-32] + b"\0\0\0\0"
    import hashlib
    assert "4 bytes after the arrays" in refusal(tmp_path, extra + hashlib.sha256(extra).digest())
    nan = bytearray(good[:-32])
    start = len(nan) - 4 * len(fresh.arrays["skip"])
    nan[start:start + 4] = struct.pack("<f", float("nan"))
    assert "not finite" in refusal(tmp_path, bytes(nan) + hashlib.sha256(bytes(nan)).digest())
    with pytest.raises(NetworkFileError, match="no such network file"):
        Network.load(tmp_path / "missing.vnet")
    with pytest.raises(NetworkFileError, match="is a folder"):
        Network.load(tmp_path)


def test_a_network_refuses_configurations_it_was_not_trained_for(fresh):
    narrow = Network(fresh.arrays, {"boards": ["compact"], "players": [2]})
    narrow.evaluate(victorus.Game("compact", players=2))
    with pytest.raises(ConfigError, match="trained for boards"):
        narrow.evaluate(victorus.Game("standard", players=2))
    with pytest.raises(ConfigError, match="trained for boards"):
        AlphaBetaAgent(100, evaluator=network_evaluator(narrow)).choose(victorus.Game("compact", players=3))


def test_a_network_pickles_as_its_bytes_and_copies_as_itself(trained):
    import copy
    import pickle
    again = pickle.loads(pickle.dumps(trained))
    assert again.to_bytes() == trained.to_bytes()
    assert copy.deepcopy(trained) is trained and copy.copy(trained) is trained
    agent = copy.deepcopy(AlphaBetaAgent(100, evaluator=network_evaluator(trained)))
    assert agent.evaluator.network is trained


def test_the_weights_cannot_be_written_while_searches_read_them(trained):
    for array in list(trained.arrays.values()) + list(trained.core.arrays.values()):
        with pytest.raises(ValueError):
            array.setflags(write=True)
    with pytest.raises(TypeError):
        trained.core.arrays["w1"] = None


def test_a_batch_with_positions_without_rows_sums_nothing(trained):
    """The numpy twin's first layer when a position has no sparse row (the last one)."""
    from victorus.evaluation.twin import Batch, forward
    game = victorus.Game("compact", players=2)
    board, rows, dense, terms_, teams = inputs(game)
    empty = (board, rows[:0], dense, terms_, teams)
    values = forward(trained.arrays, Batch.of([(board, rows, dense, terms_, teams), empty]))
    alone = forward(trained.arrays, Batch.of([empty]))
    assert values[1] == pytest.approx(alone[0])


def test_block_starts_follow_the_boards():
    starts = block_starts()
    assert starts["compact"] == 0
    assert starts["standard"] == _network.block_size(len(victorus.Game("compact").board.coords))


# -- the searches ---------------------------------------------------------------------------

@pytest.mark.parametrize("board,players", [("compact", 2), ("standard", 3)])
def test_alphabeta_on_a_fresh_network_searches_as_on_the_heuristic(fresh, board, players):
    """The same leaves' values give the same search: action, value and nodes (the
    network is called at every leaf instead of the heuristic)."""
    for game in positions(board, players, "standard", 4, 40)[5::12]:
        if game.is_over:
            continue
        heuristic = AlphaBetaAgent(3000, seed=9).search(game)
        learned = AlphaBetaAgent(3000, seed=9, evaluator=network_evaluator(fresh)).search(game)
        assert learned.action == heuristic.action
        assert learned.nodes == heuristic.nodes
        assert learned.value == pytest.approx(heuristic.value, abs=1e-5)


def test_puct_with_a_network_scores_its_rollouts_with_it(fresh, trained):
    """PUCT's rollouts end in the network's value: a fresh network searches as the
    heuristic does; another network changes the root's values."""
    game = positions("compact", 2, "standard", 6, 20)[-1]
    settings = dict(c_puct=0.35, seed=5)
    base = PUCTAgent(300, evaluator="rollouts(4, heuristic)", **settings).search(game)
    same = PUCTAgent(300, evaluator=rollouts(4, network_evaluator(fresh)), **settings).search(game)
    other = PUCTAgent(300, evaluator=rollouts(4, network_evaluator(trained)), **settings).search(game)
    assert same.visits == base.visits
    assert same.seat_values == pytest.approx(base.seat_values, abs=1e-4)
    assert other.seat_values != pytest.approx(base.seat_values, abs=1e-4)


def test_network_agents_play_inside_the_vector_step(trained):
    """The learned evaluation in C inside VectorGames' step (no GIL, worker threads)."""
    from victorus.vector import VectorGames
    for agent in (AlphaBetaAgent(200, evaluator=network_evaluator(trained)),
                  PUCTAgent(30, evaluator=rollouts(10, network_evaluator(trained)))):
        games = VectorGames(2, board="compact", players=2, seed=1, opponents={"team:1": agent})
        for _ in range(5):
            games.step(games.sample())
        assert set(games.to_move.tolist()) <= {0, 2, 4}
    narrow = Network(trained.arrays, {"boards": ["compact"], "players": [2]})
    with pytest.raises(ConfigError, match="trained for boards"):
        VectorGames(1, board="standard", players=2,
                    opponents={"team:1": AlphaBetaAgent(100, evaluator=network_evaluator(narrow))})



def test_a_spec_in_the_vector_step_is_checked_against_the_shipped_network(monkeypatch, trained):
    """``opponents={seat: "alphabeta-net:50"}`` refuses a game the shipped network was not
    trained for, as an agent object does."""
    from victorus.evaluation import network as network_module
    from victorus.vector import VectorGames
    narrow = Network(trained.arrays, {"boards": ["compact"], "players": [2]})
    monkeypatch.setattr(network_module, "default_network", lambda: narrow)
    VectorGames(1, board="compact", players=2, opponents={"team:1": "alphabeta-net:50"})
    with pytest.raises(ConfigError, match="trained for boards"):
        VectorGames(1, board="standard", players=3, opponents={1: "alphabeta-net:50"})


def test_network_arguments_are_checked():
    with pytest.raises(ConfigError, match="network must be"):
        network_evaluator(42)
    with pytest.raises(NetworkFileError, match="no such network file"):
        AlphaBetaAgent(100, evaluator="network(/nonexistent/net.vnet)")
    with pytest.raises(ConfigError):
        Network.fresh(hidden=0)
    with pytest.raises(NetworkFileError, match="has shape"):
        Network({**Network.fresh(4, 4).arrays, "b3": np.zeros(5)}, {"boards": ["compact"],
                                                                    "players": [2]})
    assert FORMAT_VERSION == 1


JSON = st.recursive(st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.floats()
                    | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(key=st.sampled_from(["layout", "hidden", "board_cells", "arrays", "trained", "info",
                            "extra"]), value=JSON, cut=st.integers(0, 400))
def test_any_header_or_cut_is_a_network_or_a_network_file_error(key, value, cut):
    """Crafted headers (their checksum made good) and cut files load or are refused with
    NetworkFileError, nothing else."""
    good = SMALL.to_bytes()

    def edit(header):
        header[key] = value
    for data in (rewrite(good, edit), good[:cut], rewrite(good, edit)[:-cut or None]):
        try:
            Network.from_bytes(data, "f.vnet")
        except NetworkFileError as error:
            assert str(error).startswith("f.vnet: ") and "\n" not in str(error)


SMALL = Network.fresh(hidden=2, hidden2=2, seed=0)


# -- the policy head -------------------------------------------------------------------------

def capture_priors(game):
    """The hand-written priors, normalised: 1 + the R37 points of the piece a leg lands on."""
    cells = game._view()[0]
    raw = [1 + (cells[a.target].points if a.word is None and cells[a.target] is not None else 0)
           for a in game.legal_actions()]
    return [p / sum(raw) for p in raw]


@pytest.mark.parametrize("board,players,variant", CONFIGS)
def test_a_fresh_policy_head_gives_the_capture_priors(board, players, variant):
    """A new head (zero, policy_capture 1) is the hand-written capture priors, so training
    starts from the search's priors of today."""
    network = Network.fresh(8, 4, seed=1, policy=True)
    for game in positions(board, players, variant, seed=5, count=40)[::3]:
        if not game.is_over:
            assert network.priors(game) == pytest.approx(capture_priors(game), abs=1e-9)


def without_pair(network: Network) -> Network:
    """The network's policy head without its pair term (as files of an earlier victorus)."""
    return Network({k: v for k, v in network.arrays.items() if k != "policy_pair"}, network.trained)


@pytest.mark.parametrize("board,players,variant", CONFIGS)
def test_the_c_priors_are_the_numpy_twins(board, players, variant):
    """network_priors in C against policy_forward in numpy, on a head drawn at random (its
    pair term too, and without it), on positions mid-turn and not (R22), at every
    configuration."""
    network = noisy(Network.fresh(16, 8, seed=2, policy=True), 0.4, seed=7)
    plain = without_pair(network)
    assert network.pair and np.abs(network.arrays["policy_pair"]).min() > 0 and not plain.pair
    changed = 0
    for game in positions(board, players, variant, seed=9, count=50)[::2]:
        fast, slow = network.priors(game), network.reference_priors(game)
        assert len(fast) == len(game.legal_actions()) if not game.is_over else fast == ()
        assert fast == pytest.approx(slow, abs=1e-6)
        if len(fast) > 1:
            assert sum(fast) == pytest.approx(1) and max(fast) < 0.999
        assert plain.priors(game) == pytest.approx(plain.reference_priors(game), abs=1e-6)
        changed += plain.priors(game) != pytest.approx(fast, abs=1e-3)
    assert changed                                   # the pair term moves the priors


def test_a_batch_knows_the_kind_of_each_legs_piece():
    """Batch.kind, read from a position's sparse rows, is the engine's kind of the piece on
    each leg's origin (-1 for a word), in every position of games on both boards; the pair
    term's gradient lands on (target row, that kind)."""
    from victorus.evaluation.twin import Batch, moves
    from victorus.pieces import Piece
    seen = set()
    for board, players, variant in (("compact", 3, "standard"), ("standard", 6, "allied")):
        games = positions(board, players, variant, seed=11, count=80)[::4]
        games = [game for game in games if not game.is_over]
        batch = Batch.of([inputs(game) for game in games], [moves(game) for game in games])
        kinds = [-1 if a.word is not None else Piece(*game._engine.piece(a.origin)).kind
                 for game in games for a in game.legal_actions()]
        assert batch.kind.tolist() == kinds
        assert batch.take(np.array([len(games) - 1])).kind.tolist() == kinds[-len(games[-1].legal_actions()):]
        seen.update(kinds)
    assert seen == set(range(-1, len(PIECE_LETTERS)))    # words and every kind of piece


def test_a_head_without_the_pair_term_reads_and_plays_as_before(tmp_path):
    """A file of a head without the pair term (the shipped networks) reads without it, plays
    as with the term at zero, and writes back to its own bytes (its content name kept);
    with_policy adds the term at zero, which changes the content name but no prior."""
    from victorus.evaluation.network import shipped_network
    shipped = shipped_network("gated-2615ecd2ea22")
    assert shipped.policy and not shipped.pair and "policy_pair" not in shipped.arrays
    assert shipped.to_bytes() == Network.load(shipped.path).to_bytes()
    assert Network.from_bytes(shipped.to_bytes()).content == shipped.content == "2615ecd2ea22"
    paired = shipped.with_policy()
    assert paired.pair and not paired.arrays["policy_pair"].any() and paired.content != shipped.content
    assert paired.with_policy() is paired and repr(paired).endswith(", policy and pair)")
    for game in positions("standard", 3, "standard", seed=3, count=30)[::5]:
        assert paired.priors(game) == shipped.priors(game)
        assert paired.evaluate(game) == shipped.evaluate(game)
    plain = without_pair(noisy(paired, 0.2))
    plain.save(tmp_path / "plain.vnet")
    data = (tmp_path / "plain.vnet").read_bytes()
    assert b"policy_pair" not in data and _network.POLICY_LAYOUT.encode() in data
    assert Network.load(tmp_path / "plain.vnet").content == plain.content


def test_the_pair_term_travels_in_its_file(tmp_path):
    network = noisy(Network.fresh(8, 4, seed=1, policy=True), 0.3)
    network.save(tmp_path / "pair.vnet")
    loaded = Network.load(tmp_path / "pair.vnet")
    assert loaded.pair and loaded.content == network.content
    assert loaded.arrays["policy_pair"].tobytes() == network.arrays["policy_pair"].tobytes()
    assert loaded.arrays["policy_pair"].shape == (len(loaded.arrays["policy_to"]), len(PIECE_LETTERS))
    assert _network.POLICY_PAIR_LAYOUT.encode() in (tmp_path / "pair.vnet").read_bytes()
    game = positions("compact", 2, "standard", seed=2, count=15)[-1]
    assert loaded.priors(game) == network.priors(game)


def test_a_policy_head_travels_in_its_file_and_keeps_the_value(tmp_path, trained):
    with_head = noisy(trained.with_policy(), 0.2, seed=3)
    assert with_head.policy and not trained.policy and trained.with_policy().with_policy().policy
    game = positions("standard", 4, "standard", seed=1, count=20)[-1]
    assert trained.with_policy().evaluate(game) == trained.evaluate(game)
    with_head.save(tmp_path / "net.vnet")
    loaded = Network.load(tmp_path / "net.vnet")
    assert loaded.policy and loaded.priors(game) == with_head.priors(game)
    assert repr(loaded).endswith(", policy and pair)")
    with pytest.raises(ConfigError, match="has no policy head"):
        trained.priors(game)
    data = (tmp_path / "net.vnet").read_bytes()
    header = data[len(MAGIC) + 8:len(MAGIC) + 8 + struct.unpack_from("<I", data, len(MAGIC) + 4)[0]]
    assert b'"policy": "' + _network.POLICY_PAIR_LAYOUT.encode() + b'"' in header
    missing = dict(with_head.arrays)
    del missing["policy_word"]
    with pytest.raises(NetworkFileError, match="policy_word.* is missing"):
        Network(missing, with_head.trained)


@pytest.mark.parametrize("pair", [False, True])
def test_another_policy_layout_is_refused(tmp_path, trained, pair):
    """A policy layout this victorus does not read, or the other of its two (with and
    without the pair term) over a file's arrays, is refused."""
    import hashlib
    network = trained.with_policy() if pair else without_pair(trained.with_policy())
    layout = _network.POLICY_PAIR_LAYOUT if pair else _network.POLICY_LAYOUT
    other = _network.POLICY_LAYOUT if pair else _network.POLICY_PAIR_LAYOUT
    data = network.to_bytes()
    size = struct.unpack_from("<I", data, len(MAGIC) + 4)[0]
    header = data[len(MAGIC) + 8:len(MAGIC) + 8 + size].decode()
    for replaced, match in (("from-to/9", "policy layout"), (other, "are not those of hidden sizes")):
        changed = header.replace(f'"{layout}"', f'"{replaced}"').encode()
        body = (data[:len(MAGIC)] + struct.pack("<II", FORMAT_VERSION, len(changed)) + changed
                + data[len(MAGIC) + 8 + size:-32])
        with pytest.raises(NetworkFileError, match=match):
            Network.from_bytes(body + hashlib.sha256(body).digest(), "x.vnet")


def test_puct_searches_with_the_policy_head_as_its_priors(trained):
    """network(...) with a head gives PUCT its priors (through rollouts too); its value is
    the network's, the same with or without the head's priors asked first."""
    from victorus.evaluation.registry import network as network_evaluator
    from victorus.evaluation.registry import rollouts
    head = noisy(trained.with_policy(), 0.5, seed=4)
    game = positions("compact", 3, "standard", seed=2, count=12)[-1]
    for evaluator in (network_evaluator(head), rollouts(3, network_evaluator(head))):
        result = PUCTAgent(64, seed=1, evaluator=evaluator).search(game)
        assert result.priors == pytest.approx(head.priors(game), abs=1e-9)
    for leaves in (network_evaluator, lambda net: rollouts(3, network_evaluator(net))):
        # a new head's priors are the capture priors: the same search, to the visit, with
        # the values the head's evaluation keeps for the leaf (never for another position)
        searched = [PUCTAgent(300, seed=3, evaluator=leaves(net), c_puct=1.0).search(game)
                    for net in (trained, trained.with_policy())]
        assert searched[0].visits == searched[1].visits
        assert searched[0].seat_values == pytest.approx(searched[1].seat_values, abs=1e-6)


def test_a_shipped_network_is_named_by_its_content():
    from victorus.evaluation.network import network_from, shipped_network
    old = shipped_network("default-35c93a166b61")
    assert network_from("default-35c93a166b61") is old and not old.policy
    assert shipped_network("gated-2615ecd2ea22").policy
    with pytest.raises(NetworkFileError, match="no such network is shipped"):
        network_from("default-000000000000")
    with pytest.raises(ConfigError, match="a shipped network's name is"):
        shipped_network("../networks/gated-2615ecd2ea22")


def test_a_missing_array_is_named_with_the_arrays_needed(trained):
    arrays = {k: v for k, v in trained.arrays.items() if k != "w3"}
    with pytest.raises(NetworkFileError, match=r"a network needs the arrays .*'w3' is missing"):
        Network(arrays, trained.trained)


def test_alpha_beta_orders_by_the_policy_head_and_keeps_its_value(trained):
    """With a policy head, alpha-beta tries actions in the order of its priors: the value
    of a full-depth search stays the minimax value (ordering changes only the nodes
    searched), while the nodes do change."""
    from victorus.evaluation.registry import network as network_evaluator
    head = noisy(trained.with_policy(), 0.8, seed=5)
    plain = Network({k: v for k, v in head.arrays.items() if not k.startswith("policy")},
                    head.trained)
    changed = 0
    for game in positions("compact", 2, "standard", seed=4, count=30)[5::6]:
        if game.is_over:
            continue
        ordered, unordered = (AlphaBetaAgent(10**6, seed=1, depth=3,
                                             evaluator=network_evaluator(net)).search(game)
                              for net in (head, plain))
        assert ordered.depth == unordered.depth == 3
        assert ordered.value == pytest.approx(unordered.value, abs=1e-6)
        changed += ordered.nodes != unordered.nodes
    assert changed
