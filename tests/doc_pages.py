"""The documentation's pages and their fenced blocks: the README and every page under docs/.

The tests that keep the documentation true (tests/test_readme*.py, tests/test_docs.py and the
feature tests that run a page's snippet) find a snippet by its language and a piece of its text,
wherever it lives, so a snippet can move between pages without its test changing.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"

#: A fenced block: the language after the opening fence (may be empty) and the text up to the closing one.
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", flags=re.M | re.S)


def pages() -> dict[str, str]:
    """Every page's text by its path from the repository root: the README first, then docs/ in order."""
    paths = [README, *sorted(DOCS.rglob("*.md"))]
    return {path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8") for path in paths}


def fenced(text: str) -> list[tuple[str, str]]:
    """The fenced blocks of one page, in order, as ``(language, text)``."""
    return FENCE.findall(text)


def all_blocks() -> list[tuple[str, str, str]]:
    """Every fenced block of every page, as ``(page, language, text)``."""
    return [(page, language, body) for page, text in pages().items() for language, body in fenced(text)]


def blocks(language: str, page: str | None = None) -> list[str]:
    """The blocks of ``language``, of one page or of every page."""
    return [body for where, lang, body in all_blocks() if lang == language and page in (None, where)]


def block(language: str, containing: str) -> str:
    """The one block of ``language``, on any page, that contains ``containing`` (shown on several pages, one text)."""
    (found,) = {body for body in blocks(language) if containing in body}
    return found


def page(name: str) -> str:
    """The text of one page (``README.md`` or ``docs/cli.md``)."""
    return pages()[name]


def documentation() -> str:
    """Every page's text, joined: for what must be said somewhere in the documentation."""
    return "\n".join(pages().values())
