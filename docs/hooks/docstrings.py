"""An MkDocs hook: the Sphinx roles of nblint's docstrings shown as code on the API page.

The docstrings are numpydoc, written for ``help()`` and Sphinx alike, so they cross-reference
with roles (``:class:`~nblint.api.report.Report```). mkdocstrings renders the role's target as
code but leaves the role's name in front of it; this drops the name, and with ``~`` the module
path, as Sphinx would show them.
"""

from __future__ import annotations

import re

#: A role as rendered: ``:class:<code>~nblint.api.report.Report</code>``.
ROLE = re.compile(r":(?:class|func|meth|mod|attr|data|exc|obj):<code>(~?)([\w.]+)</code>")


def _shown(match: re.Match) -> str:
    tilde, target = match.groups()
    return f"<code>{target.rsplit('.', 1)[-1] if tilde else target}</code>"


def on_page_content(html: str, page, config, files) -> str:
    return ROLE.sub(_shown, html)
