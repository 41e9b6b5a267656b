"""Every Key Market message identifier, written in the code or built at run time, is in both catalogs with the
same placeholders, and the German differs from the English (the shared catalog test reads registered games)."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

from companion.core.messages import catalogs
from companion.games.key_market import words
from companion.games.key_market.variants import VARIANT_FLAGS

FOLDER = Path(words.__file__).parent
ID = re.compile(r"^km\.[a-z_]+(?:\.[A-Za-z0-9_]+)*$")


def written() -> set[str]:
    found = set()
    for path in FOLDER.rglob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        parts = {id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for v in node.values}
        for node in ast.walk(tree):
            if id(node) not in parts and isinstance(node, ast.Constant) and isinstance(node.value, str) and ID.match(node.value):
                found.add(node.value)
    return found


def names(text: str | tuple[str, ...]) -> set[str]:
    forms = text if isinstance(text, tuple) else (text,)
    return {n for form in forms for _, n, _, _ in string.Formatter().parse(form) if n}


def test_every_identifier_is_in_english_and_german() -> None:
    ids = written() | words.message_ids() | {f"km.variant.{spec.name}" for spec in VARIANT_FLAGS}
    en, de = catalogs()["en"].messages, catalogs()["de"].messages
    missing = sorted(i for i in ids if i not in en or i not in de)
    assert not missing
    assert all(names(en[i]) == names(de[i]) for i in ids)
    assert [i for i in ids if en[i] == de[i]] == []


def test_every_message_a_random_game_shows_reads_well_in_both_languages() -> None:
    """The shared catalog test's check (tests/test_catalogs.py) on Key Market before it is registered: log lines for
    every viewer, prompts, warnings, variant help, refusals and moves in words, in English and German."""
    from tests.games.key_market.table import GAME
    from tests.test_catalogs import emitted, problems_of

    problems: set[str] = set()
    for players in (2, 3, 4):
        for seed in range(2):
            for where, text in emitted(GAME, players, seed):
                problems.update(problems_of(GAME, where, text))
    assert not problems, "\n".join(sorted(problems)[:40])
