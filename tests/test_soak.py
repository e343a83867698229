"""tools/soak.py, the long soak run outside the suite, kept working here at a small
scale, and shown to catch what it is for: a broken undo or pickle, a server answering 500."""

import pickle

import victorus
from helpers import load_tool

soak = load_tool("soak")


def test_a_small_soak_finds_nothing(capsys):
    assert soak.main(["--steps", "3000", "--requests", "300", "--threads", "3"]) == 0
    report = capsys.readouterr().err
    assert "engine: 3,000 steps over 24 configurations" in report and "0 failures" in report
    assert "server: 300 requests from 3 threads" in report and "FAILED" not in report


def test_the_engine_soak_catches_a_broken_undo_and_pickle(monkeypatch):
    failures: list[str] = []
    monkeypatch.setattr(victorus.Game, "undo", lambda self: None)
    soak.soak_engine(2400, 0, 3000, failures, progress=False)
    assert any("undo + replay" in f for f in failures)
    monkeypatch.undo()
    failures.clear()
    monkeypatch.setattr(victorus.Game, "__reduce__",
                        lambda self: (victorus.Game, (self.board.name,)))
    soak.soak_engine(2400, 0, 3000, failures, progress=False)
    assert failures and all("pickle round trip differs" in f for f in failures)
    assert pickle.loads(pickle.dumps(victorus.Game())) == victorus.Game()


def test_the_server_soak_catches_a_500(monkeypatch):
    from victorus.page.server import Table
    failures: list[str] = []

    def broken(self, *args, **kwargs):
        raise RuntimeError("a bug")
    monkeypatch.setattr(Table, "record_text", broken)
    soak.soak_server(400, 2, 0, failures, progress=False)
    assert any("/api/record" in f and "status 500" in f for f in failures)
