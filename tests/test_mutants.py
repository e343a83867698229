"""The mutation-testing list (tools/mutants.py) is well-formed and current: every mutant's
original text occurs exactly once in its implementation (none would be stale after a
refactor, several ambiguous), every ruling that has code has a mutant in every
implementation that carries it, and docs/testing.md's table is the list's. Cheap: nothing
is built or run; ``python tools/mutate.py`` does that."""

from pathlib import Path

import pytest

from helpers import load_tool

ROOT = Path(__file__).resolve().parents[1]
mutate = load_tool("mutate")
MUTANTS = mutate.MUTANTS
mutants = load_tool("mutants")
CARRIERS, NO_RULING = mutants.CARRIERS, mutants.NO_RULING


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.id for m in MUTANTS])
def test_mutant_applies_exactly_once(mutant):
    status, _, count = mutate.locate(ROOT, mutant)
    assert status == "ok", f"{mutant.id}: {status} ({count} occurrences of its original text)"


def test_mutants_are_well_formed():
    ids = [m.id for m in MUTANTS]
    assert len(ids) == len(set(ids))
    for m in MUTANTS:
        assert m.impl in mutate.IMPLEMENTATIONS, m.id
        assert m.original != m.replacement and m.description and m.tests, m.id
        # a mutant of learning or of a search's choice breaks no ruling; every other one some
        assert bool(m.rulings) != (m.impl in NO_RULING), m.id
        assert all(1 <= n <= 40 for n in m.rulings), m.id
        for selection in m.tests:
            path, _, name = selection.partition("::")
            assert (ROOT / path).is_file(), f"{m.id}: {path}"
            assert not name or f"def {name}(" in (ROOT / path).read_text(), f"{m.id}: {selection}"


def test_every_ruling_has_a_mutant_in_every_implementation_carrying_it():
    assert sorted(CARRIERS) == list(range(1, 41))
    have = {(n, m.impl) for m in MUTANTS for n in m.rulings}
    missing = [(n, impl) for n, impls in CARRIERS.items() for impl in impls if (n, impl) not in have]
    assert not missing


def test_testing_doc_table_is_current():
    doc = (ROOT / "docs" / "testing.md").read_text()
    assert mutate.table() in doc, "run: python tools/mutate.py --doc"
