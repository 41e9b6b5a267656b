"""One-off: move the browser's string tables (web/static/js/i18n.js, camera.js, data_forms.js, panel.js) into
gettext catalogs: web/locale/{en,de}.po (shared), web/games/<package>/locale/{en,de}.po (each game's).
Ids are ``ui.`` + today's dotted key (``ui.crops.wine``); the camera's, data forms' and panel's keys get
``ui.camera.``, ``ui.data.``, ``ui.panel.``. Run once: python3 tools/js_strings_to_po.py (needs node)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DUMP = """
import fs from "fs";
const m = await import(process.argv[1] + "/web/static/js/i18n.js");
const out = { "": { en: m.en, de: m.de } };
for (const [name, file] of [["camera.", "camera.js"], ["data.", "data_forms.js"], ["panel.", "panel.js"]]) {
  const text = fs.readFileSync(process.argv[1] + "/web/static/js/" + file, "utf8");
  out[name] = eval("(" + text.match(/const STRINGS = (\\{[\\s\\S]*?\\n\\});\\n/)[1] + ")");
}
console.log(JSON.stringify(out));
"""
KEY_HARVEST = {"workers", "events", "crops", "flow_verbs", "pieces", "status_playing", "status_over"}
KEY_HARVEST_PREFIXES = ("pending_", "flow_choose_", "flow_place_bid", "flow_pay_stones", "game_key-harvest")
PLURALS: dict[str, tuple[str, str]] = {  # key: (English singular, German singular); the tables' text is the plural
    "final_rounds": ("Final rounds: {n} turn left", "Schlussrunde: noch {n} Zug"),
    "bag_fields": ("{n} field tile", "{n} Feldplättchen"),
    "bag_events": ("{n} event", "{n} Ereignis"),
    "bag_out_fields": ("{n} field tile (start tiles included):", "{n} Feldplättchen (mit Startplättchen):"),
    "flow_place_bid": ("Bid {n} stone for {label}", "{n} Stein für {label} bieten"),
    "flow_pay_stones": ("Pay {n} of {owed} stones", "{n} von {owed} Steinen zahlen"),
    "lg_trade_goods": ("{n} trade good", "{n} Handelsware"),
    "lg_hand_size": ("{n} card (limit {limit})", "{n} Karte (Limit {limit})"),
    "lg_craft_left": ("{n} craft marker left", "noch {n} Handwerksplättchen"),
    "lg_pile": ("Draw pile: {n} card; discards: {discards}", "Nachziehstapel: {n} Karte; Ablage: {discards}"),
    "lg_donkey_waiting_others": ("Your marker lies face down. Waiting for {n} other: {names}.",
                                 "Dein Plättchen liegt verdeckt. Warten auf {n} weiteren: {names}."),
    "lg_waiting.discard": ("{name} discards {n} card down to the hand limit.",
                           "{name} wirft {n} Karte bis zum Handlimit ab."),
    "lg_waiting.take": ("{name} takes {n} good.", "{name} nimmt {n} Ware."),
    "lg_waiting.deliver": ("{name} delivers ({n} delivery left), or says done.",
                           "{name} liefert (noch {n} Lieferung) oder sagt fertig."),
}
PLURAL_FIXES = {  # plurals the tables wrote with "(s)"
    "lg_donkey_waiting_others": ("Your marker lies face down. Waiting for {n} others: {names}.",
                                 "Dein Plättchen liegt verdeckt. Warten auf {n} weitere: {names}."),
    "lg_waiting.discard": ("{name} discards {n} cards down to the hand limit.",
                           "{name} wirft {n} Karten bis zum Handlimit ab."),
    "lg_waiting.take": ("{name} takes {n} goods.", "{name} nimmt {n} Waren."),
}
HEADER = """# Keydom Companion: {what}, {language_name}.
msgid ""
msgstr ""
"Language: {language}\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"
"""


def flat(table: dict[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in table.items():
        if isinstance(value, dict):
            out.update(flat(value, f"{prefix}{key}."))
        else:
            out[prefix + key] = value
    return out


def used_in(top: str, pattern: str) -> bool:
    word = re.compile(r"\W" + re.escape(top) + r"\W")
    return any(word.search(path.read_text()) for path in ROOT.glob(pattern))


def folder_of(key: str) -> Path:
    top = key.split(".")[0]
    if top.startswith("lg_") or top == "game_la-granja":
        return ROOT / "web/games/la_granja/locale"
    only_key_harvest = used_in(top, "web/games/key_harvest/*.js") and not any(
        used_in(top, pattern) for pattern in ("web/games/la_granja/*", "web/static/js/[cus]*.js", "web/templates/*"))
    if top in KEY_HARVEST or top.startswith(KEY_HARVEST_PREFIXES) or only_key_harvest:
        return ROOT / "web/games/key_harvest/locale"
    return ROOT / "web/locale"


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def entry(key: str, text: str, language: str) -> str:
    if key in PLURALS:
        singular = PLURALS[key][language == "de"]
        plural = PLURAL_FIXES.get(key, (text, text))[language == "de"] if key in PLURAL_FIXES else text
        return (f"#, python-brace-format\nmsgid {quote('ui.' + key)}\nmsgid_plural {quote('ui.' + key)}\n"
                f"msgstr[0] {quote(singular)}\nmsgstr[1] {quote(plural)}\n")
    return f"#, python-brace-format\nmsgid {quote('ui.' + key)}\nmsgstr {quote(text)}\n"


def main() -> None:
    tables = json.loads(subprocess.run(["node", "--input-type=module", "-e", DUMP, str(ROOT)], check=True,
                                       capture_output=True, text=True).stdout)
    files: dict[tuple[Path, str], list[str]] = {}
    for prefix, languages in tables.items():
        for language, table in languages.items():
            for key, text in flat(table, prefix).items():
                if key.endswith("_one") and key[:-4] in PLURALS:
                    continue
                files.setdefault((folder_of(key), language), []).append(entry(key, text, language))
    names = {"en": "English", "de": "Deutsch"}
    for (folder, language), entries in files.items():
        what = "the browser's strings" if folder.name == "locale" and folder.parent.name == "web" else \
            f"the browser's strings of {folder.parent.name}"
        folder.mkdir(parents=True, exist_ok=True)
        text = HEADER.format(what=what, language=language, language_name=names[language])
        (folder / f"{language}.po").write_text(text + "\n" + "\n".join(entries), encoding="utf-8")


if __name__ == "__main__":
    main()
