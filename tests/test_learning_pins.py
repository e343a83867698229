"""One-line mistakes in learning, each pinned by a value worked out here by hand: self-play's
value labels (victorus.training.selfplay: read per army from the deep search and from the
game's result, a game stopped at its cap, the blend, the share of decisions searched deep)
and AdamW's weight decay on the first layer's touched rows (victorus.training.step).

Self-play's searches are replaced by `Scripted` stand-ins (seeded random legal actions,
made-up values that differ per seat), so every label follows from what they gave, the
seat that moved and, through `result_label` alone, the game's result."""

from __future__ import annotations

import random

import numpy as np
import pytest

from victorus.constants import PIECE_LETTERS, points
from victorus.game import Game
from victorus.search.results import SearchResult
from victorus.training import play_game, selfplay
from victorus.training.step import Adam

#: The deep search's and the fast search's root value of each seat (absolute seats):
#: different for every seat, so a label read from the wrong army differs.
DEEP = (0.6, -0.5, 0.4, -0.3, 0.2, -0.1)
FAST = (-0.05, 0.15, -0.25, 0.35, -0.45, 0.55)


def result_label(game: Game) -> list[float]:
    """Per seat (absolute), what a finished game's result is worth in its positions' value
    labels, 2 x the seat's team's share of the win - 1: +1 for the seats of the winning
    team and -1 for the other present seats; a draw shares the win equally among the k
    teams it is drawn between (R37: at the quick game's round limit, the live teams tied at
    the most points held; otherwise the teams with an active army, every present team if
    none is), 2/k - 1 for each of their seats (two teams: 0) and -1 for the other present
    seats; 0 for an absent seat. The one place where these tests say what a result is
    worth."""
    assert game.winners is not None, "the game is not over"
    winners, present, teams = set(game.winners), game.config.present, game.config.teams
    if winners:
        return [(1.0 if seat in winners else -1.0) if seat in present else 0.0 for seat in range(6)]
    states = game.view().states
    live = ({teams[seat] for seat in present if states[seat] == "active"}
            or {teams[seat] for seat in present})
    if game.result_reason == "round-limit":
        held = dict.fromkeys(live, 0)
        for seat in present:
            if teams[seat] in held:
                held[teams[seat]] += sum(points(PIECE_LETTERS.index(code[1]), code.endswith("+"))
                                         for code in game.held(seat))
        live = {t for t in live if held[t] == max(held.values())}
    return [(2 / len(live) - 1 if teams[seat] in live else -1.0) if seat in present else 0.0
            for seat in range(6)]


def from_mover(values, seat: int, game: Game) -> np.ndarray:
    """``values`` per absolute seat counted from ``seat`` (the army to act), as a label is;
    0 for an absent seat."""
    present = set(game.config.present)
    return np.array([values[(seat + i) % 6] if (seat + i) % 6 in present else 0.0
                     for i in range(6)])


class Scripted:
    """A stand-in for one of self-play's searches: a legal action drawn from its own
    seeded random state, ``values`` as the root's value per seat, a uniform visit count.
    It keeps the seat to act at each position it searched, and the game (self-play's own,
    played on in place: finished or stopped once self-play returns)."""

    def __init__(self, seed: int, values: tuple[float, ...]) -> None:
        self.rng = random.Random(seed)
        self.values = values
        self.seats: list[int] = []
        self.game: Game | None = None

    def search(self, game: Game) -> SearchResult:
        legal = game.legal_actions()
        self.game = game
        self.seats.append(game.to_move)
        return SearchResult(self.rng.choice(legal), tuple(legal), (1,) * len(legal),
                            (0.0,) * len(legal), len(legal), len(legal), (), self.values)


def scripted_play(monkeypatch, task, blend, max_actions=100_000, label_share=1.0):
    """play_game with the Scripted searches: (samples, fast, deep, the game)."""
    fast, deep = Scripted(task[3], FAST), Scripted(task[3] + 1, DEEP)
    monkeypatch.setattr(selfplay, "_agents", lambda seed, evaluator, play: (fast, deep))
    samples = play_game(task, None, 4, 0, max_actions, blend, label_share=label_share)
    game = deep.game or fast.game
    assert game is not None
    return samples, fast, deep, game


@pytest.mark.parametrize("task", [("compact", 3, "standard", 1), ("standard", 6, "standard", 2),
                                  ("standard", 4, "standard", 3)])
def test_a_won_games_label_reads_each_armys_result(monkeypatch, task):
    """With blend 0, a kept position's label is the result of each army counted from the
    army to act there: with 3, 4 and 6 teams an army read for another (seat - i for
    seat + i, the same army with two teams) gets another team's result."""
    samples, _, deep, game = scripted_play(monkeypatch, task, blend=0.0)
    assert game.is_over and game.winners, "a won game is needed here"
    final = result_label(game)
    assert len(samples) == len(deep.seats) > 50
    for sample, seat in zip(samples, deep.seats):
        assert sample[5] == pytest.approx(from_mover(final, seat, game), abs=1e-6)


@pytest.mark.parametrize("task", [("compact", 3, "quick12", 16), ("standard", 6, "quick12", 32)])
def test_a_drawn_games_label_is_each_teams_equal_share(monkeypatch, task):
    """With blend 0, a drawn game's positions (equal top scores at a quick game's round
    limit) are labelled with the drawing teams' equal share of the win, 2/k - 1 for the k
    teams tied at the top and -1 for the others (result_label), a value the head can give;
    not 0, which with 3-6 teams is more than a team's fair share."""
    samples, _, deep, game = scripted_play(monkeypatch, task, blend=0.0)
    assert game.is_over and game.winners == () and game.result_reason == "round-limit"
    final = result_label(game)
    shares = {game.config.teams[s]: (final[s] + 1) / 2 for s in game.config.present}
    assert sum(shares.values()) == pytest.approx(1.0) and min(final) < 0
    assert len(samples) == len(deep.seats) > 50
    for sample, seat in zip(samples, deep.seats):
        assert sample[5] == pytest.approx(from_mover(final, seat, game), abs=1e-6)


def test_the_deep_searchs_value_is_read_per_army(monkeypatch):
    """With blend 1, a kept position's label is the deep search's root value of each army,
    counted from the army to act (3 teams: no two armies alike)."""
    samples, _, deep, game = scripted_play(monkeypatch, ("compact", 3, "standard", 4), blend=1.0)
    assert game.is_over and len(samples) == len(deep.seats) > 50
    for sample, seat in zip(samples, deep.seats):
        assert sample[5] == pytest.approx(from_mover(DEEP, seat, game), abs=1e-6)


@pytest.mark.parametrize("blend", [0.0, 0.5])
def test_a_game_stopped_at_its_cap_is_labelled_with_the_search_value_alone(monkeypatch, blend):
    """A game stopped at ``max_actions`` has no result: its positions are labelled with the
    deep search's value alone, whatever the blend. Its returns (0 for every seat of a game
    not over) would be a draw's label, teaching the value head that the positions of long
    games are drawn."""
    samples, _, deep, game = scripted_play(monkeypatch, ("compact", 3, "standard", 5), blend,
                                           max_actions=40)
    assert not game.is_over and game.ply == 40
    assert len(samples) == len(deep.seats) > 10
    for sample, seat in zip(samples, deep.seats):
        assert sample[5] == pytest.approx(from_mover(DEEP, seat, game), abs=1e-6)


@pytest.mark.parametrize("seed", [6, 7])
def test_the_blend_weighs_the_deep_search_by_its_share(monkeypatch, seed):
    """Two teams: a finished game's label is blend x the deep search's value + (1 - blend)
    x the result, per army from the army to act (blend 0.75: three quarters the search's)."""
    samples, _, deep, game = scripted_play(monkeypatch, ("compact", 2, "standard", seed), 0.75)
    assert game.is_over and game.winners and len(samples) == len(deep.seats) > 50
    final = result_label(game)
    for sample, seat in zip(samples, deep.seats):
        expected = 0.75 * from_mover(DEEP, seat, game) + 0.25 * from_mover(final, seat, game)
        assert sample[5] == pytest.approx(expected, abs=1e-6)


def test_a_quarter_of_the_decisions_is_searched_deep_and_kept(monkeypatch):
    """``label_share`` 0.25: about a quarter of the decisions (those with a choice) gets the
    deep search and is kept, the rest the fast search; each kept position labelled with
    the deep search's values, never the fast one's."""
    samples, fast, deep, game = scripted_play(monkeypatch, ("standard", 6, "standard", 8), 1.0,
                                              max_actions=1200, label_share=0.25)
    decisions = len(fast.seats) + len(deep.seats)
    assert decisions > 400 and len(samples) == len(deep.seats)
    assert abs(len(deep.seats) / decisions - 0.25) < 0.08     # binomial: 0.25 +- 0.02 (1 sd)
    for sample, seat in zip(samples, deep.seats):
        assert sample[5] == pytest.approx(from_mover(DEEP, seat, game), abs=1e-6)


def test_adamw_decays_the_touched_rows_of_the_first_layer_by_hand():
    """AdamW's first steps worked by hand (rate 0.1, decay 0.5: a decayed weight is kept at
    0.95): a first step moves each weight by the rate against its gradient's sign (m/sqrt(v)
    = g/|g|); the first layer's touched rows are decayed like every other weight, its
    untouched rows neither decayed nor moved (lazily, with their own step counts); a bias
    is never decayed."""
    arrays = {"w1": np.array([[1.0, -2.0], [0.5, 0.5], [3.0, 1.0]], np.float32),
              "w2": np.array([[1.0, 2.0]], np.float32),
              "b2": np.array([0.5], np.float32)}
    adam = Adam(arrays, rate=0.1, decay=0.5)
    adam.step(arrays, {"w1": (np.array([0, 2]), np.array([[0.2, -0.4], [0.0, 0.1]])),
                       "w2": np.array([[0.3, 0.0]]), "b2": np.array([-0.2])})
    assert arrays["w1"] == pytest.approx(np.array([[0.85, -1.8], [0.5, 0.5], [2.85, 0.85]]),
                                         abs=1e-6)
    assert arrays["w2"] == pytest.approx(np.array([[0.85, 1.9]]), abs=1e-6)
    assert arrays["b2"] == pytest.approx(np.array([0.6]), abs=1e-6)
    # row 0 again: its second step (bias-corrected moments: g again); row 2 left as it was
    adam.step(arrays, {"w1": (np.array([0]), np.array([[0.2, -0.4]]))})
    assert arrays["w1"] == pytest.approx(
        np.array([[0.85 * 0.95 - 0.1, -1.8 * 0.95 + 0.1], [0.5, 0.5], [2.85, 0.85]]), abs=1e-6)
    assert list(adam.row_t) == [2, 0, 1]
