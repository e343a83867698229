"""victorus.session: the seats, agents, clock and undo that play and serve share."""

import pytest

import victorus
from victorus.clock import ManualTime
from victorus.session import ABSENT, PERSON, Session


def test_controllers_agents_and_absent_seats():
    game = victorus.Game("compact", players=4)                  # seats 2 and 5 absent (R33)
    s = Session(game, [PERSON, "greedy", "anything", "random", "mcts:5", None], seed=3)
    assert s.controllers == [PERSON, "greedy", ABSENT, "random", "mcts:5", ABSENT]
    assert sorted(s.agents) == [1, 3, 4] and s.person_to_act() and s.agent_to_act() is None
    s.game.play(s.game.legal_actions()[0])
    assert not s.person_to_act() and s.agent_to_act() is s.agents[1]


@pytest.mark.parametrize("controllers, message", [
    ([PERSON] * 5, "six controllers"), ("person", "six controllers"),
    ([PERSON, "genius"] + [PERSON] * 4, "seat 1: unknown agent"),
    ([PERSON, 7] + [PERSON] * 4, "seat 1: 'person' or an agent spec")])
def test_bad_controllers_are_refused_and_change_nothing(controllers, message):
    s = Session(victorus.Game(), [PERSON] * 6)
    with pytest.raises(victorus.ConfigError, match=message):
        s.set_controllers(controllers)
    assert s.controllers == [PERSON] * 6


def test_undo_goes_back_to_the_persons_last_action_and_restarts_the_clock():
    now = ManualTime()
    s = Session(victorus.Game("compact", players=2), [PERSON] + ["random"] * 5, time_limit=10,
                now=now)
    with pytest.raises(victorus.VictorusError, match="nothing to undo"):
        s.undo()
    s.game.play("g6-g10")
    while s.agent_to_act() is not None:
        s.game.play(s.agent_to_act().choose(s.game))
    assert s.clock.remaining(s.game) == 10                     # red's turn is timed from now
    now.advance(8)
    assert s.clock.remaining(s.game) == 2
    s.undo()
    assert s.game.ply == 0 and s.clock.remaining(s.game) == 10
    s.set_controllers(["random"] * 6)
    with pytest.raises(victorus.VictorusError, match="every seat is an agent"):
        s.undo()


def test_no_undo_after_the_end_nor_past_a_forfeit_on_time():
    from helpers import position
    game = victorus.Game.from_vpn(position({"i8": "0K", "i20": "1Tb"}, armies={0: "a,3,"},
                                           laps={"i8": 1}))
    s = Session(game, [PERSON] * 6)
    s.game.play("i8-i14")                                        # R28: red wins at once
    assert not s.can_undo()
    with pytest.raises(victorus.VictorusError, match="the game is over"):
        s.undo()
    assert s.game.ply == 1
    now = ManualTime()
    s = Session(victorus.Game("compact", players=2), [PERSON] + ["random"] * 5, time_limit=10,
                now=now)
    s.game.play("g6-g10")
    while s.agent_to_act() is not None:
        s.game.play(s.agent_to_act().choose(s.game))
    assert s.can_undo() and s.clock.remaining(s.game) == 10     # red's turn is timed
    now.advance(11)
    assert s.clock.expired(s.game)
    s.forfeit()                                                  # red's turn is lost on time
    while s.agent_to_act() is not None:
        s.game.play(s.agent_to_act().choose(s.game))
    ply = s.game.ply
    assert not s.can_undo()                  # undo would hand red's forfeited turn back
    with pytest.raises(victorus.VictorusError, match="forfeited on time cannot be undone"):
        s.undo()
    assert s.game.ply == ply and s.clock.remaining(s.game) == 10
