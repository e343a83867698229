"""A user's path in every message is shown short (victorus.checks.shown_path: cut in the
middle, the file name kept): a 1 MB path, and one nested 5,000 folders deep, through every
command-line entry point that takes a path and the API's ``make_agent``, ``Network.load``,
``read_run``, ``train`` and ``compare_networks``: one short line, exit status 2, no
traceback, no RecursionError."""

from __future__ import annotations

import os

import pytest

import victorus
from victorus.checks import shown_path
from victorus.cli import main

DEPTH = 5000
MOST = 400
"""The longest line a refusal may be."""


def make_deep(root: str, depth: int) -> bool:
    """``root/d/d/.../d`` (``depth`` folders), made one at a time below an open folder
    (the OS takes it that way, though not by its whole name); False where it cannot."""
    if os.mkdir not in os.supports_dir_fd or os.open not in os.supports_dir_fd:
        return False
    fd = os.open(root, os.O_RDONLY)
    try:
        for _ in range(depth):
            os.mkdir("d", dir_fd=fd)
            below = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = below
    finally:
        os.close(fd)
    return True


def remove_deep(root: str, depth: int) -> None:
    """The folders of `make_deep` removed, deepest first, without recursion."""
    fd = os.open(root, os.O_RDONLY)
    made = 0
    try:
        while made < depth:
            try:
                below = os.open("d", os.O_RDONLY, dir_fd=fd)
            except FileNotFoundError:
                break
            os.close(fd)
            fd, made = below, made + 1
        for _ in range(made):
            above = os.open("..", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = above
            os.rmdir("d", dir_fd=fd)
    finally:
        os.close(fd)


@pytest.fixture(scope="module", params=["1 MB", "5000 folders deep"])
def folder(request, tmp_path_factory):
    """A folder whose path is 1 MB long, or 5,000 folders deep (made where the OS accepts
    it, one folder at a time)."""
    root = str(tmp_path_factory.mktemp("long"))
    if request.param == "1 MB":
        yield os.path.join(root, "a" * 1_000_000)
        return
    made = make_deep(root, DEPTH)
    try:
        yield root + "/d" * DEPTH
    finally:
        if made:
            remove_deep(root, DEPTH)


def command_lines(folder: str, elsewhere: str) -> dict[str, list[str]]:
    net = os.path.join(folder, "network.vnet")
    out = os.path.join(folder, "out.json")
    quick = ["--games", "2", "--no-progress"]
    train = ["--rounds", "0", "--games", "2", "--holdout-games", "0", "--no-progress"]
    return {
        "perft --json": ["perft", "1", "--json", out],
        "simulate --json": ["simulate", "2", "--json", out],
        "simulate --csv": ["simulate", "2", "--csv", out],
        "bench --json": ["bench", "--quick", "--json", out],
        "tournament --json": ["tournament", "2", "random", "greedy", "--json", out],
        "tournament's network": ["tournament", "2", "random", f"best-net({net}):5"],
        "match --json": ["match", "random", "greedy", *quick, "--json", out],
        "match's network": ["match", f"best-net({net}):5", "greedy", *quick],
        "network compare A": ["network", "compare", net, "default", "--games", "0"],
        "network compare --json": ["network", "compare", "default", "default", "--games", "0",
                                   "--json", out],
        "render OUT": ["render", os.path.join(folder, "board.svg")],
        "train OUT": ["train", os.path.join(folder, "run"), *train],
        "train --start": ["train", elsewhere, "--start", net, *train],
        "play --agent": ["play", "--agent", f"best-net({net}):5"],
    }


COMMANDS = list(command_lines("x", "y"))


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_shows_a_long_path_short(folder, tmp_path, capsys, command):
    argv = command_lines(folder, str(tmp_path / "run"))[command]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and captured.err.startswith("victorus: error: "), \
        captured.err[:300]
    assert len(captured.err) < MOST and "Traceback" not in captured.err, captured.err[:300]
    assert len(captured.out) < MOST


def api_calls(folder: str):
    from victorus.agents import make_agent
    from victorus.evaluation.network import Network
    from victorus.match import compare_networks
    from victorus.training import Settings, read_run, train
    net = os.path.join(folder, "network.vnet")
    return {
        "make_agent": lambda: make_agent(f"best-net({net}):5"),
        "Network.load": lambda: Network.load(net),
        "read_run": lambda: read_run(os.path.join(folder, "run")),
        "train": lambda: train(os.path.join(folder, "run"), Settings(rounds=0), progress=False),
        "compare_networks": lambda: compare_networks(net, "default", games=0),
    }


@pytest.mark.parametrize("call", list(api_calls("x")))
def test_the_api_shows_a_long_path_short(folder, call):
    with pytest.raises(victorus.VictorusError) as refused:
        api_calls(folder)[call]()
    message = str(refused.value)
    assert "\n" not in message and len(message) < MOST, message[:300]


def test_a_long_path_keeps_its_file_name():
    long = "/very/long/" + "a" * 1_000_000 + "/dir/network.vnet"
    assert shown_path(long) == "'/very/long/" + "a" * 47 + ".../dir/network.vnet'"
    assert len(shown_path(long)) == 80 and shown_path("/short/network.vnet") == "'/short/network.vnet'"
    assert shown_path(long, quoted=False).endswith("/dir/network.vnet")
    assert shown_path("a\nb", quoted=False) == "a\\nb"                 # one line, always


def test_a_long_shipped_network_name_is_shown_short():
    """A name of the shipped networks' form is looked up in the package: one too long for
    the file system is no such network, in a short line."""
    from victorus.agents import make_agent
    with pytest.raises(victorus.ConfigError, match="no such network is shipped") as refused:
        make_agent(f"best-net({'a' * 1_000_000}-0123456789ab):5")
    assert len(str(refused.value)) < MOST


def test_an_os_error_is_one_short_line(tmp_path, monkeypatch, capsys):
    """An OSError the command line prints (a write that failed) names its path short."""
    import victorus.cli
    from victorus.files import os_error_line
    long = "/" + "a" * 1_000_000 + "/out.json"
    error = OSError(28, "No space left on device", long)
    assert os_error_line(error) == f"[Errno 28] No space left on device: {shown_path(long)}"
    assert os_error_line(OSError("plain words")) == "plain words"

    def full(path, data):
        raise error
    monkeypatch.setattr(victorus.cli, "write_atomic", full)
    assert main(["perft", "1", "--board", "compact", "--json", str(tmp_path / "x.json")]) == 2
    err = capsys.readouterr().err
    assert err == f"victorus: error: [Errno 28] No space left on device: {shown_path(long)}\n"
