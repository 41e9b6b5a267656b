"""The engine's state copies name real fields (``evolve`` does not check them at run time)."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import companion.games.key_harvest as package
from companion.games.key_harvest.state import Player, State, Step

FIELDS = {f.name for cls in (State, Player, Step) for f in dataclasses.fields(cls)}


def test_every_evolve_call_names_real_fields() -> None:
    calls = 0
    for path in Path(package.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("evolve", "replace"):
                names = {kw.arg for kw in node.keywords}
                assert names <= FIELDS, f"{path.name}:{node.lineno}: unknown fields {names - FIELDS}"
                calls += 1
    assert calls > 30  # the check really looked at the engine
