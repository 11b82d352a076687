"""The architecture holds: rule codes live in ``rules/`` only, and the package is rooms without circles.

Issue 15: the engine, the analyses and the integrations never name a rule: rules
declare the settings they need (``Option(shared=True)``, read as
``ctx.settings``) and the row checks that report them (``Rule.row_checks``).
Prose may mention a code (a docstring, a message such as "VIF (NB104) leaves
out..."); a code as a value may not.

Issue 25: the package root holds only its faces and folders, and no module imports
itself back through others, function-level imports included (each circle there
was held open by an import inside a function, and nothing kept the next one out).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from codebase import ROOT, files, text_of, tree_of, walk

#: ``codebase`` parses the package once per test process: the tests that read it share one worker.
pytestmark = pytest.mark.xdist_group("codebase")

CODE = re.compile(r"NB[0-9]{1,3}")


def parsed(source: str | ast.AST) -> ast.AST:
    """``source`` as a tree: a module's (from ``codebase``, parsed once) or a snippet's."""
    return ast.parse(source) if isinstance(source, str) else source


def docstring_ids(tree: ast.AST) -> set[int]:
    """The ids of the docstring constants of a module, its classes and its functions."""
    return {
        id(node.body[0].value)
        for node in walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }


def code_values(source: str | ast.AST) -> list[tuple[int, str]]:
    """(line, text) of every string constant in ``source`` that is a rule code or prefix, docstrings aside."""
    tree = parsed(source)
    docstrings = docstring_ids(tree)
    return sorted(
        (node.lineno, node.value)
        for node in walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
        and CODE.fullmatch(node.value.strip())
    )


def test_the_checker_finds_a_code_used_as_a_value():
    source = '"""NB101 in a docstring is prose."""\nTHRESHOLD = options["NB104"]["vif-threshold"]\nSELECT = ["NB1"]\n'
    assert code_values(source) == [(2, "NB104"), (3, "NB1")]


def test_no_rule_code_is_a_value_in_nblint():
    found = {
        f"{path.relative_to(ROOT)}:{line}": text
        for path in files("nblint")
        for line, text in code_values(tree_of(path))
    }
    assert found == {}


# --------------------------------------------------------------------------- issue 25: rooms and circles

#: The modules of the package root: what users and tools import or run. Everything else is in a folder,
#: the two other faces too, each a package: the command line (a module per command group) and pandera.
FACES = {"__init__.py", "__main__.py"}
FACE_PACKAGES = ("cli", "pandera")
#: The two trees of the project's code, and the names they are imported by.
PACKAGES = {"nblint": "nblint", "rules": "nblint_rules"}


def modules() -> dict[str, Path]:
    """Every module of nblint and of the built-in rule pack, by dotted name."""
    found = {}
    for folder, package in PACKAGES.items():
        for path in files(folder):
            parts = list(path.relative_to(ROOT / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([package, *parts])] = path
    return found


def imports(name: str, path: Path, known: dict) -> Iterator[str]:
    """The project modules ``name`` imports, anywhere in it (functions included).

    ``from package import module`` is an import of that module, not of the package's
    ``__init__`` (which Python runs for any submodule, as it runs every parent's).
    """
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in walk(tree_of(path)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([node.module] if node.module else []))
            submodules = [f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in known]
            targets = submodules if len(submodules) == len(node.names) else [base, *submodules]
        else:
            continue
        for target in targets:
            while target and target not in known:  # ``a.b.name``: the module ``a.b``
                target = target.rpartition(".")[0]
            if target and target != name:
                yield target


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def import_graph() -> dict[str, set[str]]:
    known = modules()
    return {name: set(imports(name, path, known)) for name, path in known.items()}


@pytest.mark.parametrize(
    "graph, expected",
    [
        ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
        ({"a": {"b"}, "b": {"a"}, "c": {"a"}}, [["a", "b"]]),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"d"}}, [["a", "b", "c"]]),
    ],
)
def test_the_circle_finder_finds_circles(graph, expected):
    assert circles(graph) == expected


def test_the_import_reader_sees_function_level_and_relative_imports(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from . import b\n    from .c import thing\n    import a.d\n")
    known = {"a": None, "a.b": None, "a.c": None, "a.d": None, "a.m": None}
    assert sorted(imports("a.m", module, known)) == ["a.b", "a.c", "a.d"]


def test_no_module_imports_itself_back():
    graph = import_graph()
    assert len(graph) > 150  # (the walk found the package)
    assert circles(graph) == []


def test_the_package_root_holds_only_its_faces():
    assert {path.name for path in (ROOT / "nblint").glob("*.py")} == FACES
    assert all((ROOT / "nblint" / face / "__init__.py").is_file() for face in FACE_PACKAGES)


#: The rooms of the house from the ground up (issue 39). A room imports only rooms on the floors
#: below its own, never one beside it or above (function-level imports included): a newcomer reads
#: the house from the ground up, and a change in a room can break only the floors above it. The
#: faces (the package's ``__init__`` and ``__main__``, ``FACES``) are one room, ``nblint``; the rule
#: pack is ``rules``. A new folder is placed here before it is imported.
FLOORS: tuple[tuple[str, ...], ...] = (
    ("core",),  # leaf utilities and the Naive Bayes vocabulary
    ("engine", "nbmath", "readers"),  # rules and findings; the maths; sources of rows
    ("impact", "pipelines", "profile"),  # NB401's measurement; pipeline configs read; one pass over a table
    ("dask", "structure"),  # the distributed engine; kinds, groups, VIF from the profile
    ("analysis",),  # the context rules read
    ("run",),  # one run: settings, the factory, the passes
    ("estimators", "pandera"),  # MixedNB and the recommendation (built by a run); pandera's checks
    ("report",),  # the reporters (the HTML report explains with the estimators)
    ("api", "cli", "rules"),  # the Python API, the command line, the built-in rule pack
    ("nblint",),  # the faces at the package root
    ("testing",),  # the test kit for rule packs (runs the CLI and the API)
)

#: Modules that import a room above their own, each with why it lives where it does.
UPSTAIRS = {
    "nblint.impact.heldout": (
        "estimators",
        "NB401's held-out measurement compares the bits with MixedNB and the collapsed table",
    ),
}


def room_of(module: str) -> str:
    """The room of a dotted module name: its folder under ``nblint``, ``nblint`` for a face, ``rules``."""
    package, _, rest = module.partition(".")
    if package == "nblint_rules":
        return "rules"
    folder = rest.split(".")[0]
    return folder if folder and f"{folder}.py" not in FACES else "nblint"


def upward_imports(graph: dict[str, set[str]], floors, upstairs) -> list[str]:
    """``module -> module`` edges into a room on the same floor or above, the declared ``upstairs`` aside."""
    floor = {room: number for number, rooms in enumerate(floors) for room in rooms}
    found = []
    for module, targets in sorted(graph.items()):
        for target in sorted(targets):
            here, there = room_of(module), room_of(target)
            allowed = upstairs.get(module, (None,))[0] == there
            if here != there and floor[there] >= floor[here] and not allowed:
                found.append(f"{module} -> {target} ({here} on floor {floor[here]}, {there} on {floor[there]})")
    return found


def test_the_floor_checker_finds_imports_upward_and_sideways():
    graph = {
        "nblint.core.a": {"nblint.engine.b"},  # up
        "nblint.engine.b": {"nblint.readers.c", "nblint.core.a"},  # beside, down
        "nblint.readers.c": set(),
        "nblint_rules.d": {"nblint.run.e"},  # down
        "nblint.run.e": set(),
        "nblint": {"nblint.api.f"},  # the face, down
        "nblint.api.f": set(),
    }
    floors = (("core",), ("engine", "readers"), ("run",), ("api", "rules"), ("nblint",))
    assert upward_imports(graph, floors, {}) == [
        "nblint.core.a -> nblint.engine.b (core on floor 0, engine on 1)",
        "nblint.engine.b -> nblint.readers.c (engine on floor 1, readers on 1)",
    ]
    assert upward_imports(graph, floors, {"nblint.core.a": ("engine", "why")})[:1] == [
        "nblint.engine.b -> nblint.readers.c (engine on floor 1, readers on 1)"
    ]


def test_every_room_imports_only_the_floors_below():
    graph = import_graph()
    rooms = {room_of(module) for module in graph}
    declared = [room for rooms_of_floor in FLOORS for room in rooms_of_floor]
    assert sorted(declared) == sorted(rooms), "each room is on exactly one floor (place a new folder in FLOORS)"
    assert upward_imports(graph, FLOORS, UPSTAIRS) == []
    stale = [m for m in UPSTAIRS if UPSTAIRS[m][0] not in {room_of(t) for t in graph.get(m, ())}]
    assert stale == [], "these modules no longer import the room above: remove them from UPSTAIRS"


def test_engines_plug_in_through_a_declared_backend_not_by_probing():
    """Issues 25 and 39: a source's passes run through its typed Backend; nothing asks a source what it has."""
    import re

    from nblint.readers import DataFrameSource
    from nblint.readers.chunks import Backend, LocalBackend

    declared = {"reduce_rows", "profile", "impact_passes", "distributed"}
    assert declared <= set(dir(Backend)) | set(Backend.__annotations__)
    assert declared <= set(dir(LocalBackend))
    assert isinstance(DataFrameSource(__import__("pandas").DataFrame({"a": [1]})).backend, LocalBackend)
    probes = []
    for path in files("nblint"):
        for match in re.finditer(r"(?:hasattr|getattr)\((?:ctx\.|self\.)?source\b[^)]*\)", text_of(path)):
            probes.append(f"{path.relative_to(ROOT)}: {match.group(0)}")
    assert probes == []


def private_calls_across_rooms() -> list[str]:
    """``name._private(...)`` calls in the engines' room, the run's and the faces': what they hold is other rooms'.

    (A call on ``self`` or ``cls`` is the object's own business; before issue 39 the Dask engine's
    NB401 passes called ``source._persist``, ``source._partitions`` and ``source._compute_all``.)
    """
    found = []
    for room in ("dask", "run", "api", "pandera", "cli"):
        for path in files(f"nblint/{room}"):
            for node in walk(tree_of(path)):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr.startswith("_")
                    and not node.func.attr.startswith("__")
                    and isinstance(node.func.value, ast.Name)
                    and node.func.value.id not in ("self", "cls")
                ):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.func.value.id}.{node.func.attr}")
    return found


def test_the_engines_call_no_private_method_of_another_room():
    """Issue 39 item 6: the Dask engine reaches its cluster through its backend's public operations."""
    assert private_calls_across_rooms() == []


def private_imports_across_rooms() -> list[str]:
    """``from nblint.<room>.<module> import _name`` in a module of another room: a private name crossing a wall.

    A name with a leading underscore is its module's own; a room that needs it from another
    asks for a public name (before issue 39, the run read the text reader's ``_documents``,
    the estimators the kinds' ``_shared_scale``, the report the engine's ``_jsonable``).
    """
    found = []
    for name, path in modules().items():
        if not name.startswith("nblint."):
            continue
        for node in walk(tree_of(path)):
            if (
                isinstance(node, ast.ImportFrom)
                and node.module
                and node.module.startswith("nblint.")
                and node.level == 0
            ):
                for alias in node.names:
                    private = alias.name.startswith("_") and not alias.name.startswith("__")
                    if private and room_of(node.module) != room_of(name):
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.module}.{alias.name}")
    return found


def test_no_room_imports_a_private_name_of_another():
    """Issue 39 item 6: no private calls across rooms, imported names included."""
    assert private_imports_across_rooms() == []


# --------------------------------------------------------------------------- issue 25: one definition each
#
# What must agree across modules is written once, and the copies that drifted are gone: the suffixes that
# name a table's format (``nblint columns d.tab --pipeline`` once printed a comma read of a tab file), the
# column-hash recipe the dense, sparse and wide passes share, the example-row cap, and NB401's settings.


def literals(source: str | ast.AST, wanted) -> list[tuple[int, object]]:
    """(line, value) of the constants in ``source`` that ``wanted`` accepts, docstrings aside, and the
    ``suffix=``/``prefix=`` arguments of a call aside (a temporary file's name, not a table's format)."""
    tree = parsed(source)
    skipped = docstring_ids(tree)
    skipped |= {
        id(keyword.value)
        for node in walk(tree)
        if isinstance(node, ast.Call)
        for keyword in node.keywords
        if keyword.arg in ("suffix", "prefix")
    }
    return sorted(
        (node.lineno, node.value)
        for node in walk(tree)
        if isinstance(node, ast.Constant) and id(node) not in skipped and wanted(node.value)
    )


def found_outside(owners: set[str], wanted) -> dict[str, list]:
    """Per module of nblint/ and rules/ other than ``owners``: the constants ``wanted`` accepts."""
    found: dict[str, list] = {}
    for folder in PACKAGES:
        for path in files(folder):
            name = str(path.relative_to(ROOT))
            if name not in owners:
                hits = literals(tree_of(path), wanted)
                if hits:
                    found[name] = hits
    return found


def _table_suffix(value) -> bool:
    from nblint.readers.excel import EXCEL_SUFFIXES
    from nblint.readers.formats import TABLE_SUFFIXES

    return isinstance(value, str) and value.lower() in {*TABLE_SUFFIXES, *EXCEL_SUFFIXES, ".gz"}


def test_the_literal_finder_sees_suffixes_but_not_temporary_names_or_prose():
    source = (
        '"""Reads .csv files."""\n'
        'TAB = path.endswith((".tsv", ".tab"))\n'
        'spool = tempfile.NamedTemporaryFile(suffix=".csv")\n'
        'message = "the output must be a .csv file"\n'
    )
    assert literals(source, _table_suffix) == [(2, ".tab"), (2, ".tsv")]


@pytest.mark.slow
def test_table_suffixes_are_told_in_one_module():
    """readers/formats.py says what each table suffix means (and readers/excel.py which are workbooks):
    everything else asks them (``table_format``, ``TABLE_SUFFIXES``) instead of listing suffixes."""
    assert found_outside({"nblint/readers/formats.py", "nblint/readers/excel.py"}, _table_suffix) == {}


@pytest.mark.slow
def test_the_hash_recipe_is_written_once():
    """The row weights and the NaN bits of the order-free column hash must be the same in the dense row
    pass, the sparse profile and the wide incidence (they find the same identical columns): their
    constants live in nblint/core/hashing.py alone."""
    from nblint.core.hashing import CANONICAL_NAN, GOLDEN_GAMMA

    constants = {GOLDEN_GAMMA, int(CANONICAL_NAN)}
    found = found_outside({"nblint/core/hashing.py"}, lambda value: type(value) is int and value in constants)
    assert found == {}, found


def test_the_example_row_cap_is_defined_once():
    """Every pass that gathers example rows for a finding stops at the same count, the one in findings.py."""
    from nblint.analysis import rowchecks
    from nblint.engine import findings
    from nblint.impact import comparison

    definitions = []
    for folder in PACKAGES:
        for path in files(folder):
            for node in walk(tree_of(path)):
                targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
                if isinstance(node, (ast.Assign, ast.AnnAssign)):
                    definitions += [
                        f"{path.relative_to(ROOT)}:{t.id}"
                        for t in targets
                        if isinstance(t, ast.Name) and "EXAMPLE" in t.id
                    ]
    assert definitions == ["nblint/engine/findings.py:EXAMPLE_ROWS"]
    assert rowchecks.EXAMPLE_ROWS is findings.EXAMPLE_ROWS and comparison.EXAMPLE_ROWS is findings.EXAMPLE_ROWS


def test_nb401_settings_are_its_options():
    """NB401's options are the one place alpha, folds and seed get their defaults and bounds: the measurement
    has no defaults of its own, and ``nblint impact``'s options say NB401's defaults and accept its range."""
    import dataclasses

    import click

    from nblint.cli import main
    from nblint.engine.registry import load_rules
    from nblint.impact import ImpactSettings

    options = {option.name: option for option in load_rules()["NB401"].options}
    fields = {field.name: field for field in dataclasses.fields(ImpactSettings)}
    command = {param.name: param for param in main.commands["impact"].params}
    for name in ("alpha", "folds", "seed"):
        assert fields[name].default is dataclasses.MISSING, name
        option, param = options[name], command[name]
        assert not isinstance(param.default, (int, float))  # unset: NB401's option (or the config) decides
        assert f"{option.default:g})" in param.help, (name, param.help)
        # (the option's range, as the command line accepts it: its minimum, and nothing below)
        assert param.type.convert(str(option.minimum), param, None) == option.minimum, name
        with pytest.raises(click.BadParameter):
            param.type.convert(str(option.minimum - 1), param, None)


def test_the_analysis_settings_are_the_shared_options_each_declared_once_and_typed():
    """Every shared option of the built-in rules is one typed field of AnalysisSettings, and no field lacks one."""
    from dataclasses import fields

    from nblint.engine import load_rules, resolved_options, shared_settings
    from nblint.engine.settings import AnalysisSettings

    declared = {
        option.name.replace("-", "_"): option
        for rule in load_rules().values()
        for option in rule.options
        if option.shared
    }
    assert {f.name for f in fields(AnalysisSettings)} == set(declared)
    settings = shared_settings(resolved_options())
    for name, option in declared.items():
        assert getattr(settings, name) == option.default
        assert isinstance(getattr(settings, name), type(option.default) if isinstance(option.default, int) else float)
    overridden = shared_settings(resolved_options({"NB102": {"min-evidence": "7"}}))
    assert overridden.min_evidence == 7.0 and isinstance(overridden.min_evidence, float)


def test_no_analysis_reads_a_setting_by_name():
    """The analyses read ``ctx.settings.<field>``: a string look-up with a cast at each use cannot come back."""
    offenders = [
        f"{path}:{n}"
        for path in files("nblint") + files("rules")
        for n, line in enumerate(text_of(path).splitlines(), 1)
        if ".setting(" in line
    ]
    assert offenders == []


# --------------------------------------------------------------------------- issue 39 item 3: records, not arrays
#
# The profile keeps its statistics as arrays over every column and class slot; a rule asks the context
# by name (``ctx.column(name)``, ``ctx.class_rows``), so how the arrays are laid out is said in one place.

#: The profile's array fields a rule used to index (its per-class counts, its numeric columns' statistics).
PROFILE_ARRAYS = {"class_count", "numeric"}


def profile_array_reads(source: str | ast.AST) -> list[tuple[int, str]]:
    """(line, ``profile.<field>``) of every read of a profile array field in ``source``.

    A profile is ``profile`` or anything's ``.profile`` (``ctx.profile``, ``self._profile`` aside: a rule
    has none of its own).
    """
    return sorted(
        (node.lineno, f"profile.{node.attr}")
        for node in walk(parsed(source))
        if isinstance(node, ast.Attribute)
        and node.attr in PROFILE_ARRAYS
        and (
            (isinstance(node.value, ast.Name) and node.value.id == "profile")
            or (isinstance(node.value, ast.Attribute) and node.value.attr == "profile")
        )
    )


def test_the_array_reader_sees_a_profile_array_through_the_context_or_a_local_name():
    source = (
        "n = ctx.profile.class_count.sum()\nprofile = ctx.profile\nj = profile.numeric.names\n"
        "ok = ctx.profile.classes\nalso = test.class_count\n"
    )
    assert profile_array_reads(source) == [(1, "profile.class_count"), (3, "profile.numeric")]


def test_no_rule_indexes_the_profile_arrays():
    """Issue 39 item 3: rules read a column's record and the class sizes, never the profile's arrays."""
    found = {
        f"{path.relative_to(ROOT)}:{line}": text
        for path in files("rules")
        for line, text in profile_array_reads(tree_of(path))
    }
    assert found == {}


def test_every_face_opens_its_tables_through_open_table():
    """Issue 39 item 6: outside the readers, nblint's file reader is called by ``open_table`` alone
    (the test table included), so a file is read, and its backend chosen, the same way on every face."""
    callers = []
    for path in files("nblint"):
        if path.parent.name == "readers" or "read_table" not in text_of(path):
            continue
        for function in walk(tree_of(path)):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "read_table":
                    callers.append(f"{path.relative_to(ROOT)}::{function.name}")
    assert sorted(set(callers)) == ["nblint/run/tables.py::open_table"]


def test_the_sparse_profile_returns_parts_and_the_table_assembles_them():
    """Issue 39 item 7: the sparse block's profile never calls back into the table profile (it does not import
    it): ``profile/table.py`` imports ``profile/sparse.py`` and assembles the parts it returns."""
    graph = import_graph()
    assert "nblint.profile.table" not in graph["nblint.profile.sparse"]
    assert "nblint.profile.sparse" in graph["nblint.profile.table"]
