"""The review's engine (victorus.page.analysis) without the server: the analysis's legal
actions and top lines, a review that is the same for the same record on any machine and
load (its seeds from the positions, its search a fixed number of iterations), forced
positions carried and never judged, "learn from your mistakes" (`Review.attempt`), and
lichess's accuracy per army on a case worked by hand."""

import time

import pytest

import victorus
from victorus import record
from victorus.errors import VictorusError
from victorus.game import play_random
from victorus.page import analysis
from victorus.page.analysis import (
    Analysis,
    Review,
    accuracy,
    move_accuracy,
    position_seed,
)
from victorus.page.page_state import placement

ITERATIONS = 100


def _finished(seed=4, board="compact", players=2, most=120):
    game = victorus.Game(board, players=players)
    play_random(game, seed=seed, max_actions=most)
    return game


def _review(game, **settings):
    review = Review(iterations=ITERATIONS, **settings)
    review.start(game, "k")
    review.thread.join(300)
    state = review.state()
    assert state["status"] == "done", state.get("error")
    return review, state


def _key(position):
    """What names a position within one game."""
    return placement(position), position.to_move, position.phase, position.round


def _settled(analysis_):
    deadline = time.monotonic() + 120
    while analysis_.state()["status"] == "running":
        assert time.monotonic() < deadline
        time.sleep(0.01)
    return analysis_.state()


# -- the analysis: legal actions, top lines ---------------------------------------------------
def test_the_analysis_lists_the_legal_actions_at_once_and_its_top_three_lines():
    game = victorus.Game("compact", players=2)
    game.play("g6-g10")
    position = Analysis(seconds=None, seed=1, iterations=60, rounds=1, line=4)
    state = position.start(game, 1)
    assert state["legal"] == [a.text for a in game.legal_actions()]     # before any result
    state = _settled(position)
    assert state["status"] == "done" and state["legal"] == [a.text for a in game.legal_actions()]
    lines = state["lines"]
    assert 1 <= len(lines) <= 3 and lines[0]["action"] == state["best"]
    assert lines[0]["chance"] == state["chance"]
    assert [line["line"][0] for line in lines] == [line["action"] for line in lines]
    assert len({line["action"] for line in lines}) == len(lines)
    assert all(line["visits"] > 0 and 0 <= line["chance"] <= 1 and 1 <= len(line["line"]) <= 4
               for line in lines)
    assert [step["action"] for step in state["line"]] == lines[0]["line"]
    assert [line["visits"] for line in lines[1:]] == sorted((line["visits"] for line in lines[1:]),
                                                            reverse=True)
    for line in lines:                                    # every line is playable
        trial = game.copy()
        for text in line["line"]:
            trial.play(text)


def test_a_finished_position_has_no_legal_action_and_no_line():
    game = victorus.Game("compact", players=2)
    state = Analysis().start(game, 1, winners=[0, 2, 4])
    assert state["legal"] == [] and state["lines"] == [] and state["over"]


# -- the same record, the same review ---------------------------------------------------------
def test_a_record_reviewed_twice_gives_identical_points_and_marks():
    game = _finished()
    _, first = _review(game)
    _, second = _review(victorus.record.loads(victorus.record.dumps(game)))
    for field in ("points", "marks", "counts", "accuracy", "forfeits"):
        assert first[field] == second[field]
    assert first["marks"]


def test_each_position_is_searched_from_a_seed_of_its_own_record_never_of_the_time(monkeypatch):
    game = _finished()
    start = record.starting_game(game)
    history = [a.text for a in game.history()]
    seeds = {position_seed(start, history[:i]): i for i in range(len(history) + 1)}
    assert len(seeds) == len(history) + 1                       # one seed per position
    assert position_seed(start, history[:3]) == position_seed(start.copy(), list(history[:3]))
    assert position_seed(start, history[:3], salt=1) != position_seed(start, history[:3])
    searched = []
    search = analysis._search

    def spy(position, seconds, seed, iterations=None, stop=None):
        searched.append((_key(position), seed, iterations, seconds))
        return search(position, seconds, seed, iterations, stop)

    monkeypatch.setattr(analysis, "_search", spy)
    clock = iter(range(0, 10**9, 7919))                  # a clock that jumps at every look
    monkeypatch.setattr(analysis.time, "perf_counter", lambda: float(next(clock)))
    _review(game)
    expected = {}
    replay = start.copy()
    for i, text in enumerate(history):
        expected.setdefault(_key(replay), position_seed(start, history[:i]))
        replay.play(text)
    assert searched and all(seed == expected[key] and iterations == ITERATIONS and seconds is None
                            for key, seed, iterations, seconds in searched)


def test_a_forced_position_is_not_searched_carries_the_next_one_s_chances_and_no_mark(monkeypatch):
    game = _finished()
    start = record.starting_game(game)
    history = [a.text for a in game.history()]
    forced, keys = set(), {}
    trial = start.copy()
    for i, text in enumerate(history):
        if len(trial.legal_actions()) == 1:
            forced.add(i)
            keys[_key(trial)] = i
        trial.play(text)
    assert forced                                           # (the game has forced positions)
    searched = []
    search = analysis._search
    monkeypatch.setattr(analysis, "_search", lambda position, *args: (
        searched.append(_key(position)), search(position, *args))[1])
    _, state = _review(game)
    points = state["points"]
    assert searched and not set(keys) & set(searched)
    for i in forced:
        point = points[i]
        assert point["forced"] and point["loss"] == 0 and point["mark"] is None
        assert point["chances"] == points[i + 1]["chances"]
        assert point["best"] == point["played"]
    assert not any(p["forced"] for i, p in enumerate(points) if i not in forced)


# -- learn from your mistakes -----------------------------------------------------------------
def test_an_action_tried_at_a_marked_position_is_judged_as_the_review_judged_it():
    game = _finished()
    review, state = _review(game)
    history = [a.text for a in game.history()]
    point = next(p for p in state["points"] if p["mark"])
    played = review.attempt(point["index"], point["played"])
    assert played == {"index": point["index"], "action": point["played"], "loss": point["loss"],
                      "mark": point["mark"], "better": False, "best": point["best"],
                      "chance": round(point["chances"][point["seat"]] - point["loss"], 3)}
    best = review.attempt(point["index"], point["best"])
    assert best["better"] and best["loss"] == 0 and best["mark"] is None
    assert best["chance"] == point["chances"][point["seat"]]
    tried = 0
    for point in (p for p in state["points"] if p["mark"]):
        position = record.starting_game(game)
        for text in history[:point["index"]]:
            position.play(text)
        for other in position.legal_actions()[:3]:
            if other.text not in (point["played"], point["best"]):
                judged = review.attempt(point["index"], other.text)
                assert judged["best"] == point["best"] and 0 <= judged["chance"] <= 1
                assert judged["better"] == (judged["loss"] < state["thresholds"]["?!"])
                assert judged["mark"] == analysis.mark_of(judged["loss"], state["thresholds"])
                tried += 1
    assert tried


@pytest.mark.parametrize("index,action,message", [
    (None, "x", "'index' must be the index of a marked point of the review"),
    (True, "x", "'index' must be the index of a marked point of the review"),
    (-1, "x", "'index' must be the index of a marked point of the review"),
    ("marked", "g6-", "'action' must be one of the"),
    ("marked", 7, "'action' must be one of the"),
    ("marked", "pass", "'action' must be one of the"),
])
def test_a_bad_attempt_names_what_was_wrong_in_one_line(index, action, message):
    review, state = _review(_finished())
    marked = next(p["index"] for p in state["points"] if p["mark"])
    unmarked = next(p["index"] for p in state["points"] if p["kind"] == "played" and not p["mark"])
    with pytest.raises(VictorusError, match=message) as error:
        review.attempt(marked if index == "marked" else index, action)
    assert "\n" not in str(error.value)
    with pytest.raises(VictorusError, match="marked point"):
        review.attempt(unmarked, "pass")


def test_no_attempt_before_the_review_is_done():
    review = Review(iterations=ITERATIONS)
    with pytest.raises(VictorusError, match="once the review is done; it is none"):
        review.attempt(0, "g6-g10")


# -- accuracy ---------------------------------------------------------------------------------
def _point(index, seat, mine, loss, kind="played"):
    chances = [mine if s % 2 == seat % 2 else round(1 - mine, 3) for s in range(6)]
    return {"index": index, "kind": kind, "seat": seat, "chances": chances, "best": None,
            "cells": [], "played": None if kind == "end" else "x", "forced": False,
            "loss": loss, "mark": None}


def test_accuracy_is_lichess_s_from_the_win_chance_losses_worked_by_hand():
    # lichess: 103.1668 * exp(-0.04354 * d) - 3.1669 + 1 for a drop of d win percent
    assert move_accuracy(0.0) == 100.0 and move_accuracy(-0.1) == 100.0
    assert move_accuracy(0.1) == pytest.approx(64.5798, abs=1e-3)       # d = 10
    assert move_accuracy(0.2) == pytest.approx(41.0168, abs=1e-3)       # d = 20
    assert move_accuracy(1.0) == 0.0
    points = [_point(0, 0, 0.5, 0.0), _point(1, 1, 0.5, 0.2), _point(2, 0, 0.7, 0.1),
              _point(3, 1, 0.0, None, kind="end")]
    # 3 judged actions: windows of 2 points ending at the point after each action.
    # red (seat 0): 100 (window 50, 50: weight 0.5) and 64.58 (window 70, 100 for red:
    #   sd 15, weight 12): weighted (50 + 774.96) / 12.5 = 66.00, harmonic
    #   2 / (1/100 + 1/64.58) = 78.48, accuracy (66.00 + 78.48) / 2 = 72.2.
    # blue (seat 1): one action, 41.02 either mean: 41.0.
    assert accuracy(points) == [72.2, 41.0, None, None, None, None]
    forced = [dict(p, forced=True) if p["index"] == 1 else p for p in points]
    assert accuracy(forced)[1] is None                     # a forced action is not judged


def test_a_finished_review_has_an_accuracy_per_army():
    _, state = _review(_finished())
    judged = {p["seat"] for p in state["points"] if p["kind"] == "played" and not p["forced"]}
    assert [a is not None for a in state["accuracy"]] == [s in judged for s in range(6)]
    assert all(0 <= a <= 100 for a in state["accuracy"] if a is not None)
