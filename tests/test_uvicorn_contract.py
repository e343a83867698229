"""victorus serve extends uvicorn's HTTP/1.1 protocol class, which is not public API: the
names it relies on (server.UVICORN_PRIVATE) must be in the installed uvicorn, and the
installed uvicorn must be a release of the range pyproject.toml pins (the range tested).
When either fails, this test says which names or which version, loudly."""

import re
from pathlib import Path

import pytest

from victorus.page import server

uvicorn = pytest.importorskip("uvicorn")
PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:3])


def test_the_installed_uvicorn_has_every_private_name_the_server_extends():
    missing = server.uvicorn_contract_missing()
    assert missing == [], (f"uvicorn {uvicorn.__version__} lacks {missing}: victorus serve's "
                           f"_Connection (server.py) must be adapted to it before the pin in "
                           f"pyproject.toml admits it")


def test_the_check_names_what_is_missing(monkeypatch):
    """A uvicorn without one of the names is refused by name (not an AttributeError in the
    middle of a request)."""
    from uvicorn.protocols.http import h11_impl
    monkeypatch.delattr(h11_impl.H11Protocol, "send_400_response")
    assert server.uvicorn_contract_missing() == ["H11Protocol.send_400_response"]
    with pytest.raises(server.VictorusError, match="lacks H11Protocol.send_400_response"):
        server.Server(server.Table("compact", 2), "127.0.0.1", 0, worker=False)


def test_the_installed_uvicorn_is_within_the_pinned_range():
    text = PYPROJECT.read_text()
    pin = re.search(r'"uvicorn>=([0-9.]+),<([0-9.]+)"', text)
    assert pin, "pyproject.toml pins uvicorn to the releases tested: 'uvicorn>=A,<B'"
    low, high = _version(pin[1]), _version(pin[2])
    assert low <= _version(uvicorn.__version__) < high, (
        f"uvicorn {uvicorn.__version__} is outside the tested range {pin[1]}..<{pin[2]}")
