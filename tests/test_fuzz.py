"""Property tests with random and mutated input: VPN strings, action
strings and command-line argument lists. Only the documented errors may come
out, a rejected input never changes a game, and accepted input round-trips.
"""

import contextlib
import io
import os
import random
import string
import tempfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import victorus
from victorus.cli import main

SETTINGS = settings(max_examples=400, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _valid_vpns():
    out = [victorus.Game(b, players=p, variant=v).vpn()
           for b in ("standard", "compact") for p, v in ((6, "standard"), (2, "quick40"),
                                                         (4, "standard"), (6, "allied"))]
    rng = random.Random(5)
    for seed in range(6):
        game = victorus.Game(rng.choice(["standard", "compact"]))
        victorus.play_random(game, seed=seed, max_actions=rng.randrange(100, 900))
        while game.phase != "start" and not game.is_over:
            game.play(game.legal_actions()[0])
        if not game.is_over:
            out.append(game.vpn())
    return out


VALID = _valid_vpns()
VPN_ALPHABET = string.ascii_lowercase + string.digits + " ,:/.-+KQTUBXHwbx"


@st.composite
def mutated(draw, seeds=VALID, alphabet=VPN_ALPHABET):
    text = list(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["replace", "insert", "delete", "swap-fields", "digit"]))
        if not text:
            break
        i = draw(st.integers(0, len(text) - 1))
        if kind == "replace":
            text[i] = draw(st.sampled_from(alphabet))
        elif kind == "insert":
            text.insert(i, draw(st.sampled_from(alphabet)))
        elif kind == "delete":
            del text[i]
        elif kind == "digit":
            text[i:i + 1] = list(str(draw(st.integers(-10**12, 10**12))))
        else:
            fields = "".join(text).split(" ")
            a, b = draw(st.integers(0, len(fields) - 1)), draw(st.integers(0, len(fields) - 1))
            fields[a], fields[b] = fields[b], fields[a]
            text = list(" ".join(fields))
    return "".join(text)


def check_vpn(text):
    try:
        game = victorus.Game.from_vpn(text)
    except victorus.NotationError as exc:
        assert str(exc)                                   # says what was wrong
        return
    canonical = game.vpn()
    assert victorus.Game.from_vpn(canonical).vpn() == canonical
    legal = game.legal_actions()                          # the engine copes with it
    assert legal
    game.play(legal[len(legal) // 2])
    game.undo()
    assert game.vpn() == canonical


@SETTINGS
@given(st.text(alphabet=VPN_ALPHABET, max_size=200))
def test_random_text_as_vpn(text):
    check_vpn(text)


@SETTINGS
@given(st.text(max_size=80))
def test_any_unicode_as_vpn(text):
    check_vpn(text)


@SETTINGS
@given(mutated())
def test_mutated_vpn(text):
    check_vpn(text)


def test_non_ascii_digits_are_rejected():
    """Found while fuzzing: int() reads Arabic-Indic digits, VPN must not (R39 round trip)."""
    vpn = VALID[0]
    for bad in (vpn.replace(" 1 standard", " 1\u0660 standard"),
                vpn.replace("a,0,,0,0", "a,\u0663,,0,0", 1),
                vpn.replace("a,0,,0,0", "a,0,,\u0661,0", 1),
                vpn.replace("standard", "quick\u0664", 1)):
        try:
            victorus.Game.from_vpn(bad)
        except victorus.NotationError:
            continue
        raise AssertionError(f"accepted {bad!r}")
    game = victorus.Game()
    try:
        game.play("h3-h\u0667")
    except victorus.NotationError:
        return
    raise AssertionError("accepted a non-ASCII row number")


def test_every_valid_seed_round_trips():
    for vpn in VALID:
        assert victorus.Game.from_vpn(vpn).vpn() == vpn


ACTION_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789-x "


@SETTINGS
@given(st.sampled_from(VALID), st.one_of(
    st.text(alphabet=ACTION_ALPHABET, max_size=12),
    st.sampled_from(["stop", "end", "pass", "i14-i12", "h3-h5", "a1-a1", "q27xq27"]),
    st.integers(), st.none(), st.binary(max_size=6)))
def test_random_actions(vpn, action):
    game = victorus.Game.from_vpn(vpn)
    legal = {str(a) for a in game.legal_actions()}
    try:
        game.play(action)
    except (victorus.NotationError, victorus.IllegalActionError) as exc:
        assert str(exc)
        assert game.vpn() == vpn                          # unchanged
        return
    assert action in legal


@SETTINGS
@given(st.sampled_from(VALID), st.data())
def test_mutated_legal_actions(vpn, data):
    game = victorus.Game.from_vpn(vpn)
    legal = [str(a) for a in game.legal_actions()]
    text = list(data.draw(st.sampled_from(legal)))
    i = data.draw(st.integers(0, len(text) - 1))
    text[i] = data.draw(st.sampled_from(ACTION_ALPHABET))
    text = "".join(text)
    try:
        game.play(text)
    except (victorus.NotationError, victorus.IllegalActionError):
        assert game.vpn() == vpn
        return
    assert text in legal


# Numbers stay at most 4 or above perft's limit of 10: "perft 7" is valid and would count
# billions of sequences (hypothesis found that word order once).
CLI_WORDS = ["perft", "simulate", "1", "2", "3", "0", "-1", "x", "99", "--board", "standard",
             "compact", "hex", "--players", "4", "12", "--variant", "quick", "allied", "blitz",
             "--vpn", VALID[0], VALID[0][:20], "--seed", "--workers", "--max-actions", "--json",
             "-", "--version", "--help", "", " ", "--quick"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(CLI_WORDS), max_size=6))
def test_random_command_lines(argv):
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as scratch:        # '--json x' writes a file there
        os.chdir(scratch)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(argv)
        except SystemExit as exc:                         # argparse: usage error, help, version
            code = exc.code
        finally:
            os.chdir(here)
    assert code in (0, 2)
    if code == 2:
        assert "error" in err.getvalue()
