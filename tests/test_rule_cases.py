"""Every rule's case file (tests/rule_cases/CODE.yaml) run by one parametrised test.

The case format and its runner are :mod:`nblint.testing.cases`, which third-party
rule packs use the same way. Each failing case's findings are also compared in full
(message, evidence, columns, rows, severity, fix) with their snapshot,
tests/rule_cases/snapshots/CODE.json (set NBLINT_UPDATE_GOLDEN=1 to rewrite, as tests/golden).
"""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path

import pytest

from nblint import testing

FOLDER = Path(__file__).parent / "rule_cases"
SNAPSHOTS = FOLDER / "snapshots"
CASES = testing.load_cases(FOLDER)


def test_every_case_file_is_named_after_its_rule():
    for path in sorted(FOLDER.glob("*.yaml")):
        assert {case.rule for case in CASES if case.source == str(path)} == {path.stem}


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_rule_case(case, tmp_path):
    findings = testing.case_findings(case, tmp_path)
    testing.check_case(case, tmp_path, findings)
    if case.spec["expect"] == "fail":
        from nblint.engine import load_rules

        # (the contract's messages-caseN check, on this run: tests/test_contract.py runs it again in the slow set)
        testing.check_messages_of_case(load_rules()[case.rule], case, tmp_path, findings)
        check_snapshot(case, findings, tmp_path)


def check_snapshot(case, findings: list[dict], folder: Path) -> None:
    """The case's findings are its snapshot's, in full (a config case's file named without its folder)."""
    text = json.dumps(findings, sort_keys=True).replace(json.dumps(str(folder))[1:-1] + os.sep, "")
    found = json.loads(text)
    path = SNAPSHOTS / f"{case.rule}.json"
    key = case.id.removeprefix(f"{case.rule}-")
    if os.environ.get("NBLINT_UPDATE_GOLDEN"):
        SNAPSHOTS.mkdir(exist_ok=True)
        lock = os.open(SNAPSHOTS, os.O_RDONLY)  # (xdist's workers write the same files: one at a time)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX)
            known = json.loads(path.read_text()) if path.exists() else {}
            known[key] = found
            path.write_text(json.dumps(dict(sorted(known.items())), indent=1, sort_keys=True) + "\n")
        finally:
            os.close(lock)
        return
    known = json.loads(path.read_text()) if path.exists() else {}
    assert key in known, f"no snapshot of {case.id} in {path} (run with NBLINT_UPDATE_GOLDEN=1)"
    assert found == known[key]


def test_every_snapshot_is_a_failing_case():
    failing = {(case.rule, case.id.removeprefix(f"{case.rule}-")) for case in CASES if case.spec["expect"] == "fail"}
    for path in sorted(SNAPSHOTS.glob("*.json")):
        stale = set(json.loads(path.read_text())) - {key for rule, key in failing if rule == path.stem}
        assert not stale, f"{path.name} has snapshots of no failing case: {sorted(stale)}"
    assert {path.stem for path in SNAPSHOTS.glob("*.json")} == {rule for rule, _ in failing}
