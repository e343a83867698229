"""The README's and the docs' Python examples run as written (files go to a temporary
directory), and every output a comment shows is checked.

The comments' one convention: ``# -> OUTPUT`` (prose may come before the arrow) says what
the line prints (a ``print(...)`` line) or evaluates to (its ``repr``), exactly; ``...``
in it stands for any text, as in doctest. Other comments are prose and claim nothing; a
comment that shows an output loosely ("e.g.") is refused."""

import ast
import contextlib
import doctest
import io
import re
import tokenize
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
DOCS = README.parent / "docs"
#: The pages whose Python blocks the tests run (the rest are run by their own tests).
RUN_PAGES = (README, DOCS / "index.md", DOCS / "adapters.md", DOCS / "search.md",
             DOCS / "agents.md", DOCS / "training.md")


def blocks_of(path: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", path.read_text(), re.S)


def claims(block: str) -> dict[int, str]:
    """Line number -> the output its ``# -> OUTPUT`` comment claims."""
    found = {}
    for token in tokenize.generate_tokens(io.StringIO(block).readline):
        if token.type == tokenize.COMMENT and "->" in token.string:
            found[token.start[0]] = token.string.split("->", 1)[1].strip()
    return found


def matches(expected: str, got: str) -> bool:
    return doctest._ellipsis_match(expected, got) if "..." in expected else expected == got


def run_block(block: str, namespace: dict, where: str) -> int:
    """Run ``block`` statement by statement in ``namespace``; check each claimed output.
    Returns how many claims were checked."""
    block = block.replace("\n    ...\n", "\n    pass\n")
    expected = claims(block)
    assert all(claim.strip(". ") for claim in expected.values()), f"{where}: a claim of nothing"
    ends = {statement.end_lineno or statement.lineno for statement in ast.parse(block).body}
    stray = sorted(set(expected) - ends)
    assert stray == [], f"{where}: '# ->' on lines {stray}, which end no top-level statement"
    checked = 0
    for statement in ast.parse(block).body:
        claim = expected.get(statement.end_lineno or statement.lineno)
        code = ast.Module(body=[statement], type_ignores=[])
        if claim is None:
            exec(compile(code, where, "exec"), namespace)
            continue
        assert isinstance(statement, ast.Expr), f"{where}: '-> {claim}' on a statement"
        call = statement.value
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) \
                and call.func.id == "print":
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(compile(code, where, "exec"), namespace)
            got = out.getvalue().rstrip("\n")
        else:
            got = repr(eval(compile(ast.Expression(call), where, "eval"), namespace))
        assert matches(claim, got), f"{where}, line {statement.lineno}: shows {claim!r}, " \
                                    f"the code gives {got!r}"
        checked += 1
    return checked


def run_page(path: Path, at_least: int) -> tuple[dict, int]:
    """Run every Python block of a page in one namespace, as a reader would."""
    blocks = blocks_of(path)
    assert len(blocks) >= at_least
    namespace: dict = {}
    checked = sum(run_block(block, namespace, str(path)) for block in blocks)
    return namespace, checked


def run_doc_blocks(name: str, at_least: int) -> dict:
    return run_page(DOCS / name, at_least)[0]


def test_readme_examples_run(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    _, checked = run_page(README, 5)
    assert checked >= 6                     # the outputs the README shows, each checked


def test_the_home_page_examples_run(capsys):
    _, checked = run_page(DOCS / "index.md", 1)
    assert checked >= 2


@pytest.mark.parametrize("path", RUN_PAGES, ids=lambda p: p.name)
def test_no_comment_shows_an_output_loosely(path):
    """An output in a comment is exact (``# -> ...``): "e.g." would let it drift."""
    loose = [line.strip() for block in blocks_of(path) for line in block.splitlines()
             if re.search(r"#.*\be\.g\.", line)]
    assert loose == []


def test_a_wrong_claim_fails():
    """The checker catches a drifted output (and a right one passes)."""
    assert run_block("x = 2\nprint(x + 1)   # three -> 3\n", {}, "ok") == 1
    with pytest.raises(AssertionError, match="shows '4', the code gives '3'"):
        run_block("print(1 + 2)   # -> 4\n", {}, "drifted")
    with pytest.raises(AssertionError, match="the code gives '5'"):
        run_block("2 + 3   # -> 6\n", {}, "drifted")
    assert run_block("print('a long line')   # -> a ... line\n", {}, "ellipsis") == 1
    with pytest.raises(AssertionError, match="which end no top-level statement"):
        run_block("if True:\n    print(1)   # -> 2\n    pass\n", {}, "nested")
    with pytest.raises(AssertionError, match="a claim of nothing"):
        run_block("print(1)   # -> ...\n", {}, "vague")


def test_adapters_doc_examples_run(tmp_path, monkeypatch, capsys):
    """docs/adapters.md: every Python block runs as written (vector games, gymnasium,
    OpenSpiel's Observation API...)."""
    monkeypatch.chdir(tmp_path)
    namespace = run_doc_blocks("adapters.md", 8)
    out = capsys.readouterr().out                  # the lines shown with "# ->" are checked
    assert namespace["observation"].tensor.shape == (88 * 127,)
    assert namespace["small"].tensor.shape == (6 * 127 + 30,)
    assert namespace["games"].rewards.shape == (64, 6)
    # The examples show something: every legal leg starts on one of the observer's own
    # pieces in its frame, and the OpenSpiel game ends with a winner.
    starts = namespace["starts"]
    assert sum(starts.values()) == len(namespace["origins"]) > 0 and starts["U"] > 0
    assert "legal legs by the piece they move: {'T': 2, 'U': 6, 'B': 3" in out


def test_search_doc_examples_run(capsys):
    """docs/search.md: the turn structure, the view and the max-n example run as written."""
    stats = run_doc_blocks("search.md", 3)["stats"]
    assert stats["nodes"] > 100 and stats["hits"] > 0
    out = capsys.readouterr().out
    assert "table hits" in out                     # the laps line is checked by its "# ->"


def test_agents_doc_examples_run(capsys):
    """docs/agents.md: the tournament with a spec, a factory and an agent object, and
    one agent against the rest, run as written."""
    namespace = run_doc_blocks("agents.md", 2)
    assert namespace["result"].lineup == "one-vs-rest"
    out = capsys.readouterr().out
    assert "Elo over random" in out and "fair share" in out


def test_training_doc_examples_run(tmp_path, monkeypatch, capsys):
    """docs/training.md: the shipped network and a fresh one evaluate a position, a tiny
    training run writes its network, and its dataset reads back, run as written."""
    monkeypatch.chdir(tmp_path)
    namespace = run_doc_blocks("training.md", 3)
    assert namespace["network"].info["round"] == namespace["points"][-1].best
    data = namespace["data"]                        # the dataset of the tiny run's round 1
    assert len(data.samples) == namespace["points"][-1].positions and data.position(0).ply == data.ply[0]
    assert namespace["points"][-1].round == 1 and namespace["policy"].sum() > 0.99
    assert (tmp_path / "runs" / "tiny" / "network.vnet").exists()
    out = capsys.readouterr().out
    assert "Network('gated-" in out


def test_the_training_page_states_the_trainers_defaults():
    """docs/training.md's "`--games` (800)" and the like are the CLI's defaults."""
    from victorus.training import Settings
    text = (DOCS / "training.md").read_text()
    stated = re.findall(r"`--([a-z-]+)` \(([0-9.]+)\)", text)
    assert len(stated) >= 4
    defaults = Settings()
    for option, value in stated:
        assert float(value) == float(getattr(defaults, option.replace("-", "_"))), option


def test_the_docs_name_the_files_a_run_writes():
    """The checkpoint files named in the docs are those a run writes (window-<n>.npz)."""
    for path in (DOCS / "training.md", DOCS / "robustness.md", README):
        assert "window.npz" not in path.read_text(), path.name
