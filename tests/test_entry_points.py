"""nblint's reading of entry points gives what importlib.metadata gives, in its order."""

from __future__ import annotations

import importlib.metadata
import sys
import zipfile

import pytest

from nblint.engine import entry_points as reader


def standard(group: str) -> list[tuple[str, str]]:
    return [(ep.name, ep.value) for ep in importlib.metadata.entry_points(group=group)]


@pytest.mark.parametrize("group", ["nblint.rules", "console_scripts", "pytest11", "no.such.group"])
def test_the_installed_groups_read_as_importlib_reads_them(group):
    assert reader.entry_points(group) == standard(group)


def _dist(root, directory: str, text: str | None) -> None:
    info = root / directory
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {directory.split('-')[0]}\nVersion: 1\n")
    if text is not None:
        (info / "entry_points.txt").write_text(text)


def test_first_of_a_name_wins_and_sections_comments_and_spaces_are_read_alike(tmp_path, monkeypatch):
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir(), second.mkdir()
    _dist(first, "Pack.One-1.0.dist-info", "# a comment\n[nblint.rules]\n  AB = pack_one  \n\n[other]\nx = y:z\n")
    _dist(first, "pack_two-2.0.egg-info", "[nblint.rules]\ntwo=pack_two [extra]\n")
    _dist(first, "no_entries-1.0.dist-info", None)
    _dist(second, "pack_one-9.9.dist-info", "[nblint.rules]\nZZ = shadowed\n")  # Pack.One again, later on the path
    _dist(second, "pack_three-1.0.dist-info", "[nblint.rules]\nthree = pack_three\n[nblint.rules.more]\nno = no\n")
    monkeypatch.setattr(sys, "path", [str(first), str(second)])
    importlib.invalidate_caches()
    found = reader.entry_points("nblint.rules")
    assert found == standard("nblint.rules")
    assert {value for _, value in found} == {"pack_one", "pack_two [extra]", "pack_three"}
    assert reader.entry_points("other") == standard("other") == [("x", "y:z")]


def test_an_archive_on_the_path_is_left_to_importlib(tmp_path, monkeypatch):
    archive = tmp_path / "packs.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("zipped_pack-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: zipped-pack\nVersion: 1\n")
        zipped.writestr("zipped_pack-1.0.dist-info/entry_points.txt", "[nblint.rules]\nZP = zipped_pack\n")
    monkeypatch.setattr(sys, "path", [str(archive)])
    assert reader.entry_points("nblint.rules") == standard("nblint.rules") == [("ZP", "zipped_pack")]
