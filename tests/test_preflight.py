"""Check, then act (victorus.files.preflight): every command that writes, replaces or removes
a user's files checks first everything that can refuse it, so a refusal leaves every file as
it was: an output that is one of the inputs (by path, symlink or hard link), two outputs in
one file, an unwritable output or folder, a backend not installed; and ``victorus train
--overwrite`` refuses a start network made for other games before the old run is removed."""

from __future__ import annotations

import errno
import importlib.util
import os
import tempfile

import pytest

import victorus
from victorus.checks import shown_path
from victorus.cli import main
from victorus.evaluation.network import Network
from victorus.files import make_folder, preflight, same_file
from victorus.training import Settings, train

TINY = dict(rounds=0, games=2, iterations=8, label_iterations=8, label_share=1.0, max_actions=30,
            epochs=1, hidden=8, hidden2=4, holdout_games=0, gate_games=0, curve_games=0,
            mix=(("compact", 2, "standard", 1), ("standard", 3, "standard", 1)))
SMALL = ["--games", "2", "--iterations", "8", "--label-iterations", "8", "--hidden", "8",
         "--hidden2", "4", "--holdout-games", "0", "--gate-games", "0", "--curve-games", "0",
         "--rounds", "0", "--no-progress"]


@pytest.fixture(autouse=True)
def _quiet(monkeypatch):
    monkeypatch.delenv("VICTORUS_PROGRESS", raising=False)


def one_error_line(capsys, *words) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("victorus: error: "), err
    assert "Traceback" not in err
    for word in words:
        assert word in err, err
    return err


def listing(folder) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.fixture(scope="module")
def old_run(tmp_path_factory):
    """A finished run (round 0) of the two-board mix, copied by each test."""
    out = tmp_path_factory.mktemp("old") / "run"
    train(str(out), Settings(**TINY), progress=False)
    return out


@pytest.fixture
def run_copy(old_run, tmp_path):
    import shutil
    return shutil.copytree(old_run, tmp_path / "run")


# -- victorus train --overwrite: nothing removed before the new run can start ---------------

def test_overwrite_with_a_start_made_for_other_games_keeps_the_old_run(run_copy, tmp_path, capsys):
    compact = tmp_path / "compact.vnet"
    Network.fresh(8, 4, trained={"boards": ["compact"], "players": [2]}).save(compact)
    before = listing(run_copy)
    with pytest.raises(victorus.ConfigError, match=r"the start network \(--start\) '.*compact.vnet' "
                       r"was trained for boards \['compact'\] and players \[2\], not the run's "
                       r"standard with 3 players"):
        train(str(run_copy), Settings(**{**TINY, "start": str(compact)}), overwrite=True,
              progress=False)
    assert main(["train", str(run_copy), "--overwrite", "--start", str(compact), *SMALL]) == 2
    one_error_line(capsys, "--start", "compact.vnet", "standard with 2 players")
    assert listing(run_copy) == before                                  # byte for byte


def test_overwrite_with_a_backend_not_installed_keeps_the_old_run(run_copy, monkeypatch, capsys):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *args: None if name == "ray" else real(name, *args))
    before = listing(run_copy)
    with pytest.raises(victorus.MissingDependencyError, match=r"backend 'ray' \(--backend ray\) "
                                                              r"needs ray: pip install"):
        train(str(run_copy), Settings(**{**TINY, "backend": "ray"}), overwrite=True, progress=False)
    assert main(["train", str(run_copy), "--overwrite", "--backend", "ray", *SMALL]) == 2
    one_error_line(capsys, "--backend ray", "victorus[ray]")
    assert listing(run_copy) == before


@pytest.mark.parametrize("how", ["the file", "a symlink", "a hard link"])
def test_overwrite_never_removes_its_own_start(run_copy, tmp_path, how):
    """A start that is one of the run's files (or a link to one) would be removed by
    --overwrite: refused, naming the file."""
    start = run_copy / "round-0.vnet"
    if how == "a symlink":
        start = tmp_path / "link.vnet"
        start.symlink_to(run_copy / "round-0.vnet")
    elif how == "a hard link":
        start = tmp_path / "hard.vnet"
        os.link(run_copy / "round-0.vnet", start)
    before = listing(run_copy)
    with pytest.raises(victorus.ConfigError, match=r"--overwrite '.*round-0.vnet' is the start network "
                       r"\(--start\), which is read: an output never replaces an input"):
        train(str(run_copy), Settings(**{**TINY, "start": str(start)}), overwrite=True,
              progress=False)
    assert listing(run_copy) == before


def test_overwrite_into_a_folder_nothing_can_be_written_into_keeps_the_old_run(run_copy, monkeypatch):
    """A full disk, a read-only mount or a quota: a file made in the folder first tells."""
    real = tempfile.mkstemp

    def full(*args, prefix="", **kwargs):
        if prefix.startswith(".probe."):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(*args, prefix=prefix, **kwargs)
    monkeypatch.setattr(tempfile, "mkstemp", full)
    before = listing(run_copy)
    with pytest.raises(victorus.ConfigError, match=r"OUT '.*run': nothing can be written into it "
                                                   r"\(No space left on device\)"):
        train(str(run_copy), Settings(**TINY), overwrite=True, progress=False)
    assert listing(run_copy) == before


def test_the_folder_write_test_leaves_nothing(tmp_path):
    preflight(folders=[("OUT", tmp_path)])
    assert list(tmp_path.iterdir()) == []


def test_a_fit_start_overwrites(run_copy, tmp_path):
    """The checks refuse nothing a run can do: a start trained for the mix replaces the run."""
    start = tmp_path / "start.vnet"
    Network.fresh(8, 4, trained={"boards": ["compact", "standard"], "players": [2, 3]}).save(start)
    train(str(run_copy), Settings(**{**TINY, "start": str(start)}), overwrite=True, progress=False)
    assert sorted(p.name for p in run_copy.iterdir()) == ["curve.json", "curve.svg", "network.vnet",
                                                          "round-0.vnet", "window-0.npz"]


# -- --json naming an input -----------------------------------------------------------------

@pytest.fixture
def network(tmp_path):
    path = tmp_path / "mine.vnet"
    Network.fresh(4, 4, seed=3).save(path)
    return path


def linked(network, tmp_path, how):
    """``network`` itself, or a new name for it: a symlink, a hard link, another spelling."""
    if how == "the file":
        return network
    if how == "another spelling":
        return tmp_path / "." / ".." / tmp_path.name / network.name
    link = tmp_path / f"{how.replace(' ', '-')}.json"
    if how == "a symlink":
        link.symlink_to(network)
    else:
        os.link(network, link)
    return link


COMMANDS = {
    "match": lambda net, out: ["match", f"best-net({net}):5", "greedy", "--games", "2", "--json", out],
    "match's B": lambda net, out: ["match", "greedy", f"alphabeta-net({net}):20", "--games", "2",
                                   "--json", out],
    "network compare": lambda net, out: ["network", "compare", "default", net, "--games", "2",
                                         "--json", out],
    "tournament": lambda net, out: ["tournament", "2", "random", f"best-net({net}):5", "--json", out],
}
WORDS = {"match": "A's network", "match's B": "B's network", "network compare": "network B",
         "tournament": "the network of agent 'best-net("}


@pytest.mark.parametrize("how", ["the file", "a symlink", "a hard link", "another spelling"])
@pytest.mark.parametrize("command", list(COMMANDS))
def test_json_naming_an_input_is_refused_and_the_network_kept(network, tmp_path, capsys, monkeypatch,
                                                              command, how):
    import victorus.tournament

    def no_games(*args, **kwargs):
        raise AssertionError("the games ran before the outputs were checked")
    monkeypatch.setattr(victorus.tournament, "tournament", no_games)
    out = linked(network, tmp_path, how)
    before = network.read_bytes()
    assert main(COMMANDS[command](str(network), str(out))) == 2
    one_error_line(capsys, f"--json {shown_path(str(out))} is {WORDS[command]}",
                   "an output never replaces an input")
    assert network.read_bytes() == before


def test_json_beside_its_inputs_is_written(network, tmp_path, capsys):
    out = tmp_path / "result.json"
    assert main(COMMANDS["match"](str(network), str(out))) == 0
    assert "networks" in out.read_text()


def test_two_outputs_in_one_file_are_refused(tmp_path, capsys):
    out = tmp_path / "games"
    link = tmp_path / "link"
    link.symlink_to(out)
    assert main(["simulate", "2", "--json", str(out), "--csv", str(link)]) == 2
    one_error_line(capsys, "--json and --csv name one file")
    assert not out.exists()
    assert main(["simulate", "2", "--board", "compact", "--json", os.devnull, "--csv",
                 os.devnull]) == 0                       # a device is written to, never replaced


def test_a_backend_not_installed_is_refused_before_the_work(monkeypatch, capsys):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *args: None if name == "ray" else real(name, *args))
    assert main(["simulate", "2", "--backend", "ray"]) == 2
    one_error_line(capsys, "--backend ray needs ray")
    assert main(["tournament", "2", "random", "greedy", "--backend", "ray"]) == 2
    one_error_line(capsys, "--backend ray needs ray")


# -- the pieces -------------------------------------------------------------------------------

def test_same_file_by_path_link_and_inode(tmp_path):
    a = tmp_path / "a"
    a.write_text("x")
    (tmp_path / "sym").symlink_to(a)
    os.link(a, tmp_path / "hard")
    (tmp_path / "folder").symlink_to(tmp_path, target_is_directory=True)
    assert same_file(a, tmp_path / "sym") and same_file(a, tmp_path / "hard")
    assert same_file(tmp_path / "new", tmp_path / "folder" / "new")      # not made yet
    assert not same_file(a, tmp_path / "new") and not same_file(a, tmp_path / "b")


def test_make_folder_makes_its_parents_without_recursion(tmp_path):
    deep = tmp_path.joinpath(*["d"] * 60)
    assert make_folder(deep) == str(deep) and deep.is_dir()
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(victorus.ConfigError, match="is a file, not a folder"):
        make_folder(blocker / "sub")
    far = str(tmp_path) + "/d" * 5000
    with pytest.raises(victorus.ConfigError, match="cannot make the folder") as refused:
        make_folder(far)
    assert len(str(refused.value)) < 300 and str(refused.value).count("cannot make") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d", "file"]     # nothing made
