"""What the names of a document-term block's words say: n-grams, and the stems words can share.

A vectorizer names its n-grams by joining their words (or characters) with a space, and names
overlap by construction (``new``, ``new york``; ``cu.``, ``cu. ``). Among words, a shared prefix
is then no stem of an encoded variable (:mod:`nblint.structure.names` reads those), and two
n-grams of one span being identical is the vectorizer's doing, not duplicate information.
"""

from __future__ import annotations

from nblint.structure.names import informative_stem


def one_span(members) -> bool:
    """Whether every name is a substring of the longest: n-grams of one span of text, not an encoded variable.

    A vectorizer's n-grams overlap by construction: a character n-gram inside a longer one
    (``' k_'`` in ``' k_r'``), a word inside the bigram it is only ever seen in (``puerto``
    in ``puerto rico``). Identical columns named so are the text's, and the separators
    their names share (a space, an underscore) are no stem of an encoding.

    Examples
    --------
    >>> one_span([" k_", " k_r"]), one_span(["puerto", "puerto rico"]), one_span(["color_red", "color_blue"])
    (True, True, False)
    """
    names = [str(m) for m in members]
    longest = max(names, key=len, default="")
    return len(names) >= 2 and all(name in longest for name in names)


def spaced(name: str) -> bool:
    """Whether a word of a document-term block is an n-gram (``net shr``, ``new york``; a character n-gram with a space).

    The space joins the words of an n-gram; no encoder writes a variable and its level so
    (``x0_red``, ``color=red``, ``C(color)[T.red]``). The bigrams of one first word
    (``net shr``, ``net oper``) are often exclusive, the phrases of one genre of document,
    and share that word as a prefix: among the words of a block such a prefix is no
    stem of an encoded variable.
    """
    return " " in name  # (scikit-learn joins an n-gram's words, and a character n-gram's, with one space)


def word_stem(members, all_names) -> str | None:
    """The stem words of a document-term block share where it names their variable, else None.

    :func:`informative_stem` (a stem every column carries, ``hash_<bucket>``, names none), and
    never the first word of n-grams (:func:`spaced`): ``bakken cs`` and ``bakken writes``, seen
    only in one author's posts, are a phrase's words, not the levels of a variable ``bakken``.
    """
    if any(map(spaced, members)):
        return None
    return informative_stem(members, all_names)
