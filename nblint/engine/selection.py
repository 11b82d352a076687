"""Selection: which rules a run's ``select`` and ``ignore`` enable, and every selector checked and explained.

Selectors are codes, prefixes of codes (``NB1``), ``ALL`` or rules' names, ruff-style; a renamed code
selects its rule's new code (:func:`nblint.engine.registry.renamed_codes`). A selector that matches no rule
is refused with the likeliest code or name (:func:`validate_codes`).
"""

from __future__ import annotations

from collections.abc import Iterable

from nblint.engine.registry import load_rules, renamed_codes
from nblint.engine.rule import Rule


def select_rules(
    rules: dict[str, type[Rule]],
    select: Iterable[str] | None,
    ignore: Iterable[str] | None,
    preview: bool = False,
) -> list[str]:
    """Codes enabled by ``select`` and not removed by ``ignore`` (prefixes, ruff-style).

    ``NB1`` selects every NB1xx rule, ``ALL`` every rule, a rule's name that
    rule; the longest matching prefix wins when a code matches both lists. A
    renamed code selects the rule's new code (:data:`RENAMED`). As in ruff, a
    rule in preview runs only when selected by its own code or name, or with
    ``preview``; a removed rule never runs.
    """
    by_name = {rule.name: code for code, rule in rules.items() if rule.name}
    select = [selector_code(s, by_name) for s in select] if select else ["ALL"]
    ignore = [selector_code(i, by_name) for i in ignore or []]
    chosen = []
    for code, rule in rules.items():
        if rule.status == "removed":
            continue
        s = _match_len(code, select)
        i = _match_len(code, ignore)
        if rule.status == "preview" and not preview and s < len(code):
            continue
        if s >= 0 and s >= i:
            chosen.append(code)
    return chosen


def selection_notes(
    rules: dict[str, type[Rule]], select: Iterable[str] | None, ignore: Iterable[str] | None, preview: bool = False
) -> list[str]:
    """One warning line per renamed code written in ``select``/``ignore``, per deprecated rule they enable,
    and per narrowed rule they name by its own code or name (what it no longer reports, and where that went)."""
    written = [*(select or []), *(ignore or [])]
    notes = [note for note in (renamed_note(entry) for entry in written) if note]
    for code in select_rules(rules, select, ignore, preview):
        rule = rules[code]
        if rule.status == "deprecated":
            notes.append(f"warning: {code} ({rule.name}) is deprecated: {rule.status_line()}")
    named = {entry.strip().upper() for entry in written} | {entry.strip() for entry in written}
    for code, rule in rules.items():
        if rule.narrowed and (code in named or rule.name in named):
            moved = "; ".join(narrowing.sentence() for narrowing in rule.narrowed)
            notes.append(f"warning: {code} ({rule.name}) was narrowed: {moved}")
    return list(dict.fromkeys(notes))


def _match_len(code: str, prefixes: list[str]) -> int:
    best = -1
    for prefix in prefixes:
        prefix = prefix.strip().upper()
        if prefix == "ALL":
            best = max(best, 0)
        elif code.startswith(prefix):
            best = max(best, len(prefix))
    return best


def selector_code(selector: str, by_name: dict[str, str] | None = None) -> str:
    """A selector as a code or prefix: ``nb104``, ``NB104`` and the rule's name ``collinear`` give ``NB104``.

    Rule names are accepted wherever codes are (``--select one-hot-group``,
    ``# nblint: ignore[one-hot-group]``), in kebab or snake case; a renamed code
    gives its new code (:data:`RENAMED`).  Anything else is returned upper-cased,
    as a code prefix.
    """
    text = selector.strip()
    by_name = _codes_by_name() if by_name is None else by_name
    code = by_name.get(text.lower().replace("_", "-"), text.upper())
    return renamed_codes().get(code, code)


def renamed_note(selector: str) -> str | None:
    """``warning: NB123 is renamed NB456 ...`` when ``selector`` is a renamed code, else None."""
    old = selector.strip().upper()
    new = renamed_codes().get(old)
    if new is None:
        return None
    return f"warning: {old} is renamed {new}: write {new} (the old code still selects, ignores and suppresses it)"


def _codes_by_name() -> dict[str, str]:
    return {rule.name: code for code, rule in load_rules().items() if rule.name}


def unknown_selector(selector: str, rules: dict[str, type[Rule]]) -> str:
    """``'NB1O1' matches no rule; did you mean 'NB101'?``: the likeliest code or rule name, where one is close."""
    return f"{selector!r} matches no rule{rule_guess(selector, rules)} (`nblint rules` lists codes and names)"


def rule_guess(selector: str, rules: dict[str, type[Rule]]) -> str:
    """``; did you mean 'NB101' (one-hot-group)?``, or ``""``: the one did-you-mean of a mistyped code or name.

    Every place a rule is named (``--select`` and the other selectors, ``nblint rule``,
    suppression comments) offers the same guess.
    """
    from nblint.core.suggest import closest

    text = selector.strip()
    names = {rule.name: code for code, rule in rules.items() if rule.name}
    # a code with one character wrong (NB1O1, NB10l): codes are compared at their own length only, so
    # that a family prefix (NB9) is not "corrected" to some code that happens to contain it
    same_length = [code for code in rules if len(code) == len(text)]
    guesses = closest(_digits(text.upper()), same_length, n=1, cutoff=0.75)
    by_name = closest(text.lower().replace("_", "-"), list(names), n=1, cutoff=0.6)
    if by_name and not (guesses and text.upper().startswith("NB")):
        guess = f"; did you mean {by_name[0]!r} ({names[by_name[0]]})?"
    elif guesses:
        guess = f"; did you mean {guesses[0]!r} ({rules[guesses[0]].name})?"
    else:
        guess = ""
    return guess


def _digits(code: str) -> str:
    """Letters typed for the digits they look like, after the NB of a code (NB1O1, NB1Ol)."""
    return code[:2] + code[2:].translate(str.maketrans("OLI", "011"))


def validate_codes(prefixes: Iterable[str], rules: dict[str, type[Rule]], what: str) -> None:
    """Reject selectors that match no rule (a typo should not silently select nothing), with a did-you-mean.

    A removed rule's code or name is refused too, naming the rule that replaces it.
    """
    for prefix in prefixes:
        p = selector_code(prefix)
        if p != "ALL" and not any(code.startswith(p) for code in rules):
            raise ValueError(f"{what}: {unknown_selector(prefix, rules)}")
        removed = rules.get(p)
        if removed is not None and removed.status == "removed":
            raise ValueError(f"{what}: {p} ({removed.name}) was removed: {removed.status_line()}")
