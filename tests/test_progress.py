"""Progress bars: a line redrawn on a terminal's stderr, and in Jupyter a line of the
cell's output updated in place (no carriage returns or terminal codes there)."""

import io
import sys
import types

from victorus.progress import Progress


class Handle:
    def __init__(self, shown):
        self.shown = shown

    def update(self, obj):
        self.shown.append(("update", repr(obj)))


def fake_ipython(monkeypatch, kernel: bool) -> list:
    """An IPython module whose shell is a Jupyter kernel's (or a terminal IPython's)."""
    shown: list = []

    def display(obj, display_id=False):
        assert display_id is True
        shown.append(("display", repr(obj)))
        return Handle(shown)
    shell = types.SimpleNamespace(config={"IPKernelApp": {}} if kernel else {})
    ipython = types.ModuleType("IPython")
    ipython.get_ipython = lambda: shell
    display_module = types.ModuleType("IPython.display")
    display_module.display = display
    monkeypatch.setitem(sys.modules, "IPython", ipython)
    monkeypatch.setitem(sys.modules, "IPython.display", display_module)
    return shown


def test_in_a_notebook_the_bar_is_a_display_line_updated_in_place(monkeypatch, capsys):
    monkeypatch.delenv("VICTORUS_PROGRESS", raising=False)
    shown = fake_ipython(monkeypatch, kernel=True)
    with Progress(3, "games") as bar:          # on by default in a notebook
        for _ in range(3):
            bar.advance()
    assert capsys.readouterr().err == ""       # nothing on stderr
    assert shown[0][0] == "display" and all(kind == "update" for kind, _ in shown[1:])
    assert shown[-1][1].startswith("games: [" + "#" * 30 + "] 3/3 (")
    assert not any("\r" in text or "\033" in text for _, text in shown)


def test_a_terminal_ipython_is_not_a_notebook(monkeypatch):
    monkeypatch.delenv("VICTORUS_PROGRESS", raising=False)
    shown = fake_ipython(monkeypatch, kernel=False)
    with Progress(3, "games", stream=io.StringIO()) as bar:
        bar.advance()
    assert not bar.enabled and shown == []


def test_on_a_stream_the_bar_is_redrawn_and_wiped(monkeypatch):
    shown = fake_ipython(monkeypatch, kernel=True)     # a stream given: it is used
    out = io.StringIO()
    with Progress(2, "games", enabled=True, stream=out) as bar:
        bar.advance(2)
    assert out.getvalue().startswith("\rgames: [") and out.getvalue().endswith("\r\033[K")
    assert shown == []
