"""What the Chromium tests share: waiting on the game log, and catching the move a tap sends."""

from __future__ import annotations

from typing import Any

TIMEOUT = 15_000
"""Milliseconds a browser test waits for the page to catch up."""
LOG_COUNT = "() => Number(document.querySelector('#log')?.getAttribute('start') || 0)"
"""JavaScript: how many lines the page's game log has."""


def log_count(page: Any) -> int:
    count: int = page.evaluate(LOG_COUNT)
    return count


def sends_move(page: Any, click: Any) -> dict[str, Any]:
    """Run ``click`` and return the API's answer to the move it sent, with its HTTP ``status``."""
    with page.expect_response(lambda r: r.url.endswith("/moves") and r.request.method == "POST") as answer:
        click()
    data: dict[str, Any] = answer.value.json()
    data["status"] = answer.value.status
    return data


def sends_first_options(page: Any, box: str) -> dict[str, Any]:
    """Tap the first option of each pick in the picker ``box`` (and OK where the decision is shown before it is
    sent) until a move is sent; the API's answer to it, with its HTTP ``status`` (``sends_move``)."""
    sent: list[Any] = []

    def listen(request: Any) -> None:
        if request.url.endswith("/moves") and request.method == "POST":
            sent.append(request)

    def tap_until_sent() -> None:
        while not sent:
            page.wait_for_function(f"() => document.querySelector({box!r})?.dataset.busy === 'false'")
            send = page.locator(f"{box} button[data-pick-send]")
            (send if send.count() else page.locator(f"{box} button.pick").first).click()
            page.wait_for_timeout(50)  # the tap's request goes out before the next look

    page.on("request", listen)
    try:
        return sends_move(page, tap_until_sent)
    finally:
        page.remove_listener("request", listen)


def accept_dialogs(page: Any) -> list[str]:
    """Accept every confirmation the page asks (Undo asks one, naming the move); the list of their messages."""
    messages: list[str] = []

    def accept(dialog: Any) -> None:
        messages.append(dialog.message)
        dialog.accept()

    page.on("dialog", accept)
    return messages
