"""Decisions made by picks in the browser tests (web/static/js/picks.js): the ids of a decision found through the
picks API, then tapped on a page one by one (a button of the picker, or the lit component on a picture), and the
move the last tap (or the OK) sends."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from tests.web.pagekit import sends_move


def node(page: Any, api_path: str, chosen: list[str], version: int) -> dict[str, Any]:
    """The node after ``chosen`` (``api_path``: the game's API path, or a seat's private one)."""
    answer = page.request.post(f"{api_path}/picks", data={"picks": chosen, "version": version})
    assert answer.ok, (chosen, answer.text())
    data: dict[str, Any] = answer.json()
    return data


def option_ids(found: dict[str, Any]) -> list[str]:
    return [option["id"] for group in found["groups"] for option in group["options"]]


def random_picks(page: Any, api_path: str, version: int, rng: random.Random, stop: float = 0.5,
                 first: Callable[[list[str]], str] | None = None,
                 allowed: Callable[[list[str], list[str]], list[str]] | None = None) -> tuple[list[str], bool]:
    """A whole decision picked at random: its ids, and whether it asks OK before it is sent. A node that makes a
    move and may go on stops with chance ``stop``; ``first`` chooses the first pick; ``allowed`` narrows the options
    after some picks (e.g. to those another device offers too)."""
    chosen: list[str] = []
    found = node(page, api_path, chosen, version)
    while True:
        options = option_ids(found)
        if allowed is not None:
            options = allowed(chosen, options)
        if found["done"] and (not options or rng.random() < stop):
            return chosen, bool(found["done"]["confirm"])
        assert options, f"a dead end after {chosen}"
        pick = first(options) if first is not None and not chosen else rng.choice(options)
        chosen.append(pick)
        found = node(page, api_path, chosen, version)


def picks_to(page: Any, api_path: str, version: int, move_words: Any, limit: int = 2000) -> tuple[list[str], bool]:
    """The ids of the decision whose words are ``move_words`` (the game's ``words`` of a move), found by walking the
    picks; and whether it asks OK."""
    todo: list[list[str]] = [[]]
    while todo and limit:
        limit -= 1
        chosen = todo.pop()
        found = node(page, api_path, chosen, version)
        if found["done"] and found["done"]["words"] == move_words:
            return chosen, bool(found["done"]["confirm"])
        todo += [chosen + [pick] for pick in reversed(option_ids(found))]
    raise AssertionError(f"no picks make {move_words}")


def target(page: Any, box: str, pick: str, picture: str | None) -> Any:
    """Option ``pick``: its button in the picker ``box``, or (given ``picture``, selectors of the page's components
    separated by commas) the component lit for it."""
    if picture is None:
        return page.locator(f"{box} button[data-pick='{pick}']:not([disabled])")
    lit = ", ".join(f"{part.strip()}.lit[data-component='{pick}']" for part in picture.split(","))
    return page.locator(lit).first


def tap(page: Any, box: str, pick: str, picture: str | None = None) -> None:
    """Tap option ``pick`` (see ``target``) and wait for the next node."""
    with page.expect_response(lambda r: r.url.endswith("/picks") and r.request.method == "POST"):
        target(page, box, pick, picture).click()


def tap_decision(page: Any, box: str, ids: list[str], confirm: bool,
                 picture: Callable[[str], str | None] = lambda pick: None) -> dict[str, Any]:
    """Tap the picks ``ids`` in ``box`` (each on the picture when ``picture(id)`` names a selector), then OK if
    the decision asks it; the API's answer to the move sent (with its HTTP ``status``)."""
    for pick in ids[:-1]:
        tap(page, box, pick, picture(pick))
    last = ids[-1]
    if confirm:
        tap(page, box, last, picture(last))
        return sends_move(page, lambda: page.locator(f"{box} button[data-pick-send]:not([disabled])").click())
    return sends_move(page, target(page, box, last, picture(last)).click)
