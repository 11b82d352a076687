"""Configuration: ``[tool.nblint]`` in ``pyproject.toml`` or a ``nblint.toml``.

The configuration for a checked file is found by walking up from the file's
folder to the first ``nblint.toml``, or ``pyproject.toml`` with a ``[tool.nblint]``
table (``--config FILE`` overrides the search).  Keys::

    [tool.nblint]                 # in nblint.toml: top level, no [tool.nblint]
    target = "label"              # the class column
    text = "body"                 # a column of documents, linted as its word counts
    test = "data/test.csv"        # the test or serving table, compared with the training one (NB6xx)
    model = "bernoulli"           # bernoulli | multinomial | complement | gaussian | categorical
    alpha = 1.0                   # the model's smoothing, when known (0 = none: zero counts veto)
    select = ["NB1", "NB2"]       # codes or prefixes; "ALL" by default
    ignore = ["NB104"]
    preview = false               # true: run the rules in preview too (one selected by its code always runs)
    fail-on = "warning"           # info | warning | error
    encoding = "utf-8"            # of CSV/TSV files
    memory-budget = "4GB"         # the most a table's statistics may take (default: a quarter of the memory)

    [tool.nblint.columns]         # declared kinds win over inference (names or globs)
    season = "categorical"        # binary | categorical | count | continuous | identifier | constant
    "pixel_*" = "count"

    [tool.nblint.per-file-settings."data/train_*.csv"]
    target = "y"                  # target, model, text and/or test for files matching the glob
    model = "categorical"

    [tool.nblint.per-file-ignores]
    "data/legacy/*.csv" = ["NB105"]

    [tool.nblint.NB104]           # a rule's options (see `nblint rule NB104`)
    vif-threshold = 5.0

Globs are matched against the file's path relative to the config file's folder
(``*`` crosses folders; a glob without ``/`` also matches the file name alone).
Keys and rule options may be written in kebab-case or snake_case (``fail-on`` or
``fail_on``, ``vif-threshold`` or ``vif_threshold``); a model may be named by its
class (``BernoulliNB``).
"""

from __future__ import annotations

import fnmatch
import os
import sys
from typing import Any

from nblint.core.errors import ConfigError, InputError
from nblint.core.records import Record
from nblint.core.runkeys import RUN_KEYS
from nblint.engine import load_rules, select_rules, selection_notes, validate_codes
from nblint.engine.findings import Severity

TOP_KEYS = {
    "target",
    "text",
    "test",
    "model",
    "alpha",
    "select",
    "ignore",
    "fail-on",
    "encoding",
    "columns",
    "per-file-settings",
    "per-file-ignores",
    "memory-budget",
    "preview",
}
PER_FILE_KEYS = {"target", "model", "text", "test"}


class FileSettings(Record):
    """A checked file's settings: the configuration's, with its per-file settings and the command line's applied.

    Not to be confused with a rule's option values (:attr:`nblint.engine.Rule.option_values`) or the
    analysis settings, the shared options the analyses read (:class:`nblint.engine.settings.AnalysisSettings`).
    Equal, hashed and shown by their fields; :meth:`replace` makes a copy with some changed.

    (Written out on :class:`~nblint.core.records.Record` rather than as a dataclass: its generated methods
    cost a first check ~1 ms to exec.)
    """

    __slots__ = (
        "target",
        "text",
        "test",
        "test_named_by",
        "test_line",
        "unknown_raises",
        "unknown_planned",
        "min_categories",
        "model",
        "alpha",
        "select",
        "ignore",
        "preview",
        "fail_on",
        "encoding",
        "memory_budget",
        "per_file_settings",
        "per_file_ignores",
        "rule_options",
        "kinds",
        "root",
        "source",
    )

    def __init__(
        self,
        *,
        target: str | None = None,
        text: str | None = None,
        test: str | None = None,
        test_named_by: str | None = None,
        test_line: int | None = None,
        unknown_raises: dict[str, str] | None = None,
        unknown_planned: frozenset[str] = frozenset(),
        min_categories: Any = None,
        model: str | None = None,
        alpha: float | None = None,
        select: list[str] | None = None,
        ignore: list[str] | None = None,
        preview: bool = False,
        fail_on: Severity = Severity.WARNING,
        encoding: str = "utf-8",
        memory_budget: int | None = None,
        per_file_settings: list[tuple[str, dict[str, Any]]] | None = None,
        per_file_ignores: list[tuple[str, list[str]]] | None = None,
        rule_options: dict[str, dict[str, Any]] | None = None,
        kinds: dict[str, str] | None = None,
        root: str = ".",
        source: str | None = None,
    ) -> None:
        self.target = target
        #: A column of documents to lint as word counts (``--text``; :mod:`nblint.readers.text`).
        self.text = text
        #: The test (or serving) table the training table is compared with (``--test``; :mod:`nblint.run.pairing`).
        self.test = test
        #: The configuration file that names ``test`` (its path is then joined to the file's folder and
        #: confined as a spec's ``data:`` is, :mod:`nblint.run.confine`); None: given on the command line.
        self.test_named_by = test_named_by
        #: The line of the spec that names ``test`` (a spec's ``test:``), for its error lines.
        self.test_line = test_line
        #: Columns whose encoder in the spec naming the table raises on an unseen level -> that encoder (NB601).
        self.unknown_raises: dict[str, str] = {} if unknown_raises is None else unknown_raises
        #: Columns whose encoder in that spec has a plan for unseen levels (known not to raise).
        self.unknown_planned = unknown_planned
        #: A declared CategoricalNB's ``min_categories`` (a spec's or a live pipeline's), where one is known.
        self.min_categories = min_categories
        self.model = model
        self.alpha = alpha
        self.select: list[str] = ["ALL"] if select is None else select
        self.ignore: list[str] = [] if ignore is None else ignore
        #: Run the rules in preview too (``--preview``, ``preview = true``); a preview rule selected by its code runs anyway.
        self.preview = preview
        self.fail_on = fail_on
        self.encoding = encoding
        #: Bytes a table's statistics may take (None: nblint.core.resources's default, a share of the machine's memory).
        self.memory_budget = memory_budget
        self.per_file_settings: list[tuple[str, dict[str, Any]]] = (
            [] if per_file_settings is None else per_file_settings
        )
        self.per_file_ignores: list[tuple[str, list[str]]] = [] if per_file_ignores is None else per_file_ignores
        self.rule_options: dict[str, dict[str, Any]] = {} if rule_options is None else rule_options
        #: Declared column kinds: column name or glob -> kind (``[tool.nblint.columns]``).
        self.kinds: dict[str, str] = {} if kinds is None else kinds
        self.root = root
        self.source = source  # the config file these came from

    def replace(self, **changes: Any) -> FileSettings:
        """A copy with ``changes`` (field name -> value), the other fields shared, as :func:`dataclasses.replace` made.

        Raises
        ------
        TypeError
            Naming a change that is no field.
        """
        unknown = set(changes).difference(self.__slots__)
        if unknown:
            raise TypeError(f"FileSettings has no field {sorted(unknown)[0]!r}")
        return FileSettings(**{name: changes.get(name, getattr(self, name)) for name in self.__slots__})

    def for_file(self, path: str) -> FileSettings:
        """Apply the per-file settings whose glob matches ``path``."""
        resolved = self.replace()
        for pattern, values in self.per_file_settings:
            if _matches(pattern, path, self.root):
                resolved = resolved.replace(**values)
        return resolved

    def ignored_for(self, path: str) -> list[str]:
        codes: list[str] = []
        for pattern, ignore in self.per_file_ignores:
            if _matches(pattern, path, self.root):
                codes += ignore
        return codes

    def enabled_codes(self, path: str) -> list[str]:
        return select_rules(load_rules(), self.select, self.ignore + self.ignored_for(path), self.preview)

    def selection_notes(self, path: str) -> list[str]:
        """Warning lines for the renamed codes these settings name and the deprecated rules they run."""
        return selection_notes(load_rules(), self.select, self.ignore + self.ignored_for(path), self.preview)


#: The former name of :class:`FileSettings`, kept for code that imports it (``pandera``'s functions took it).
Settings = FileSettings


def _matches(pattern: str, path: str, root: str) -> bool:
    if path in ("-", "<dataframe>"):
        return False
    relative = os.path.relpath(os.path.abspath(path), os.path.abspath(root)).replace(os.sep, "/")
    if fnmatch.fnmatch(relative, pattern):
        return True
    return "/" not in pattern and fnmatch.fnmatch(os.path.basename(path), pattern)


def find_config(start: str) -> str | None:
    """The nearest ``nblint.toml`` or ``pyproject.toml`` with ``[tool.nblint]`` above ``start``."""
    folder = os.path.abspath(start if os.path.isdir(start) else os.path.dirname(start) or ".")
    while True:
        candidate = os.path.join(folder, "nblint.toml")
        if os.path.isfile(candidate):
            return candidate
        candidate = os.path.join(folder, "pyproject.toml")
        if os.path.isfile(candidate) and _has_tool_table(candidate):
            return candidate
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def _has_tool_table(path: str) -> bool:
    """Whether a pyproject.toml has ``[tool.nblint]``; True when it cannot be read (load_config says why)."""
    try:
        tool = _read_toml(path).get("tool", {})
        return not isinstance(tool, dict) or "nblint" in tool
    except ConfigError:
        return True


def load_config(path: str) -> FileSettings:
    """Read and validate one config file.

    Raises
    ------
    ConfigError
        Naming the file and the offending key.
    """
    data = _read_toml(path)
    tool = data.get("tool")
    # a pyproject.toml, or any file given with --config that holds a [tool.nblint] table (a copy of a
    # pyproject.toml, a shared settings file): its table; a bare nblint.toml's keys are top level
    if os.path.basename(path) == "pyproject.toml" or (isinstance(tool, dict) and "nblint" in tool):
        if tool is not None and not isinstance(tool, dict):
            raise ConfigError(f"'tool' must be a table ([tool.nblint]), got {_shown(tool)}")
        table = (tool or {}).get("nblint", {})
        if not isinstance(table, dict):
            raise ConfigError(f"'tool.nblint' must be a table ([tool.nblint]), got {_shown(table)}")
        prefix = "tool.nblint"
    else:
        table = data
        prefix = ""
    return parse_settings(table, root=os.path.dirname(os.path.abspath(path)), prefix=prefix, source=path)


def _shown(value: Any) -> str:
    """A config value as an error line shows it: its type, and its start when it is short text or a number."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return "a very long integer"
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        text = repr(value)
        return text if len(text) <= 40 else f"{type(value).__name__} {text[:37]}..."
    return type(value).__name__


def _read_toml(path: str) -> dict:
    """A config file's TOML: a regular file, within a size and a nesting depth (:mod:`nblint.core.fileguard`)."""
    import tomllib  # (here, as the file guards: the API's settings come from arguments, not files)

    from nblint.core.fileguard import check_nesting, read_limited

    try:
        text = read_limited(path).decode("utf-8")
        text = text.removeprefix("\ufeff")  # (a byte order mark, as some Windows editors write)
        check_nesting(text, "toml")
        return tomllib.loads(text)
    except InputError as exc:
        raise ConfigError(f"cannot read config: {exc}") from None
    except UnicodeDecodeError:
        raise ConfigError("cannot read config: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"invalid TOML: {exc}") from None
    except ValueError as exc:  # (Python refuses to convert integers of more than 4,300 digits)
        if "integer string conversion" not in str(exc):
            raise
        raise ConfigError(f"invalid config: an integer of more than {sys.get_int_max_str_digits():,} digits") from None


def parse_settings(table: dict[str, Any], root: str = ".", prefix: str = "", source: str | None = None) -> FileSettings:
    """Validate a config table into :class:`FileSettings` (keys as in the module docstring).

    The rules are loaded (every rule of every pack) only for a key that is none of :data:`TOP_KEYS` (a rule's
    options, or a mistake) and for the lists of codes: settings of the run alone import no rule.
    """

    def key(name: str) -> str:
        return f"{prefix}.{name}" if prefix else name

    settings = FileSettings(root=root, source=source)
    table = kebab_keys(table, TOP_KEYS, prefix)
    for name, value in table.items():
        if name in TOP_KEYS:  # (no rule code is one: codes are upper case)
            continue
        rules = load_rules()
        if name in rules:
            settings.rule_options[name] = _rule_options(rules[name], value, key(name))
        else:
            from nblint.core.suggest import did_you_mean  # (an error's hint)

            hint = (
                " (rule codes are upper case, e.g. NB104)"
                if name.upper() in rules
                else did_you_mean(name, sorted(TOP_KEYS))
            )
            raise ConfigError(f"unknown key {key(name)!r}{hint}")
    for name in ("target", "text", "model", "alpha"):
        if name in table:
            setattr(settings, name, run_key(table, name, key(name)))
    if "test" in table:
        settings.test = _beside(root, run_key(table, "test", key("test")))
        settings.test_named_by = source
    settings.encoding = _string(table, "encoding", key, settings.encoding)
    for name in ("select", "ignore"):
        if name in table:
            codes = _string_list(table[name], key(name))
            try:
                validate_codes(codes, load_rules(), key(name))
            except ValueError as exc:
                raise ConfigError(str(exc)) from None
            setattr(settings, name, codes)
    if "preview" in table:
        if not isinstance(table["preview"], bool):
            raise ConfigError(f"{key('preview')} must be true or false, got {table['preview']!r}")
        settings.preview = table["preview"]
    if "memory-budget" in table:
        settings.memory_budget = run_key(table, "memory-budget", key("memory-budget"))
    if "fail-on" in table:
        try:
            settings.fail_on = Severity.parse(table["fail-on"])
        except ValueError as exc:
            raise ConfigError(f"{key('fail-on')}: {exc}") from None
    settings.kinds = run_key({"kinds": _table(table, "columns", key)}, "kinds", key("columns"))
    for pattern, values in _table(table, "per-file-settings", key).items():
        where = key(f'per-file-settings."{pattern}"')
        if not isinstance(values, dict):
            raise ConfigError(f"{where} must be a table")
        values = kebab_keys(values, PER_FILE_KEYS, where)
        unknown = set(values) - PER_FILE_KEYS
        if unknown:
            raise ConfigError(f"unknown key {where + '.' + sorted(unknown)[0]!r} (allowed: target, model, text, test)")
        resolved: dict[str, Any] = {}
        for name in ("target", "model", "text", "test"):
            if name in values:
                resolved[name] = run_key(values, name, f"{where}.{name}")
        if "test" in values:
            resolved["test"], resolved["test_named_by"] = _beside(root, resolved["test"]), source
        settings.per_file_settings.append((pattern, resolved))
    for pattern, codes in _table(table, "per-file-ignores", key).items():
        where = key(f'per-file-ignores."{pattern}"')
        codes = _string_list(codes, where)
        try:
            validate_codes(codes, load_rules(), where)
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
        settings.per_file_ignores.append((pattern, codes))
    return settings


def _beside(root: str, path: str) -> str:
    """A path the configuration names, joined to its folder; relative to the working directory where it lies inside it."""
    joined = os.path.normpath(os.path.join(root, path))
    relative = os.path.relpath(joined)
    return joined if relative.startswith(os.pardir) else relative


def run_key(table: dict[str, Any], name: str, where: str) -> Any:
    """The run key ``name`` of ``table``, validated as every face validates it (:data:`nblint.core.runkeys.RUN_KEYS`).

    Raises
    ------
    ConfigError
        Naming ``where`` (the key as the configuration writes it) and what the value must be.
    """
    try:
        return RUN_KEYS[name].parse(table[name], where)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None


def _rule_options(rule, value, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ConfigError(f"{where} must be a table of options")
    known = {opt.name: opt for opt in rule.options}
    resolved = {}
    for name, raw in kebab_keys(value, known, where).items():
        if name not in known:
            allowed = ", ".join(known) or "none"
            raise ConfigError(f"unknown option {where + '.' + name!r} (options of {rule.code}: {allowed})")
        try:
            resolved[name] = known[name].coerce(raw)
        except ValueError as exc:
            raise ConfigError(f"{where}.{name}: {exc}") from None
    return resolved


def _string(table, name, key, default):
    if name not in table:
        return default
    value = table[name]
    if not isinstance(value, str) or not value:
        raise ConfigError(f"{key(name)} must be a non-empty string, got {value!r}")
    return value


def kebab_keys(table: dict[str, Any], known, where: str = "") -> dict[str, Any]:
    """``table`` with the snake_case spelling of each ``known`` (kebab-case) key written in kebab-case.

    Other keys are left as written, so that an error about them quotes them as written.

    Raises
    ------
    ConfigError
        When one key is given in both spellings.
    """
    out: dict[str, Any] = {}
    for name, value in table.items():
        kebab = name.replace("_", "-") if isinstance(name, str) else name
        key = kebab if kebab in known else name
        if key in out:
            raise ConfigError(f"{(where + '.') if where else ''}{key} is given twice, in kebab-case and snake_case")
        out[key] = value
    return out


def _string_list(value, where: str) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where} must be a list of rule codes")
    return value


def _table(table, name, key) -> dict:
    value = table.get(name, {})
    if not isinstance(value, dict):
        raise ConfigError(f"{key(name)} must be a table")
    return value
