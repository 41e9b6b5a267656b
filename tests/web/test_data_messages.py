"""The /data forms' refusals come as messages (issue 13): the form (``data_forms.js``) renders ``error.message`` in
the page's language, so a German table reads why its pack was refused in German."""

from __future__ import annotations

from flask.testing import FlaskClient

from companion.core.messages import Message, render


def test_a_refused_section_says_why_as_a_message_the_page_renders_in_german(client: FlaskClient) -> None:
    section = client.get("/api/data/la-granja/siesta").get_json()["data"]
    answer = client.put("/api/data/la-granja/siesta", json={**section, "provisional": "yes"})
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert error["reason"] == "La Granja data pack, section 'siesta': \"provisional\" must be true or false"
    said = Message.from_json(error["message"])
    assert render(said, "de") == "Datenpaket La Granja, Abschnitt 'siesta': \"provisional\" muss true oder false sein"
