"""Differential tests: the C engine (victorus.Game) against the pure-Python rules
(ReferenceGame on the pure-Python leg generator), action by action.

Both are driven by the same seeded choice among the legal action strings; at
every step the legal actions (in order) and the whole state must agree, and
so must perft from positions met along the way.
"""

import random

import pytest

import victorus
from helpers import ALL_CONFIGS as CONFIGS
from helpers import config_id, view
from victorus._reference_game import ReferenceGame, reference_perft


def play_both(board, players, variant, seed, max_actions):
    rng = random.Random(seed)
    fast = victorus.Game(board, players=players, variant=variant)
    slow = ReferenceGame(board, players=players, variant=variant)
    for _ in range(max_actions):
        legal = [str(a) for a in fast.legal_actions()]
        assert legal == [str(a) for a in slow.legal_actions()]
        assert view(fast) == view(slow)
        if fast.is_over:
            break
        if fast.phase == "start":
            assert fast.vpn() == slow.vpn()
        action = rng.choice(legal)
        fast.play(action)
        slow.play(action)
    assert (fast.winners, fast.result_reason) == (slow.winners, slow.result_reason)
    return fast, slow


@pytest.mark.parametrize("n", range(len(CONFIGS)), ids=[config_id(c) for c in CONFIGS])
def test_engine_matches_reference_through_whole_games(n):
    board, players, variant = CONFIGS[n]
    fast, _ = play_both(board, players, variant, seed=1000 + n, max_actions=3000)


MIDGAME = [(b, p, v.replace("quick12", "quick40").replace("quick8", "quick40"))
           for b, p, v in CONFIGS]


@pytest.mark.parametrize("n", range(12))
def test_perft_matches_reference_in_mid_game(n):
    board, players, variant = MIDGAME[(7 * n) % len(MIDGAME)]
    rng = random.Random(n)
    while True:                           # a running game at a turn start, mid-game
        fast = victorus.Game(board, players=players, variant=variant)
        victorus.play_random(fast, seed=rng.getrandbits(32), max_actions=rng.randrange(40, 400))
        while fast.phase != "start" and not fast.is_over:
            fast.play(rng.choice(fast.legal_actions()))
        if not fast.is_over:
            break
    slow = ReferenceGame.from_vpn(fast.vpn())
    assert [reference_perft(slow, d) for d in (1, 2)] == [victorus.perft(fast, d) for d in (1, 2)]
