"""Loops in Python sources: what a loop variable stands for, read without running anything.

Part of the Python reader (:mod:`nblint.pipelines.pysource`, which mixes this in):

* a loop (or comprehension) over values written in the source -- a list, a
  dict's items, ``zip``/``enumerate`` of those, ``range`` -- gives its variable
  a :class:`~nblint.pipelines.spec.OneOf` of them, so models kept in lists and
  dicts are fitted one by one;
* a loop over a list of *frames* -- names written in the source that hold no
  value nblint knows (``for dataset in [train, test]``, or a name bound to such
  a list) -- is read once per frame, the loop variable standing for it, so
  columns written through ``dataset`` are written into ``train`` and ``test``.
"""

from __future__ import annotations

import ast
from typing import Any

from nblint.pipelines.pyvalues import calls_in, enumerated, items_of, method_items, one_of, unknown as _unknown, zipped

#: The most frames a loop over a list of frames is read for (its body is read once per frame).
MAX_FRAMES_WALKED = 6


def listed_names(node: ast.expr) -> tuple[str, ...] | None:
    """``[train, test]`` (a list or tuple of plain names, at most MAX_FRAMES_WALKED): the names, else None."""
    if isinstance(node, (ast.List, ast.Tuple)) and 1 < len(node.elts) <= MAX_FRAMES_WALKED \
            and all(isinstance(e, ast.Name) for e in node.elts):
        return tuple(e.id for e in node.elts)
    return None


class LoopReading:
    """The loop half of the Python reader (see the module docstring)."""

    env: dict
    frame_lists: dict
    aliases: list

    def frames_walked(self, node: ast.expr) -> tuple[str, ...] | None:
        """The frames a loop walks: a list of names written in the source (``[train, test]``, or a name bound
        to one), none of them holding a value nblint knows (models and literals are walked as a OneOf)."""
        names = self.frame_lists.get(node.id) if isinstance(node, ast.Name) else listed_names(node)
        if names is None or any(name in self.env for name in names):
            return None
        return names

    def loop_over_frames(self, loop: ast.For | ast.AsyncFor, frames: tuple[str, ...]) -> None:
        """``for dataset in [train, test]: dataset["t"] = ...``: the body is read once per frame, the loop
        variable standing for it, so what the body changes in ``dataset`` is changed in that frame.

        Calls are read once (on the first frame), as everywhere: a model fitted in such a loop is linked to
        the first frame's data, an encoder built in it is one encoder.
        """
        for inner in ast.walk(loop.iter):
            if isinstance(inner, ast.Call):
                self.expr(inner)
        variable = loop.target.id
        for frame in frames:
            self.bind(loop.target, _unknown(loop.target), self.data.get(frame))
            self.aliases.append(({variable: frame}, {}, False))
            try:
                self.statements(loop.body)
            finally:
                changed = self.aliases.pop()[1]
            self.apply_changes(changed)
        self.statements(loop.orelse)

    def iterate(self, node: ast.expr) -> Any:
        """What a loop variable over ``node`` takes in turn (a OneOf), or unknown."""
        items = None
        if isinstance(node, ast.Call):
            func = node.func
            dotted = self.resolve(func) or ""
            if node.args and (self._builtin(func) in ("list", "sorted", "tuple") or dotted.split(".")[0] == "tqdm"
                              or isinstance(func, ast.Name) and func.id in ("reversed", "iter") and func.id not in self.env):
                return self.iterate(node.args[0])  # the same items, in a list or behind a progress bar
            args = [self.expr(a) for a in node.args]
            if isinstance(func, ast.Attribute) and func.attr in ("items", "values", "keys") and not args:
                items = method_items(self.expr(func.value), func.attr)
            elif self._builtin(func) == "zip":
                items = zipped(args)
            elif self._builtin(func) == "enumerate" and args:
                items = enumerated(args[0], args[1] if len(args) > 1 else 0)
            else:
                items = items_of(self.expr(node))
        else:
            items = items_of(self.expr(node))
        return one_of(items) if items else _unknown(node)

    def _comprehension(self, node) -> Any:
        """``[make_pipeline(enc, m) for m in models]``: the element read with each generator's items."""
        names = {n.id for gen in node.generators for n in ast.walk(gen.target) if isinstance(n, ast.Name)}
        with self.scoped(names):
            for generator in node.generators:
                self.bind(generator.target, self.iterate(generator.iter), None)
            value = self.expr(node.value if isinstance(node, ast.DictComp) else node.elt)
        calls = calls_in(value)
        return calls if calls else _unknown(node)
