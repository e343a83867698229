"""The command line's help: one formatter for every command, each option's default said once."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator

import pytest

from victorus import cli

DEFAULT = re.compile(r"\bdefault\b", re.IGNORECASE)


def _parsers(parser: argparse.ArgumentParser, name: str = "victorus"
             ) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """The parser and every subcommand's parser under it, found through the parser itself."""
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub_name, sub in action.choices.items():
                yield from _parsers(sub, f"{name} {sub_name}")


PARSERS = dict(_parsers(cli.build_parser()))


def _help_text(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    """An option's help as --help prints it (the formatter's additions, %(default)s filled)."""
    if not action.help or action.help is argparse.SUPPRESS:
        return ""
    return parser._get_formatter()._expand_help(action)


def test_every_command_is_found():
    names = {name.split()[-1] for name in PARSERS}
    assert {"victorus", "perft", "simulate", "tournament", "play", "serve", "render", "bench",
            "train"} <= names


@pytest.mark.parametrize("name", sorted(PARSERS))
def test_one_formatter(name):
    formatter = getattr(cli, "_HelpFormatter", None)
    assert formatter is not None, "cli has no shared help formatter"
    assert PARSERS[name].formatter_class is formatter, f"{name} has its own help formatter"


@pytest.mark.parametrize("name", sorted(PARSERS))
def test_help_says_each_default_once(name, capsys):
    parser = PARSERS[name]
    with pytest.raises(SystemExit) as exit_:
        parser.parse_args(["--help"])
    assert exit_.value.code == 0
    text = " ".join(capsys.readouterr().out.split())          # however argparse wraps it
    assert "(default: None)" not in text
    doubled = re.search(r"default[^()]*\) \(default", text, re.IGNORECASE)
    assert doubled is None, f"{name} --help: {doubled.group(0)!r}"
    for action in parser._actions:
        if action.help is argparse.SUPPRESS:
            continue
        what = f"{name} {'/'.join(action.option_strings) or action.dest}"
        said = " ".join(_help_text(parser, action).split())
        assert len(DEFAULT.findall(said)) <= 1, f"{what}: the default twice: {said!r}"
        flag = action.nargs == 0 and not isinstance(action, argparse.BooleanOptionalAction)
        if flag:                                          # store_true, count, --help, --version
            assert "(default:" not in said, f"{what}: a flag's default: {said!r}"
        elif action.option_strings and action.default not in (None, argparse.SUPPRESS):
            assert DEFAULT.search(said), f"{what}: its default {action.default!r} is not said"
        assert "%(" not in said and "%%" not in said, f"{what}: {said!r}"


def test_train_help_shows_its_settings(capsys):
    """``victorus train --help`` shows the defaults of training.Settings, each once."""
    from victorus.training import Settings
    with pytest.raises(SystemExit):
        cli.main(["train", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert f"(default: {Settings().games})" in text
    assert "(default warning)" in text and "(default: None)" not in text
    assert "(default: False)" not in text and "(default: 0)" not in text.split("--verbose")[1]


def test_play_and_serve_take_one_set_of_table_options():
    """A game at a table (victorus.session) is set alike for play and serve: the game, the
    seats' agent, the clock and the agents' seed, each with the same default and help (the
    seats' help apart: whose seats they are differs)."""
    def table(name: str) -> dict[str, tuple[object, str]]:
        parser = PARSERS[f"victorus {name}"]
        return {action.dest: (action.default, _help_text(parser, action))
                for action in parser._actions if action.dest in
                ("board", "players", "variant", "agent", "time_limit", "seed")}
    assert table("play") == table("serve")
    assert set(table("play")) == {"board", "players", "variant", "agent", "time_limit", "seed"}
