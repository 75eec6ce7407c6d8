"""Every mutant (a deliberately broken rule) is caught, with its golden counterexample.

Regenerate the golden files with ``LOVEFORMAL_REGEN_GOLDEN=1 pytest tests/proofs`` or
``.venv/bin/python -m loveformal.proofs.mutants --write tests/proofs/golden``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from loveformal.proofs.mutants import MUTANTS, Mutant, golden_path, golden_text, run

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.name for m in MUTANTS])
def test_mutant_is_caught(mutant: Mutant) -> None:
    results = run(mutant)
    failed = {r.invariant for r in results if r.status == "counterexample"}
    assert mutant.expected in failed, f"{mutant.name} not caught by {mutant.expected}"
    assert not [r for r in results if r.status in ("vacuous", "unknown")]
    text = golden_text(mutant, results)
    path = golden_path(GOLDEN, mutant)
    if os.environ.get("LOVEFORMAL_REGEN_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text
