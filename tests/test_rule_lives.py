"""A rule's life (status, since, renamed codes) and the code prefix each rule pack owns (issue 25 item 3).

The test packs are real packages written to a temporary folder and loaded the way the
registry loads an installed pack (an entry point's name and import name): the registry's
caches are emptied before and after each test, so no other test sees them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from nblint.cli import main
from nblint.core.version import __version__
from nblint.engine import STATUSES, PackError, left_to_packs, load_rules, registry

ROOT = Path(__file__).resolve().parent.parent
CUSTOMERS = str(ROOT / "examples" / "customers.csv")

RULE = '''
from nblint.engine import Rule
from nblint.engine.findings import Severity


class {cls}(Rule):
    """{summary}

    ## What it does
    Reports every table once.

    ## Why is this bad?
    It is a test.

    ## Severity
    Never an error.

    ## Example
    Any table.

    ## Use instead
    Nothing.
    """

    code = "{code}"
    name = "{name}"
    severity = Severity.INFO
    status = "{status}"
    since = "0.2.0"
    replaced_by = "{replaced_by}"

    def check(self, ctx):
        yield self.finding(ctx, "{name} ran")
'''


def write_pack(folder: Path, package: str, rules: list[dict], init: str = "") -> None:
    """A rule pack ``package`` in ``folder``: one module per rule (code, name, status, replaced_by)."""
    (folder / package).mkdir()
    (folder / package / "__init__.py").write_text(init)
    for index, rule in enumerate(rules):
        fields = {"status": "stable", "replaced_by": "", "summary": "A rule of a test pack.", **rule}
        (folder / package / f"r{index}.py").write_text(RULE.format(cls=f"Rule{index}", **fields))


@pytest.fixture
def packs(tmp_path, monkeypatch):
    """Install test packs: ``packs(("MP", "mp_pack"), ...)`` adds (entry point name, import name) after the built-in."""
    monkeypatch.syspath_prepend(str(tmp_path))
    builtin = registry._pack_entries()

    def install(*entries: tuple[str, str]) -> dict:
        monkeypatch.setattr(registry, "_pack_entries", lambda: [*builtin, *entries])
        _forget()
        return load_rules()

    _forget()
    yield install
    _forget()
    for name in [m for m in sys.modules if m.startswith(("mp_", "xp_", "np_"))]:
        del sys.modules[name]


def _forget() -> None:
    registry.forget_rules()


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def codes(result) -> list[str]:
    return sorted({f["code"] for f in json.loads(result.stdout)})


LIVES = [
    {"code": "MP101", "name": "mp-stable"},
    {"code": "MP102", "name": "mp-preview", "status": "preview"},
    {"code": "MP103", "name": "mp-deprecated", "status": "deprecated", "replaced_by": "MP101"},
    {"code": "MP104", "name": "mp-removed", "status": "removed", "replaced_by": "MP101"},
    {"code": "MP105", "name": "mp-renamed"},
]


@pytest.fixture
def lives(tmp_path, packs):
    """A pack with a rule of each status, and MP100 renamed MP105."""
    write_pack(tmp_path, "mp_pack", LIVES, init='RENAMED_CODES = {"MP100": "MP105"}\n')
    return packs(("MP", "mp_pack"))


# --------------------------------------------------------------------------- status and since


def test_every_builtin_rule_declares_its_status_and_since():
    """Declared on the rule's own class (not inherited), a known status, and a version nblint has had."""
    for code, rule in load_rules().items():
        assert "status" in vars(rule) and "since" in vars(rule), code
        assert rule.status in STATUSES, code
        # nblint has been 0.1.0 since its first commit (git log -G'__version__ = '): every rule since then
        assert rule.since == "0.1.0" == __version__, code


def test_rule_command_prints_status_and_since_and_json_lists_them():
    result = run("rule", "NB201")
    assert result.exit_code == 0
    assert "Status: stable, since 0.1.0." in result.stdout.splitlines()
    records = json.loads(run("rules", "--format", "json").stdout)
    assert {(r["status"], r["since"], r["replaced_by"]) for r in records} == {("stable", "0.1.0", "")}
    assert all("\nStatus: stable, since 0.1.0" in r["documentation"] for r in records)
    assert all(("\nStatus: stable, since 0.1.0.\n" in r["documentation"]) is not r["narrowed"] for r in records)
    # the SARIF log's help text (a golden file) has no status line: check output does not change
    assert "Status:" not in load_rules()["NB201"].documentation()


def test_preview_rules_run_only_when_selected_by_code_or_with_preview(lives):
    def ran(*args):
        result = run("check", CUSTOMERS, "--target", "churned", "--format", "json", *args)
        assert result.exit_code in (0, 1), result.output
        return [c for c in codes(result) if c.startswith("MP")]

    assert ran() == ["MP101", "MP103", "MP105"]  # ALL: not the preview rule, never the removed one
    assert ran("--select", "MP") == ["MP101", "MP103", "MP105"]  # nor by a prefix
    assert ran("--select", "MP102") == ["MP102"]  # by its code ...
    assert ran("--select", "mp-preview") == ["MP102"]  # ... or its name
    assert ran("--preview") == ["MP101", "MP102", "MP103", "MP105"]
    assert ran("--preview", "--ignore", "MP102") == ["MP101", "MP103", "MP105"]


def test_the_readme_rule_table_shows_a_status_other_than_stable(lives):
    from nblint.testing.rule_table import rule_table

    rows = rule_table([load_rules()[c] for c in ("MP101", "MP102")])
    assert "| MP101 | mp-stable | info |" in rows and "| MP102 | mp-preview (preview) | info |" in rows


def test_rules_lists_a_status_other_than_stable(lives):
    lines = {line.split()[0]: line for line in run("rules").stdout.splitlines()}
    assert lines["MP102"].endswith("A rule of a test pack. (preview)")
    assert lines["MP101"].endswith("A rule of a test pack.") and lines["NB101"].endswith(".")


def test_preview_from_the_config(lives, tmp_path):
    config = tmp_path / "nblint.toml"
    config.write_text('select = ["MP"]\npreview = true\n')
    result = run("check", CUSTOMERS, "--format", "json", "--config", str(config))
    assert codes(result) == ["MP101", "MP102", "MP103", "MP105"]
    assert codes(run("check", CUSTOMERS, "--format", "json", "--config", str(config), "--no-preview")) == [
        "MP101",
        "MP103",
        "MP105",
    ]
    config.write_text('preview = "yes"\n')
    result = run("check", CUSTOMERS, "--config", str(config))
    assert result.exit_code == 2 and "preview must be true or false, got 'yes'" in result.stderr


def test_a_deprecated_rule_runs_and_says_so_once(lives, tmp_path):
    other = tmp_path / "other.csv"
    other.write_text(Path(CUSTOMERS).read_text())
    result = run("check", CUSTOMERS, str(other), "--select", "MP103", "--format", "json")
    assert codes(result) == ["MP103"]
    warning = "warning: MP103 (mp-deprecated) is deprecated: Status: deprecated, since 0.2.0; use MP101 instead."
    assert result.stderr.splitlines() == [warning]  # once for the two files
    assert "Status: deprecated, since 0.2.0; use MP101 instead." in run("rule", "MP103").stdout


def test_a_narrowed_rule_says_what_moved_where_and_warns_when_named(tmp_path):
    """Issue 39 item 2: NB304 and NB306 left the groups they read as bits to NB307, under every model."""
    moved = "narrowed: one-hot and dummy groups are NB307's since 0.1.0"
    assert f"Status: stable, since 0.1.0; {moved}." in run("rule", "NB304").stdout.splitlines()
    records = {r["code"]: r for r in json.loads(run("rules", "--format", "json").stdout)}
    assert records["NB306"]["narrowed"] == [{"what": "one-hot and dummy groups", "to": "NB307", "since": "0.1.0"}]
    assert {code for code, r in records.items() if r["narrowed"]} == {"NB304", "NB306"}
    for written in ("NB304", "gaussian-binary"):  # named by its code or its name: one warning line
        result = run("check", CUSTOMERS, "--model", "gaussian", "--select", written, "--format", "json")
        assert result.stderr.splitlines() == [f"warning: NB304 (gaussian-binary) was {moved}"]
        found = json.loads(result.stdout)
        assert found and all(set(f["evidence"]) == {"binary"} for f in found)  # flags only: the groups are NB307's
    result = run("check", CUSTOMERS, "--model", "gaussian", "--select", "NB3", "--format", "json")
    assert result.stderr == "" and "NB307" in codes(result)  # a prefix names no rule: no warning


@pytest.mark.parametrize("written", ["MP104", "mp-removed"])
def test_selecting_a_removed_rule_is_refused_naming_its_replacement(lives, tmp_path, written):
    result = run("check", CUSTOMERS, "--select", written)
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "nblint check: error: --select: MP104 (mp-removed) was removed: Status: removed, since 0.2.0; "
        "use MP101 instead."
    ]
    config = tmp_path / "nblint.toml"
    config.write_text(f'ignore = ["{written}"]\n')
    result = run("check", CUSTOMERS, "--config", str(config))
    assert result.exit_code == 2 and "ignore: MP104 (mp-removed) was removed" in result.stderr
    assert "Traceback" not in result.output


def test_a_python_api_run_takes_preview_and_never_runs_a_removed_rule(lives):
    import nblint

    assert {f.code for f in nblint.check(CUSTOMERS, target="churned", select=["MP"])} == {"MP101", "MP103", "MP105"}
    chosen = nblint.check(CUSTOMERS, target="churned", select=["MP"], options={"preview": True})
    assert {f.code for f in chosen} == {"MP101", "MP102", "MP103", "MP105"}


# --------------------------------------------------------------------------- renamed codes


def test_a_renamed_code_selects_and_ignores_the_new_one_with_a_warning(lives, tmp_path):
    note = "warning: MP100 is renamed MP105: write MP105 (the old code still selects, ignores and suppresses it)"
    result = run("check", CUSTOMERS, "--select", "MP100", "--format", "json")
    assert codes(result) == ["MP105"] and result.stderr.splitlines() == [note]
    result = run("check", CUSTOMERS, "--select", "MP", "--ignore", "mp100", "--format", "json")
    assert codes(result) == ["MP101", "MP103"] and note in result.stderr
    config = tmp_path / "nblint.toml"
    config.write_text('select = ["MP100"]\n[per-file-ignores]\n"nothing.csv" = ["MP100"]\n')
    result = run("check", CUSTOMERS, "--format", "json", "--config", str(config))
    assert codes(result) == ["MP105"] and result.stderr.splitlines() == [note]
    result = run("rule", "MP100")
    assert result.stdout.startswith("# mp-renamed (MP105)") and result.stderr.splitlines() == [note]


def test_a_renamed_code_in_a_suppression_comment_suppresses_the_new_one(tmp_path, packs):
    """A pipeline rule renamed: ``# nblint: ignore[OLD]`` and ``# noqa: OLD`` act on the new code, with a warning."""
    (tmp_path / "xp_pack").mkdir()
    (tmp_path / "xp_pack" / "__init__.py").write_text('RENAMED_CODES = {"XP500": "XP501"}\n')
    (tmp_path / "xp_pack" / "rule.py").write_text(
        RULE.format(
            cls="EveryModel", code="XP501", name="xp-every-model", status="stable", replaced_by="", summary="Any model."
        )
        .replace("severity = Severity.INFO", 'severity = Severity.INFO\n    inputs = ("pipeline",)')
        .replace('yield self.finding(ctx, "xp-every-model ran")', 'yield self.finding(ctx, "a model", line=3)')
    )
    packs(("XP", "xp_pack"))
    config = tmp_path / "pipe.py"
    body = "from sklearn.naive_bayes import BernoulliNB\nfrom sklearn.pipeline import make_pipeline\n"
    for comment, suppressed in [("", False), ("  # nblint: ignore[XP500]", True), ("  # noqa: XP500", True)]:
        config.write_text(body + f"pipe = make_pipeline(BernoulliNB()){comment}\n")
        result = run("check", str(config), "--select", "XP", "--format", "json")
        assert codes(result) == ([] if suppressed else ["XP501"]), (comment, result.output)
        expected = [f"{config}:3: warning: XP500 is renamed XP501: write XP501"] if suppressed else []
        assert [line.split(" (the old")[0] for line in result.stderr.splitlines()] == expected


# --------------------------------------------------------------------------- each pack owns its prefix


def test_a_pack_owns_the_prefix_its_entry_point_names(tmp_path, packs):
    write_pack(tmp_path, "mp_pack", [{"code": "MP101", "name": "mp-one"}])
    assert "MP101" in packs(("MP", "mp_pack"))
    prefixes = {pack.module: (pack.prefix, pack.declared) for pack in registry.loaded_packs()}
    assert prefixes == {"nblint_rules": ("NB", "built in"), "mp_pack": ("MP", "its entry point")}


def test_a_code_outside_the_pack_prefix_is_an_error(tmp_path, packs):
    write_pack(tmp_path, "mp_pack", [{"code": "MP101", "name": "mp-one"}, {"code": "QQ101", "name": "qq-one"}])
    with pytest.raises(
        PackError, match=r"code QQ101 is outside the prefix 'MP' the pack owns \(from its entry point\)"
    ):
        packs(("MP", "mp_pack"))


def test_a_prefix_from_code_prefix_or_from_the_codes(tmp_path, packs):
    write_pack(tmp_path, "mp_pack", [{"code": "MP101", "name": "mp-one"}], init='CODE_PREFIX = "MPX"\n')
    with pytest.raises(PackError, match=r"code MP101 is outside the prefix 'MPX' the pack owns \(from CODE_PREFIX\)"):
        packs(("mp_pack", "mp_pack"))
    write_pack(tmp_path, "np_pack", [{"code": "NB901", "name": "np-one"}, {"code": "NB902", "name": "np-two"}])
    packs(("np_pack", "np_pack"))  # an entry point named like a package: the codes' common start
    assert registry.loaded_packs()[-1].prefix == "NB90"


def test_a_pack_whose_prefix_holds_builtin_codes_is_an_error(tmp_path, packs):
    """The built-in pack owns NB: a pack claiming NB1 (or NB, or N) would take NB101 and its neighbours."""
    write_pack(tmp_path, "np_pack", [{"code": "NB199", "name": "np-one"}])
    with pytest.raises(PackError) as caught:
        packs(("NB1", "np_pack"))
    assert str(caught.value) == (
        "rule pack 'np_pack' owns the code prefix 'NB1' (from its entry point), but the built-in pack has "
        "NB101, NB102, NB103 inside it: each pack's codes start with a prefix of its own"
    )


def test_a_builtin_code_inside_a_pack_prefix_is_an_error(tmp_path, packs, monkeypatch):
    """A pack owning NB9 (left to packs): a built-in NB9xx code would clash, so the registry refuses it."""
    write_pack(tmp_path, "np_pack", [{"code": "NB901", "name": "np-one"}])
    packs(("NB9", "np_pack"))  # fine: no built-in code starts with NB9
    builtin = [code for code, rule in load_rules().items() if rule.__module__.startswith("nblint_rules.")]
    assert left_to_packs() == "NB9" and len(builtin) > 30 and not any(code.startswith("NB9") for code in builtin)
    rule = load_rules()["NB101"]
    monkeypatch.setattr(rule, "code", "NB907")
    with pytest.raises(PackError, match="built-in codes never start with NB9, which is left to third-party packs"):
        packs(("NB9", "np_pack"))


def test_two_packs_with_overlapping_prefixes_are_an_error(tmp_path, packs):
    write_pack(tmp_path, "mp_pack", [{"code": "MP101", "name": "mp-one"}])
    write_pack(tmp_path, "xp_pack", [{"code": "MPQ101", "name": "xp-one"}])
    with pytest.raises(PackError, match="'mp_pack' owns the code prefix 'MP' .* rule pack 'xp_pack' has MPQ101"):
        packs(("MP", "mp_pack"), ("MPQ", "xp_pack"))


def test_a_broken_pack_is_one_error_line_exit_2(tmp_path):
    """Installed as pip installs it (a dist-info with its entry point): ``nblint check`` says why, no traceback."""
    write_pack(tmp_path, "mp_pack", [{"code": "QQ101", "name": "qq-one"}])
    info = tmp_path / "mp_pack-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: mp-pack\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[nblint.rules]\nMP = mp_pack\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    result = subprocess.run(
        [sys.executable, "-m", "nblint", "check", CUSTOMERS], env=env, capture_output=True, text=True, cwd=tmp_path
    )
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "nblint: error: rule Rule0 of pack 'mp_pack': code QQ101 is outside the prefix 'MP' the pack owns "
        "(from its entry point)"
    ]


def test_renamed_codes_must_lead_to_a_rule(tmp_path, packs):
    write_pack(tmp_path, "mp_pack", [{"code": "MP101", "name": "mp-one"}], init='RENAMED_CODES = {"MP100": "MP199"}\n')
    with pytest.raises(PackError, match="MP100 is renamed MP199, which no pack defines"):
        packs(("MP", "mp_pack"))
