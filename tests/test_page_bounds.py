"""Every game on the page is bounded (docs/serve.md, What a page game holds): a game played
stops unfinished at the page's cap of actions (R36), whoever plays it; the states kept
for the pages stay within their counts; what a game holds grows by about a kilobyte an
action. Driven by hand (a fake clock, the worker stepped): no timing."""

import gc
import random
import tracemalloc

import pytest

import victorus
from victorus.clock import ManualTime
from victorus.game import DEFAULT_MAX_ACTIONS
from victorus.page.page_state import MAX_FRAMES_HELD
from victorus.page.table import PAGE_MAX_ACTIONS, PERSON, WATCHED_KEPT, RequestError, Table


def test_the_page_s_cap_is_r36_s_and_another_is_refused():
    assert PAGE_MAX_ACTIONS == DEFAULT_MAX_ACTIONS == 20_000
    assert Table("compact", 2).max_actions == PAGE_MAX_ACTIONS
    for cap in (0, PAGE_MAX_ACTIONS + 1, 2.5):
        with pytest.raises(victorus.ConfigError, match="max_actions"):
            Table("compact", 2, max_actions=cap)


def test_agents_on_a_clock_stop_unfinished_at_the_cap():
    """Agents play to the cap; past it nothing more happens, however long the clock
    runs: no action, no forfeit, no new version. The page says so; the game cannot be
    played, undone, resigned or premoved; its record says it is unfinished; it is
    reviewed as a finished game."""
    from victorus.page.analysis import Review
    now = ManualTime()
    table = Table("compact", 2, seats=["random"] * 6, time_limit=5, agent_delay=0, now=now,
                  max_actions=60)
    table.review = Review(seconds=None, iterations=20)
    table.state()
    while table.work():
        pass
    assert table.game.ply == 60 and not table.game.is_over and table.capped
    version = table.version
    for _ in range(50):
        now.advance(10)
        assert table.work() is False
    assert table.game.ply == 60 and table.version == version
    state = table.state()
    assert state["over"] and state["reason"] == "unfinished" and state["clock"] is None
    assert not state["person_to_act"] and state["legal"] is None and not state["can_undo"]
    assert "the page's cap of 60 actions" in state["result"]["title"]
    assert {c["state"] for c in state["army_clocks"]} == {"over"}
    table.set_seats([PERSON] * 6)
    action = table.game.legal_actions()[0].text
    for change in (lambda: table.play(action), table.undo, lambda: table.resign(0),
                   lambda: table.set_premove(action)):
        with pytest.raises(RequestError, match="cap of 60 actions; start a new game"):
            change()
    assert table.game.ply == 60
    assert "result: unfinished\n" in table.record_text()
    table.review_game()
    table.review.thread.join(120)
    review = table.review.state()
    assert review["status"] == "done" and review["points"][-1]["kind"] == "end"
    table.new_game("compact", 2, seats=[PERSON] * 6)
    assert not table.capped and table.state()["person_to_act"]


def test_a_person_playing_random_actions_is_stopped_at_the_cap():
    table = Table("compact", 2, seats=[PERSON] * 6, max_actions=45)
    rng = random.Random(3)
    with pytest.raises(RequestError, match="cap of 45 actions"):
        for _ in range(46):
            actions = table.game.legal_actions()
            table.play(actions[rng.randrange(len(actions))].text)
    assert table.game.ply == 45 and table.state()["over"]


def test_the_states_kept_for_the_pages_stay_within_their_counts():
    """Whatever the number of changes: the watched states of the last WATCHED_KEPT
    versions, the deltas to the current version only, the states of this version only;
    a page names at most MAX_FRAMES_HELD frames."""
    table = Table("compact", 2, seats=[PERSON] * 6)
    for number in range(3 * WATCHED_KEPT):
        table.tell(f"change {number}")
        table.notice((table.instance, table.version - 1))
        for view in ("turn", "0", "1"):
            table.state(view=view, frame="")
    assert len(table._watched) == WATCHED_KEPT
    assert all(key[1] == table.version for key in table._deltas)
    assert len(table._shown) == 3          # (the three views asked; the watched one is view 0)
    keys = ",".join(f"{n:016x}" for n in range(MAX_FRAMES_HELD + 1))
    with pytest.raises(RequestError, match=f"at most {MAX_FRAMES_HELD}"):
        table.state(frame=keys)


def _game_of(actions):
    """A game of ``actions`` actions going on, most turns forfeited (a turn each: the
    log's costliest action), one in ten played at random."""
    rng = random.Random(5)
    game = victorus.Game("compact", players=2)
    while game.ply < actions:
        assert not game.is_over
        if game.phase == "start" and rng.random() > 0.1:
            game.forfeit()
        else:
            legal = game.legal_actions()
            game.play(legal[rng.randrange(len(legal))])
    return game


def _held(game):
    """The memory a table holds (its Python objects, tracemalloc) with ``game``, once
    more versions than it keeps have been asked for."""
    table = Table("compact", 2, seats=[PERSON] * 6, time_limit=60)
    table.state(frame="")
    gc.collect()
    before = tracemalloc.get_traced_memory()[0]
    with table.lock:
        table.session.replace_game(game)
        table.tell("loaded")
    turns = len(table.state(frame="")["log"])
    for number in range(WATCHED_KEPT + 6):
        table.tell(f"change {number}")
        table.notice((table.instance, table.version - 1))
        table.state(view="0", frame="", log=(table.log_key, turns))   # (the watched one's)
    gc.collect()
    return tracemalloc.get_traced_memory()[0] - before


def test_a_game_holds_about_a_kilobyte_an_action():
    """What 1,000 more actions add to a table (the game's turns, its log entries and
    events, and the log of each of the WATCHED_KEPT states kept): under 1.5 KB an action,
    so a game at the page's cap holds about 25 MB (docs/serve.md)."""
    games = _game_of(200), _game_of(1200)
    tracemalloc.start()
    try:
        small, large = _held(games[0]), _held(games[1])
    finally:
        tracemalloc.stop()
    assert (large - small) / 1000 < 1536, (small, large)
