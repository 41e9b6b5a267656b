"""The /data forms' inputs are never cut off (issue 13): on a 1280x800 tablet and a 390x844 phone, in English and
German, every input, select and text box of every section lies inside its table cell and shows its whole value."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.data_pages import SECTIONS
from tests.web.pagekit import TIMEOUT

SIZES = {"tablet": (1280, 800), "phone": (390, 844)}

CUT_OFF = """() => [...document.querySelectorAll('#data-form td [data-path]')].flatMap((input) => {
  const cell = input.closest('td').getBoundingClientRect();
  const box = input.getBoundingClientRect();
  const name = input.getAttribute('aria-label');
  const problems = [];
  if (box.left < cell.left - 0.5 || box.right > cell.right + 0.5 || box.top < cell.top - 0.5 ||
      box.bottom > cell.bottom + 0.5) problems.push(`${name}: outside its cell`);
  if (input.type !== 'checkbox' && (input.scrollWidth > input.clientWidth + 1 || input.scrollHeight > input.clientHeight + 1))
    problems.push(`${name}: its value is cut off (${input.value})`);
  if (input.tagName === 'SELECT') {
    const probe = document.createElement('span');
    probe.style.font = getComputedStyle(input).font;
    probe.style.whiteSpace = 'pre';
    probe.textContent = input.options[input.selectedIndex]?.text || '';
    document.body.append(probe);
    const needed = probe.getBoundingClientRect().width;
    probe.remove();
    if (needed > input.clientWidth - 20) problems.push(`${name}: its choice is cut off (${probe.textContent})`);
  }
  return problems;
})"""
"""JavaScript: what is cut off among the form's inputs (an empty list when all is well)."""


@pytest.mark.parametrize("size", SIZES)
def test_no_data_input_is_cut_off(server: int, browser: Any, shots: Path, size: str) -> None:
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    found: dict[str, list[str]] = {}
    for language in ("en", "de"):
        for game, section in SECTIONS:
            page.goto(f"http://127.0.0.1:{server}/data/{game}/{section}?lang={language}")
            page.locator("#data-form [data-path]").first.wait_for(state="attached")
            page.wait_for_timeout(100)
            problems = page.evaluate(CUT_OFF)
            if problems:
                found[f"{language} {game}/{section}"] = problems[:5]
            if section == "cards" and language == "en":
                page.screenshot(path=str(shots / f"data-cards-{size}.png"))
    assert found == {}
