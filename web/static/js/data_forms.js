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
      const counts = {}; // name:number, the name as the pack spells it (Key Market's levels A, J, M; vp_each)
      for (const piece of raw.split(/[\s,;]+/).filter(Boolean)) {
        const found = /^(\w+)[:=](\d+)$/.exec(piece);
        if (!found) throw new Error(t("bad_count", { row, value: piece }));
        counts[found[1]] = Number(found[2]);
      }
      return counts;
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
for (const cell of document.querySelectorAll("table[data-table] tbody td")) { // a screen reader says the row and column
  const head = cell.closest("table").tHead.rows[0].cells[cell.cellIndex];
  const input = cell.querySelector("[data-path]");
  if (input && head) input.setAttribute("aria-label", `${cell.parentElement.cells[0].textContent.trim()} ${head.textContent}`);
}
for (const button of document.querySelectorAll(".data-restore")) button.addEventListener("click", restore);
const form = $("data-form");
if (form) {
  form.addEventListener("submit", save);
  if (form.dataset.resizable === "yes") {
    $("add-row").addEventListener("click", () => resizeRows(true));
    $("remove-row").addEventListener("click", () => resizeRows(false));
  }
}

// ------------------------------------------------------------------ a table of hex spaces, drawn as a board to tap

const SVG_NS = "http://www.w3.org/2000/svg";
const HEX = 26; // a space's radius in SVG units
const SQRT3 = Math.sqrt(3);

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  el.append(...children);
  return el;
}

/** Pointy-top hex centre of axial (q, r), as the table's board draws it. */
function centre(q, r) {
  return [HEX * SQRT3 * (q + r / 2), HEX * 1.5 * r];
}

function corners([x, y], radius) {
  return Array.from({ length: 6 }, (_, i) => {
    const angle = (Math.PI / 180) * (60 * i - 30);
    return `${(x + radius * Math.cos(angle)).toFixed(1)},${(y + radius * Math.sin(angle)).toFixed(1)}`;
  }).join(" ");
}

/** The board of a table of spaces (rows with hidden q and r inputs): tap a space to pick it, then tap where it lies
 * on the printed board (an empty place: it moves there; another space: the two swap). The coordinates are only ever
 * written into the hidden inputs, which the save sends as the rest of the form. */
function mountBoard(box) {
  const table = document.querySelector(`table[data-table="${box.dataset.boardFor}"]`);
  const map = box.querySelector("svg");
  const status = box.querySelector(".board-status");
  const rows = [...table.querySelectorAll("tbody tr")];
  const axis = (row, name) => row.querySelector(`input[data-axis="${name}"]`);
  const at = (row) => [Number(axis(row, "q").value), Number(axis(row, "r").value)];
  const nameOf = (row) => (row.querySelector("[data-column='label'], [data-column='id']") || {}).value || row.dataset.row;
  let picked = null; // the row of the space picked, waiting for its place

  const say = (key, vars) => { status.textContent = key ? t(key, vars) : ""; };
  const place = (row, q, r) => { axis(row, "q").value = String(q); axis(row, "r").value = String(r); };

  function tap(q, r) {
    const here = rows.find((row) => at(row)[0] === q && at(row)[1] === r);
    if (picked === null) {
      if (!here) return say("board_pick_first");
      picked = here;
      say("board_picked", { space: nameOf(here) });
    } else if (here === picked) {
      picked = null;
      say("");
    } else {
      const from = at(picked);
      if (here) place(here, ...from);
      place(picked, q, r);
      say(here ? "board_swapped" : "board_moved", { space: nameOf(picked), other: here ? nameOf(here) : "" });
      picked = null;
    }
    return draw();
  }

  function draw() {
    // the places to tap: every space's row of the board, and one more all round (the board's offset columns)
    const placed = rows.map(at);
    const col = ([q, r]) => q + Math.floor(r / 2);
    const rs = placed.map((p) => p[1]);
    const cs = placed.map(col);
    const cells = [];
    for (let r = Math.min(...rs) - 1; r <= Math.max(...rs) + 1; r += 1) {
      for (let c = Math.min(...cs) - 1; c <= Math.max(...cs) + 1; c += 1) cells.push([c - Math.floor(r / 2), r]);
    }
    const centres = cells.map(([q, r]) => centre(q, r));
    const xs = centres.map((p) => p[0]);
    const ys = centres.map((p) => p[1]);
    const pad = HEX + 2;
    const [x0, y0] = [Math.min(...xs) - pad, Math.min(...ys) - pad];
    map.setAttribute("viewBox", `${x0.toFixed(1)} ${y0.toFixed(1)} ${(Math.max(...xs) - x0 + pad).toFixed(1)} ${(Math.max(...ys) - y0 + pad).toFixed(1)}`);
    map.replaceChildren(...cells.map(([q, r], i) => {
      const row = rows.find((one) => at(one)[0] === q && at(one)[1] === r);
      const crop = row ? (row.querySelector("[data-column='crop']") || {}).value : "";
      const value = row ? (row.querySelector("[data-column='value']") || {}).value : "";
      const cell = svg("g", {
        class: `cell${row ? " space" : " empty"}${crop ? ` crop-${crop}` : ""}${row && row === picked ? " picked" : ""}`,
        "data-q": q, "data-r": r, role: "button", tabindex: 0,
        "aria-label": row ? nameOf(row) : t("board_empty", { q, r }), ...(row ? { "data-label": nameOf(row) } : {}),
      }, svg("polygon", { points: corners(centres[i], HEX - 1.5) }));
      if (row) {
        const [x, y] = centres[i];
        cell.append(svg("text", { x: x.toFixed(1), y: (y + (value ? -2 : 5)).toFixed(1) }, nameOf(row)));
        if (value) cell.append(svg("text", { class: "small", x: x.toFixed(1), y: (y + 14).toFixed(1) }, value));
      }
      cell.addEventListener("click", () => tap(q, r));
      cell.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); tap(q, r); } });
      return cell;
    }));
    for (const row of rows) row.classList.toggle("picked", row === picked);
  }

  for (const row of rows) { // a row's number picks its space too (find "A1" in the list, then tap its place)
    const head = row.querySelector("th");
    head.classList.add("pick");
    head.addEventListener("click", () => tap(...at(row)));
  }
  table.addEventListener("change", draw); // a label or crop typed in the list shows on the board
  draw();
}

for (const box of document.querySelectorAll(".hex-board[data-board-for]")) mountBoard(box);
