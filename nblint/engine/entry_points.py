"""The entry points of one group, read from the metadata files of the distributions on ``sys.path``.

What ``importlib.metadata.entry_points(group=...)`` gives, in its order, without its
objects for every installed distribution: each ``nblint`` process looks for rule packs,
and on an environment of 160 distributions the standard call took 15-30 ms of it. Here
the ``*.dist-info`` and ``*.egg-info`` directories of each ``sys.path`` entry are listed
(the first of each normalised name wins, as there), and only the ``entry_points.txt``
files that mention the group are parsed. Where the standard call may see more (a
``sys.path`` entry that is an archive, a finder other than the path finder that lists
distributions), it is the standard call that answers.
"""

from __future__ import annotations

import os
import re
import sys


def entry_points(group: str) -> list[tuple[str, str]]:
    """(name, value) of every entry point of ``group``, in ``importlib.metadata``'s order."""
    if not _paths_only():
        from importlib.metadata import entry_points as standard

        return [(ep.name, ep.value) for ep in standard(group=group)]
    found: list[tuple[str, str]] = []
    seen: set[str] = set()
    for root in sys.path:
        for name, info in _infos(root):
            if name in seen:
                continue
            seen.add(name)
            found += _group_entries(os.path.join(root, info, "entry_points.txt"), group)
    return found


def _paths_only() -> bool:
    """Whether every distribution ``importlib.metadata`` would find is in a directory on ``sys.path``."""
    from importlib.machinery import PathFinder

    others = [f for f in sys.meta_path if f is not PathFinder and hasattr(f, "find_distributions")]
    return not others and not any(os.path.isfile(root) for root in sys.path)


def _infos(root: str) -> list[tuple[str, str]]:
    """(normalised name, directory) of the metadata directories of ``root``, by name in order of first listing."""
    try:
        children = os.listdir(root or ".")
    except OSError:
        return []
    by_name: dict[str, list[str]] = {}
    for child in children:
        low = child.lower()
        if low.endswith((".dist-info", ".egg-info")):
            name = low.rpartition(".")[0].partition("-")[0]
            by_name.setdefault(_normalize(name), []).append(child)
    return [(name, info) for name, infos in by_name.items() for info in infos]


def _normalize(name: str) -> str:
    """PEP 503's normalised name, dashes as underscores (as ``importlib.metadata`` compares them)."""
    if name.islower() and "-" not in name and "." not in name and "__" not in name:
        return name  # (a wheel's directory name is normalised already: no substitution to make, ~0.5 ms of 180)
    return re.sub(r"[-_.]+", "-", name).lower().replace("-", "_")


def _group_entries(path: str, group: str) -> list[tuple[str, str]]:
    """The ``name = value`` lines of the ``[group]`` section of one ``entry_points.txt``."""
    if not os.access(path, os.R_OK):  # (most distributions declare no entry point: a failed open raises, this does not)
        return []
    try:
        with open(path, "rb") as handle:  # (bytes: only a file that names the group is decoded)
            data = handle.read()
    except OSError:
        return []
    if group.encode("utf-8") not in data:
        return []
    text = data.decode("utf-8")
    entries = []
    section = None
    for line in map(str.strip, text.splitlines()):
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line.strip("[]")
        elif section == group:
            name, _, value = line.partition("=")
            entries.append((name.strip(), value.strip()))
    return entries
