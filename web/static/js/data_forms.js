// The data forms (/data): a table enters its box's printed values once (web/data_forms.py), one
// form per section of a game's data pack, generated from the game's schema (docs/core.md).
// Every input carries data-path (a JSON path into the section shown, e.g. ["vp", 3]) and
// data-kind (int, text, bool, choice, symbols, mapping, text_or_null). Saving starts from the
// section as loaded (#data-original), writes each input into it, and PUTs it to the form's
// data-url; the server checks it with the core's loader and answers 400 with the reason.
// Static text carries data-t keys of the table below (English is also in the HTML).

const STRINGS = {
  en: {
    overview_title: "Your box's printed data",
    overview_intro: "Values the rulebooks do not print are provisional placeholders until you enter the ones in your box. New games use what you save here; a game already stored keeps the data it started with.",
    in_use: "In use:", yours: "your values", shipped: "shipped with the companion",
    provisional: "PROVISIONAL", checked: "checked", restore: "Restore the shipped default",
    confirm_restore: "Delete your values and go back to the shipped (provisional) default? Stored games keep theirs.",
    back: "Back to the data overview", spec: "Spec:",
    format_help: "The format of every value:",
    new_games_only: "New games use what you save; a game already stored keeps the data it started with.",
    section_provisional: "PROVISIONAL: these are placeholder values, not the ones printed in your box. Correct them from your box, tick the box below and save.",
    layout_help: "Positions are axial hex coordinates q, r (neighbours differ by one step); start pair: the label colour of the 8 start tiles (4 colours, 2 tiles each), empty for the others. Format: docs/key-harvest-layout.md.",
    camera_help: "The camera can record the positions from one photo of a full board: companion calibrate key-harvest PHOTO --install (docs/camera.md).",
    camera_link: "Camera page",
    checked_against_box: "Checked against my box (clears PROVISIONAL)",
    save: "Save", saving: "Saving…", saved: "Saved: new games use these values.",
    add_row: "Add a space", remove_row: "Remove the last space",
    bad_number: "Row {row}: {value} is not a whole number.",
    bad_income: "Row {row}: write income as kind:number, e.g. silver:1, trade:1 (not {value}).",
    offline: "The companion did not answer; nothing was saved.",
    section_cards: "Farm cards", section_market: "Market", section_buildings: "Craft buildings",
    section_siesta: "Siesta track VP", section_roof_markers: "Roof markers", section_roof_slots: "Roof slot VP",
    section_prices: "Prices", section_donkeys: "Donkey hats", section_layout: "Board layout",
    section_farm: "Farm", table_farm: "Farm", col_extra_deliveries: "Extra deliveries",
    table_cards: "Cards", table_spaces: "Spaces", table_start: "Start spaces (value 2, 3, 4, 5)",
    table_buildings: "Buildings", table_siesta: "VP from the bottom space (0) to the top",
    table_roof_markers: "Markers", table_roof_slots: "VP of farmhouse slots 1-5", table_buy: "Buy (silver)",
    table_sell: "Sell (silver)", table_upgrade: "Upgrade (silver)", table_donkeys: "Hats per donkey marker",
    col_row: "#", col_value: "Value", col_id: "Id", col_field: "Field", col_cart_symbols: "Cart symbols",
    col_cart_vp: "Cart VP", col_income: "Income", col_grey_rows: "Grey rows", col_sty: "Sty",
    col_helper: "Helper", col_helper_text: "Helper text", col_hand_limit: "Hand +", col_sell_field_crops: "Sells field crops",
    col_roof_slots_bonus: "Roof slots +", col_q: "q", col_r: "r", col_x: "X (1-3 players)", col_key: "Key",
    col_name: "Name", col_die: "Die", col_round: "Round", col_effect: "Effect", col_phase: "Phase",
    col_label: "Label", col_crop: "Crop", col_start_pair: "Start pair", col_note: "Note",
  },
  de: {
    overview_title: "Die gedruckten Daten deiner Schachtel",
    overview_intro: "Werte, die nicht in den Regelheften stehen, sind vorläufige Platzhalter, bis du die aus deiner Schachtel einträgst. Neue Spiele nutzen, was du hier speicherst; ein gespeichertes Spiel behält seine Daten.",
    in_use: "In Gebrauch:", yours: "deine Werte", shipped: "mit dem Companion geliefert",
    provisional: "VORLÄUFIG", checked: "geprüft", restore: "Gelieferten Standard wiederherstellen",
    confirm_restore: "Deine Werte löschen und zum gelieferten (vorläufigen) Standard zurück? Gespeicherte Spiele behalten ihre.",
    back: "Zurück zur Datenübersicht", spec: "Spezifikation:",
    format_help: "Das Format jedes Werts:",
    new_games_only: "Neue Spiele nutzen, was du speicherst; ein gespeichertes Spiel behält seine Daten.",
    section_provisional: "VORLÄUFIG: Platzhalterwerte, nicht die in deiner Schachtel gedruckten. Korrigiere sie nach deiner Schachtel, setze unten das Häkchen und speichere.",
    layout_help: "Positionen sind axiale Hex-Koordinaten q, r (Nachbarn unterscheiden sich um einen Schritt); Startpaar: die Beschriftungsfarbe der 8 Startplättchen (4 Farben, je 2), sonst leer. Format: docs/key-harvest-layout.md.",
    camera_help: "Die Kamera kann die Positionen aus einem Foto eines vollen Plans aufnehmen: companion calibrate key-harvest FOTO --install (docs/camera.md).",
    camera_link: "Kamera-Seite",
    checked_against_box: "Mit meiner Schachtel geprüft (hebt VORLÄUFIG auf)",
    save: "Speichern", saving: "Speichert…", saved: "Gespeichert: neue Spiele nutzen diese Werte.",
    add_row: "Feld hinzufügen", remove_row: "Letztes Feld entfernen",
    bad_number: "Zeile {row}: {value} ist keine ganze Zahl.",
    bad_income: "Zeile {row}: Einkommen als Art:Zahl schreiben, z. B. silver:1, trade:1 (nicht {value}).",
    offline: "Der Companion hat nicht geantwortet; nichts wurde gespeichert.",
    section_cards: "Hofkarten", section_market: "Markt", section_buildings: "Handwerksgebäude",
    section_siesta: "Siesta-Leiste SP", section_roof_markers: "Dachplättchen", section_roof_slots: "SP der Dachplätze",
    section_prices: "Preise", section_donkeys: "Eselhüte", section_layout: "Spielplan",
    section_farm: "Hof", table_farm: "Hof", col_extra_deliveries: "Zusätzliche Lieferungen",
    table_cards: "Karten", table_spaces: "Felder", table_start: "Startfelder (Wert 2, 3, 4, 5)",
    table_buildings: "Gebäude", table_siesta: "SP vom untersten Feld (0) bis oben",
    table_roof_markers: "Plättchen", table_roof_slots: "SP der Hausplätze 1-5", table_buy: "Kaufen (Silber)",
    table_sell: "Verkaufen (Silber)", table_upgrade: "Veredeln (Silber)", table_donkeys: "Hüte je Eselplättchen",
    col_row: "#", col_value: "Wert", col_id: "Nr.", col_field: "Feld", col_cart_symbols: "Karrensymbole",
    col_cart_vp: "Karren-SP", col_income: "Einkommen", col_grey_rows: "Graue Reihen", col_sty: "Stall",
    col_helper: "Helfer", col_helper_text: "Helfertext", col_hand_limit: "Hand +", col_sell_field_crops: "Verkauft Feldfrüchte",
    col_roof_slots_bonus: "Dachplätze +", col_q: "q", col_r: "r", col_x: "X (1-3 Spieler)", col_key: "Schlüssel",
    col_name: "Name", col_die: "Würfel", col_round: "Runde", col_effect: "Wirkung", col_phase: "Phase",
    col_label: "Beschriftung", col_crop: "Feldfrucht", col_start_pair: "Startpaar", col_note: "Notiz",
  },
};

const lang = (document.documentElement.lang || "en").startsWith("de") ? "de" : "en";
function t(key, vars = {}) {
  return (STRINGS[lang][key] ?? STRINGS.en[key] ?? key).replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? ""));
}

const $ = (id) => document.getElementById(id);

/** A value a person typed, as the data pack holds it; throws a translated message if it cannot be read. */
function readInput(input, row) {
  const raw = input.value.trim();
  switch (input.dataset.kind) {
    case "bool": return input.checked;
    case "int":
      if (!/^-?\d+$/.test(raw)) throw new Error(t("bad_number", { row, value: raw || "''" }));
      return Number(raw);
    case "choice": case "text_or_null": return raw === "" ? null : raw;
    case "symbols": return raw.split(/[\s,;]+/).filter(Boolean);
    case "mapping": {
      const income = {};
      for (const piece of raw.split(/[\s,;]+/).filter(Boolean)) {
        const found = /^([a-z]+)[:=](\d+)$/i.exec(piece);
        if (!found) throw new Error(t("bad_income", { row, value: piece }));
        income[found[1].toLowerCase()] = Number(found[2]);
      }
      return income;
    }
    default: return raw;
  }
}

/** Set `value` at `path` in `target`, creating objects (or arrays for numeric keys) on the way. */
function setPath(target, path, value) {
  let node = target;
  path.slice(0, -1).forEach((key, i) => {
    if (node[key] === null || typeof node[key] !== "object") node[key] = typeof path[i + 1] === "number" ? [] : {};
    node = node[key];
  });
  node[path[path.length - 1]] = value;
}

/** The section as the form now says: the loaded JSON with every input written into it. */
function collect(form) {
  const data = JSON.parse($("data-original").textContent);
  for (const table of form.querySelectorAll("table[data-table]")) {
    const rows = table.querySelectorAll("tbody tr");
    const first = rows[0] && JSON.parse(rows[0].querySelector("[data-path]").dataset.path);
    if (first && Array.isArray(data[first[0]])) data[first[0]].length = rows.length; // rows added or removed
  }
  for (const input of form.querySelectorAll("[data-path]")) {
    const row = input.closest("tr")?.dataset.row ?? "";
    setPath(data, JSON.parse(input.dataset.path), readInput(input, row));
  }
  data.provisional = !$("checked-against-box").checked;
  return data;
}

function showError(text) {
  const box = $("data-error");
  box.textContent = text;
  box.hidden = !text;
}

async function save(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const button = $("data-save");
  $("data-saved").hidden = true;
  let data;
  try {
    data = collect(form);
  } catch (error) {
    showError(error.message);
    return;
  }
  showError("");
  button.disabled = true;
  button.textContent = t("saving");
  try {
    const response = await fetch(form.dataset.url, {
      method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify(data),
    });
    const answer = await response.json();
    if (!response.ok) {
      showError(answer.error?.reason ?? String(response.status));
      return;
    }
    $("data-original").textContent = JSON.stringify(data);
    $("provisional-warning").hidden = !data.provisional;
    $("data-saved").hidden = false;
  } catch {
    showError(t("offline"));
  } finally {
    button.disabled = false;
    button.textContent = t("save");
  }
}

/** Siesta: the track may have more or fewer spaces than the placeholder. */
function resizeRows(add) {
  const body = document.querySelector("table[data-table] tbody");
  const rows = body.querySelectorAll("tr");
  if (!add) {
    if (rows.length > 2) rows[rows.length - 1].remove();
    return;
  }
  const copy = rows[rows.length - 1].cloneNode(true);
  const index = rows.length;
  copy.dataset.row = String(index);
  copy.querySelector("th").textContent = String(index);
  for (const input of copy.querySelectorAll("[data-path]")) {
    const path = JSON.parse(input.dataset.path);
    path[1] = index;
    input.dataset.path = JSON.stringify(path);
  }
  body.append(copy);
}

async function restore(event) {
  if (!window.confirm(t("confirm_restore"))) return;
  try {
    const response = await fetch(event.currentTarget.dataset.url, { method: "DELETE" });
    if (!response.ok) throw new Error(String(response.status));
    window.location.reload();
  } catch {
    showError(t("offline"));
  }
}

for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
for (const button of document.querySelectorAll(".data-restore")) button.addEventListener("click", restore);
const form = $("data-form");
if (form) {
  form.addEventListener("submit", save);
  if (form.dataset.resizable === "yes") {
    $("add-row").addEventListener("click", () => resizeRows(true));
    $("remove-row").addEventListener("click", () => resizeRows(false));
  }
}
