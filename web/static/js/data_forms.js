// The data forms (/data): a table enters its box's printed values once (web/data_forms.py), one
// form per section of a game's data pack, generated from the game's schema (docs/core.md).
// Every input carries data-path (a JSON path into the section shown, e.g. ["vp", 3]) and
// data-kind (int, text, bool, choice, symbols, mapping, text_or_null). Saving starts from the
// section as loaded (#data-original), writes each input into it, and PUTs it to the form's
// data-url; the server checks it with the core's loader and answers 400 with the reason.
// Static text carries data-t keys of the catalogs (ui.data.<key>; English is also in the HTML).

import { has, say, t as text } from "./i18n.js";

/** The data forms' string `key` (catalog id "ui.data.<key>"), {placeholders} filled from `vars`. */
function t(key, vars = {}) {
  return text(`data.${key}`, vars);
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
      showError(answer.error ? say(answer.error.message || answer.error.reason) : String(response.status));
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

for (const el of document.querySelectorAll("[data-t]")) if (has(`data.${el.dataset.t}`)) el.textContent = t(el.dataset.t);
for (const button of document.querySelectorAll(".data-restore")) button.addEventListener("click", restore);
const form = $("data-form");
if (form) {
  form.addEventListener("submit", save);
  if (form.dataset.resizable === "yes") {
    $("add-row").addEventListener("click", () => resizeRows(true));
    $("remove-row").addEventListener("click", () => resizeRows(false));
  }
}
