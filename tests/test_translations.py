"""French is shipped complete: every string translated, none fuzzy, .mo up to date."""

import ast
import gettext
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "locale" / "fr" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")
SOURCES = ["manage.py", "carolo_site", "accounts", "games", "templates", "locale"]


def parse_po(path):
    """{(msgctxt, msgid): (msgstr, flags)} for every entry but the header and obsolete ones.

    For a plural entry msgstr is the tuple of its forms (msgstr[0], msgstr[1], ...).
    """
    entries = {}
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        fields, flags, current = {}, set(), None
        for line in block.splitlines():
            if line.startswith("#,"):
                flags.update(flag.strip() for flag in line[2:].split(","))
            elif line.startswith(("msgctxt ", "msgid ", "msgid_plural ", "msgstr ", "msgstr[")):
                current, _, literal = line.partition(" ")
                fields[current] = ast.literal_eval(literal)
            elif line.startswith('"') and current:
                fields[current] += ast.literal_eval(line)
        if fields.get("msgid"):
            if "msgid_plural" in fields:
                forms = sorted(k for k in fields if k.startswith("msgstr["))
                msgstr = tuple(fields[k] for k in forms)
            else:
                msgstr = fields.get("msgstr", "")
            entries[(fields.get("msgctxt"), fields["msgid"])] = (msgstr, flags)
    return entries


def plural_ids(path):
    """{(msgctxt, msgid): msgid_plural} for the plural entries."""
    found = {}
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        fields, current = {}, None
        for line in block.splitlines():
            if line.startswith(("msgctxt ", "msgid ", "msgid_plural ")):
                current, _, literal = line.partition(" ")
                fields[current] = ast.literal_eval(literal)
            elif line.startswith('"') and current in fields:
                fields[current] += ast.literal_eval(line)
            else:
                current = None
        if fields.get("msgid") and "msgid_plural" in fields:
            found[(fields.get("msgctxt"), fields["msgid"])] = fields["msgid_plural"]
    return found


def is_translated(msgstr):
    forms = msgstr if isinstance(msgstr, tuple) else (msgstr,)
    return bool(forms) and all(form.strip() for form in forms)


def test_every_french_string_is_translated_and_not_fuzzy():
    entries = parse_po(PO)
    assert len(entries) > 20
    untranslated = [key for key, (msgstr, _) in entries.items() if not is_translated(msgstr)]
    fuzzy = [key for key, (_, flags) in entries.items() if "fuzzy" in flags]
    assert untranslated == []
    assert fuzzy == []


def test_the_compiled_catalogue_matches_the_po_file():
    with MO.open("rb") as f:
        catalogue = gettext.GNUTranslations(f)
    plurals = plural_ids(PO)
    for (context, msgid), (msgstr, _) in parse_po(PO).items():
        if isinstance(msgstr, tuple):
            plural = plurals[(context, msgid)]
            # French: form 0 for n = 0 or 1, form 1 above
            for n, expected in zip((1, 2), msgstr, strict=False):
                if context:
                    found = catalogue.npgettext(context, msgid, plural, n)
                else:
                    found = catalogue.ngettext(msgid, plural, n)
                assert found == expected, f"stale .mo for {msgid!r}: run `make messages`"
            continue
        found = catalogue.pgettext(context, msgid) if context else catalogue.gettext(msgid)
        assert found == msgstr, f"stale .mo for {msgid!r}: run `make messages`"


def test_plural_entries_are_read_and_translated():
    plurals = [key for key, (msgstr, _) in parse_po(PO).items() if isinstance(msgstr, tuple)]
    assert plurals, "the catalogue has plural entries; parse_po must see them"
    for key in plurals:
        assert len(parse_po(PO)[key][0]) == 2, f"French has two plural forms: {key}"


def test_every_rules_page_has_a_french_page():
    folder = ROOT / "docs" / "rules"
    english = sorted(p for p in folder.glob("*.md") if not p.name.endswith(".fr.md"))
    assert english, "no rules pages found"
    missing = [p.name for p in english if not p.with_name(p.stem + ".fr.md").exists()]
    assert missing == [], f"rules pages without a French page: {missing}"


def test_every_french_rules_page_keeps_the_diagrams_of_the_english_one():
    """Same number of diagrams and legends, and the same positions, in both languages."""
    import re

    marker = re.compile(r'^\[(diagram \S+(?: "[^"]*"| seed=\S+| preset=\S+)*|legend)', re.M)
    for english in (ROOT / "docs" / "rules").glob("*.md"):
        if english.name.endswith(".fr.md"):
            continue
        french = english.with_name(english.stem + ".fr.md")
        if not french.exists():
            continue  # reported by the test above
        en = marker.findall(english.read_text(encoding="utf-8"))
        fr = marker.findall(french.read_text(encoding="utf-8"))
        assert en == fr, f"{french.name} does not draw the diagrams of {english.name}"


@pytest.mark.skipif(not shutil.which("xgettext"), reason="needs GNU gettext (.ci/run installs it)")
def test_the_po_file_has_every_string_of_the_code(tmp_path):
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, tmp_path / name)
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "fr", "--no-location"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
        env={"PATH": os.environ["PATH"], "VAR_DIR": str(tmp_path / "var")},
    )
    fresh = parse_po(tmp_path / "locale" / "fr" / "LC_MESSAGES" / "django.po")
    missing = [
        key
        for key, (msgstr, flags) in fresh.items()
        if not is_translated(msgstr) or "fuzzy" in flags
    ]
    assert missing == [], "strings without a French translation: run `make messages` and fill them"
