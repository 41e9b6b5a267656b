"""The live updates carry the log as a delta (issue 13's latency): the first event of a stream has the whole game,
each later update only the lines after ``log_start`` with ``log_base``, the version whose log it extends; an undo
sends where the log now ends. The public game's ``table_now`` is its lines from the last player move on."""

from __future__ import annotations

import json
from typing import Any

from flask.testing import FlaskClient

from tests.web.apikit import english, notation, post_move, post_undo


def read_event(chunks: Any) -> dict[str, Any]:
    """The next server-sent event's data (heartbeats skipped)."""
    while True:
        chunk = next(chunks).decode()
        if chunk.startswith("event:"):
            data: dict[str, Any] = json.loads(chunk.split("data: ", 1)[1])
            return data


def test_updates_send_only_the_new_log_lines_and_a_page_rebuilds_the_whole_log(client: FlaskClient,
                                                                                game: dict[str, Any]) -> None:
    response = client.get(f"/api/games/{game['id']}/stream")
    chunks = iter(response.response)
    first = read_event(chunks)["game"]
    assert first["log_start"] == 0 and first["log"] == game["log"]  # a stream starts with the whole log
    log, version = list(first["log"]), first["version"]
    for move in ("add wheat", "end", "end"):
        answer = post_move(client, game["id"], move)
        if answer.status_code != 200:
            continue
        update = read_event(chunks)["game"]
        whole = answer.get_json()["game"]
        assert update["log_base"] == version and update["log_start"] == len(log)  # what follows this page's log
        assert notation(update["log"][0]) == move and len(json.dumps(update["log"])) < len(json.dumps(whole["log"]))
        log, version = log[:update["log_start"]] + update["log"], update["version"]
        assert log == whole["log"]
        assert update["table_now"] == whole["table_now"] == whole["log"][-len(whole["table_now"]):]
        assert notation(update["table_now"][0]) == move  # the player's move first, then the draws it caused
        assert all(notation(line) != move or line is update["table_now"][0] for line in update["table_now"])
    assert post_undo(client, game["id"]).status_code == 200
    undone = read_event(chunks)["game"]
    assert undone["log"] == [] and undone["log_start"] == len(log) - 1 and undone["log_base"] == version
    after = client.get(f"/api/games/{game['id']}").get_json()
    assert log[:undone["log_start"]] == after["log"] and after["log_start"] == 0
    assert english(after["table_now"][0]).startswith(english(after["log"][len(after["log"]) - len(after["table_now"])]))
    response.close()
