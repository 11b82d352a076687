"""Running the pipeline rules over the pipelines read from one file (or one live object).

Reading is :mod:`nblint.pipelines.configs`' (which files, their pipelines, their suppression
comments); here each pipeline spec is linted, findings said twice are kept once, suppressed
ones are left out, and a notebook's findings are located by cell.
"""

from __future__ import annotations

from nblint.engine import Finding, resolved_options, run_rules
from nblint.pipelines.configs import ConfigFile
from nblint.pipelines.context import PipelineContext
from nblint.pipelines.flow import undecided_message
from nblint.pipelines.notebook import CellMap
from nblint.pipelines.spec import PipelineSpec


def _in_cells(finding: Finding, cells: CellMap) -> Finding:
    """A finding on a line of a notebook's joined code, located by cell and line within the cell instead."""
    if finding.line is None:
        return finding
    finding.cell, finding.line = cells.locate(finding.line)
    finding.file_line = cells.file_lines.get((finding.cell, finding.line))
    for key in ("step_line", "model_line"):
        value = finding.evidence.get(key)
        if isinstance(value, int):
            cell, finding.evidence[key] = cells.locate(value)
            finding.evidence[key.replace("_line", "_cell")] = cell
    return finding


def lint_specs(
    specs: list[PipelineSpec], codes: list[str], rule_options: dict | None = None, config: ConfigFile | None = None
) -> list[Finding]:
    """Run the enabled pipeline rules on every spec; identical findings once, suppressed ones left out.

    Parameters
    ----------
    specs : list of PipelineSpec
        The pipelines of one file (or one live object).
    codes : list of str
        The enabled rule codes (table rules among them are not run).
    rule_options : dict, optional
        Configured options per rule code; defaults fill the rest.
    config : ConfigFile, optional
        The file the specs come from, for its ``# nblint: ignore`` comments.

    Returns
    -------
    list of Finding
        Sorted by path, line and code.
    """
    options = resolved_options(rule_options)
    found = [finding for spec in specs for finding in run_rules(PipelineContext(spec, options), codes, options)]
    # A finding said for certain (a model's alpha=0 where the model is written) makes the same finding on
    # an undecided branch of a helper call (the same model as that call may return it) redundant.
    certain = {(f.code, f.line, f.message) for f in found if "undecided_branch" not in f.evidence}
    findings: list[Finding] = []
    seen = set()
    for finding in found:
        where = finding.evidence.get("undecided_branch")
        key = (finding.code, finding.line, finding.message)
        if where is not None and (finding.code, finding.line, _said_for_certain(finding.message, where)) in certain:
            continue
        if key not in seen and not (config is not None and config.suppressed(finding)):
            seen.add(key)
            findings.append(finding if config is None or config.cells is None else _in_cells(finding, config.cells))
    findings.sort(key=Finding.sort_key)
    return findings


def _said_for_certain(message: str, where: str) -> str:
    """The message an undecided-branch finding would have had on a branch the call decides."""
    return message.removesuffix(undecided_message("", where))
