"""Read YAML, JSON and TOML into plain values that remember where each key and item was written.

Mappings become :class:`PosDict` and sequences :class:`PosList`: ordinary dicts
and lists with a ``mark`` (their own 1-based line and column) and ``marks`` (of
each key, or each item).  Nothing is executed or unpickled:

* YAML goes through a subclass of PyYAML's safe loader (the C one when
  available).  A tag the safe loader does not know, such as
  ``!!python/object/apply:os.system``, is refused with an error naming the tag
  and its line; no constructor for it exists, so nothing runs.
* JSON is first checked by :func:`json.loads` (its error messages carry the
  line), then read again by a small reader that records positions.
* TOML is read by :mod:`tomllib`, which reports no positions: lines are found
  by scanning the text for each key in document order.  A key is looked for
  forward from the previous key's line, so the line is right for ordinary
  layouts; a key repeated inside a multi-line array or string can be placed on
  an earlier occurrence of the same name.
"""

from __future__ import annotations

import bisect
import functools
import json
import json.decoder
import json.scanner
import re
import sys
import tomllib
from collections.abc import Hashable
from typing import TYPE_CHECKING

import yaml

from nblint.core.errors import InputError
from nblint.core.fileguard import MAX_DEPTH, check_nesting
from nblint.pipelines.calls import NO_MARK, Mark


class PosDict(dict):
    """A mapping with the position of the mapping (``mark``) and of each key (``marks``)."""

    def __init__(self, mark: Mark = NO_MARK):
        super().__init__()
        self.mark = mark
        self.marks: dict = {}


class PosList(list):
    """A sequence with the position of the sequence (``mark``) and of each item (``marks``)."""

    def __init__(self, mark: Mark = NO_MARK):
        super().__init__()
        self.mark = mark
        self.marks: list[Mark] = []


def read_documents(text: str, suffix: str) -> list:
    """The documents of a ``.yaml``/``.yml``, ``.json`` or ``.toml`` text, with positions.

    Raises
    ------
    InputError
        One line naming the problem and its line (malformed text, a refused YAML tag).
    """
    try:
        if suffix in (".yaml", ".yml"):
            return _read_yaml(text)
        if suffix == ".json":
            return [_read_json(text)]
        return [_read_toml(text)]
    except ValueError as exc:  # (Python refuses to convert integers of more than 4,300 digits)
        if "integer string conversion" not in str(exc):
            raise
        limit = sys.get_int_max_str_digits()
        raise InputError(f"an integer of more than {limit:,} digits: no parameter of a pipeline takes one") from None


# --------------------------------------------------------------------------- YAML


class UnsafeTag(yaml.YAMLError):
    """A tag the safe loader has no constructor for (``!!python/...`` and any local tag)."""

    def __init__(self, tag: str, mark):
        super().__init__(tag)
        self.tag = tag
        self.mark = mark


if TYPE_CHECKING:  # (one class for mypy: the two loaders share their interface)
    from yaml import SafeLoader as _SafeLoader
else:  # PyYAML's C loader where it was built with libyaml, else its Python one
    _SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _PositionLoader(_SafeLoader):
    """PyYAML's safe loader, building :class:`PosDict`/:class:`PosList` and refusing unknown tags."""

    def construct_undefined(self, node):
        raise UnsafeTag(node.tag, node.start_mark)


def _yaml_mark(node) -> Mark:
    return node.start_mark.line + 1, node.start_mark.column + 1


def _construct_mapping(loader, node):
    data = PosDict(_yaml_mark(node))
    yield data
    loader.flatten_mapping(node)
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, Hashable):
            raise UnsafeTag("an unhashable key", key_node.start_mark)
        data[key] = loader.construct_object(value_node)
        data.marks[key] = _yaml_mark(key_node)


def _construct_sequence(loader, node):
    data = PosList(_yaml_mark(node))
    yield data
    for child in node.value:
        data.append(loader.construct_object(child))
        data.marks.append(_yaml_mark(child))


_PositionLoader.add_constructor("tag:yaml.org,2002:map", _construct_mapping)
_PositionLoader.add_constructor("tag:yaml.org,2002:seq", _construct_sequence)
_PositionLoader.add_constructor(None, _PositionLoader.construct_undefined)


# A pipeline config is a few levels deep; this bound and MAX_DEPTH are far above any real one
# and far below what makes a parser recurse out of stack or an alias "billion laughs" explode.
MAX_EXPANDED_NODES = 1_000_000


def _check_yaml_shape(text: str) -> None:
    """Refuse YAML nested too deeply, or whose aliases add more than :data:`MAX_EXPANDED_NODES` values.

    The check walks the parser's event stream, which is flat (no recursion), so it runs
    before the composer and constructor, which recurse and expand aliases.  Each anchored
    node's expanded size is recorded when it ends, and each alias adds that size again:
    the total is the number of nodes the loaded document would have. What the text writes
    out itself is bounded by the size of the file (:mod:`nblint.core.fileguard`): only what
    aliases add beyond it counts against the bound.
    """
    depth = 0
    total = 0  # nodes of the loaded documents so far, each alias counted at its expanded size
    written = 0  # nodes written in the text (its size bounds them): the rest is what aliases add
    opened: list[tuple[str | None, int]] = []  # (anchor, total at its start) of each open collection
    expanded: dict[str, int] = {}
    try:
        for event in yaml.parse(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
            depth, total = _count_event(event, depth, total, opened, expanded)
            written += isinstance(event, (yaml.CollectionStartEvent, yaml.ScalarEvent))
            if total - written > MAX_EXPANDED_NODES:
                raise InputError(f"YAML aliases expand to more than {MAX_EXPANDED_NODES:,} values")
    except yaml.YAMLError as exc:
        # PyYAML >= 6.0.3 stops at its own depth limit (it may look ahead past ours).
        if "nesting depth" in str(exc):
            raise InputError("nested too deeply to read") from None
        raise


def _count_event(event, depth: int, total: int, opened: list, expanded: dict) -> tuple[int, int]:
    """One event of :func:`_check_yaml_shape`'s walk: the new depth and node total."""
    if isinstance(event, yaml.CollectionStartEvent):
        depth += 1
        if depth > MAX_DEPTH:
            raise InputError("nested too deeply to read")
        opened.append((event.anchor, total))
        total += 1
    elif isinstance(event, yaml.CollectionEndEvent):
        depth -= 1
        anchor, start = opened.pop()
        if anchor is not None:
            expanded[anchor] = total - start
    elif isinstance(event, yaml.ScalarEvent):
        total += 1
        if event.anchor is not None:
            expanded[event.anchor] = 1
    elif isinstance(event, yaml.AliasEvent):
        total += expanded.get(event.anchor, 1)
    return depth, total


def _read_yaml(text: str) -> list:
    try:
        _check_yaml_shape(text)
        return list(yaml.load_all(text, Loader=_PositionLoader))
    except UnsafeTag as exc:
        where = f"line {exc.mark.line + 1}"
        if exc.tag == "an unhashable key":
            raise InputError(f"invalid YAML at {where}: a mapping key must be a plain value") from None
        raise InputError(
            f"refused YAML tag {exc.tag!r} at {where}: nblint reads configs with a safe loader and never "
            "constructs Python objects from them"
        ) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = " ".join(str(exc.problem or exc.context or "malformed").split())
        raise InputError(f"invalid YAML{where}: {problem}") from None
    except yaml.YAMLError as exc:
        raise InputError(f"invalid YAML: {' '.join(str(exc).split())}") from None


# --------------------------------------------------------------------------- JSON

_WHITESPACE = re.compile(r"[ \t\n\r]*")
#: CPython's JSON string scanner (the one json.loads uses); typeshed's json.decoder stub does not list it.
_scanstring = json.decoder.scanstring  # type: ignore[attr-defined]
_CONSTANTS = {
    "null": None,
    "true": True,
    "false": False,
    "NaN": float("nan"),
    "Infinity": float("inf"),
    "-Infinity": float("-inf"),
}


def _read_json(text: str):
    check_nesting(text, "json")
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    reader = _JsonReader(text)
    return reader.value(reader.skip(0))[0]


class _JsonReader:
    """Re-reads JSON already validated by :func:`json.loads`, recording each key's and item's position."""

    def __init__(self, text: str):
        self.text = text
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def mark(self, index: int) -> Mark:
        line = bisect.bisect_right(self.line_starts, index)
        return line, index - self.line_starts[line - 1] + 1

    def skip(self, index: int) -> int:
        match = _WHITESPACE.match(self.text, index)
        assert match is not None  # (a pattern that matches the empty string matches anywhere)
        return match.end()

    def value(self, i: int):
        """The value starting at ``i`` and the index after it."""
        s = self.text
        char = s[i]
        if char == "{":
            return self.object(i)
        if char == "[":
            return self.array(i)
        if char == '"':
            return _scanstring(s, i + 1)
        for literal, constant in _CONSTANTS.items():
            if s.startswith(literal, i):
                return constant, i + len(literal)
        number = json.scanner.NUMBER_RE.match(s, i)
        assert number is not None  # json.loads accepted the text: what is no string or constant is a number
        integer, fraction, exponent = number.groups()
        if fraction or exponent:
            return float(integer + (fraction or "") + (exponent or "")), number.end()
        return int(integer), number.end()

    def object(self, i: int):
        data = PosDict(self.mark(i))
        i = self.skip(i + 1)
        while self.text[i] != "}":
            key_mark = self.mark(i)
            key, i = _scanstring(self.text, i + 1)
            i = self.skip(self.skip(i) + 1)  # past the colon
            data[key], i = self.value(i)
            data.marks[key] = key_mark
            i = self.skip(i)
            if self.text[i] == ",":
                i = self.skip(i + 1)
        return data, i + 1

    def array(self, i: int):
        data = PosList(self.mark(i))
        i = self.skip(i + 1)
        while self.text[i] != "]":
            data.marks.append(self.mark(i))
            item, i = self.value(i)
            data.append(item)
            i = self.skip(i)
            if self.text[i] == ",":
                i = self.skip(i + 1)
        return data, i + 1


# --------------------------------------------------------------------------- TOML


def _read_toml(text: str):
    check_nesting(text, "toml")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"invalid TOML: {' '.join(str(exc).split())}") from None
    return _TomlPositions(text.splitlines()).convert(data, (1, 1))


#: Lines the searches for keys out of document order may read, per line of the file.
TOML_SCAN_BUDGET = 8


@functools.lru_cache(maxsize=512)
def _toml_key_pattern(key: str) -> re.Pattern:
    quoted = "|".join(re.escape(q + key + q) for q in ('"', "'"))
    bare = re.escape(key) + "|" if re.fullmatch(r"[A-Za-z0-9_-]+", key) else ""
    return re.compile(rf"(?:^|[\s{{,\[.])(?P<key>{bare}{quoted})\s*(?:=|\]|\.)")


class _TomlPositions:
    """Finds the line of each key by scanning forward from the end of the previous key found.

    Keys come in document order, so the next key is nearly always a few lines on:
    the whole file is scanned about once.  A key not found forward is looked for
    from the top (tomllib merges a table written in two places).  All searches
    share a budget of :data:`TOML_SCAN_BUDGET` times the file's lines; once it is
    spent, a key takes its table's position.  So the time is linear whatever the
    file (10,000 tables took 96 s when every key could rescan the file).
    """

    def __init__(self, lines: list[str]):
        self.lines = lines
        self.cursor = (0, 0)  # (line index, column) where the next search starts
        self.budget = TOML_SCAN_BUDGET * (len(lines) + 1)  # lines the searches may still read

    def find(self, key: str, fallback: Mark) -> Mark:
        pattern = _toml_key_pattern(key)
        line, column = self.cursor
        found = self._search(pattern, range(line, len(self.lines)), column, line)
        if found is None:  # a key tomllib reordered: from the top
            found = self._search(pattern, range(line + 1), 0, -1)
        return fallback if found is None else found

    def _search(self, pattern, indices, column: int, first: int) -> Mark | None:
        for index in indices:
            self.budget -= 1
            if self.budget < 0:
                return None
            text = self.lines[index]
            if text.lstrip().startswith("#"):
                continue
            match = pattern.search(text, column if index == first else 0)
            if match:
                self.cursor = (index, match.end("key"))
                return index + 1, match.start("key") + 1
        return None

    def convert(self, value, mark: Mark):
        if isinstance(value, dict):
            data = PosDict(mark)
            for key, item in value.items():
                key_mark = self.find(key, mark)
                data[key] = self.convert(item, key_mark)
                data.marks[key] = key_mark
            return data
        if isinstance(value, list):
            # An item has no position of its own: a table's is that of its first key.
            items = PosList(mark)
            for item in value:
                converted = self.convert(item, mark)
                items.append(converted)
                first_key = next(iter(converted.marks.values()), mark) if isinstance(converted, PosDict) else mark
                items.marks.append(first_key)
            return items
        return value
