// The camera page: the latest frame with the stickers outlined, the board it shows with its score,
// what differs from a tracked game, and the scan station (hold one tile up, or scan its QR code with a
// hand-held scanner, or type it: play a move that names it).
// It polls the /camera endpoints (web/camera.py). Its strings are catalog entries ui.camera.<key>.
// Data is always inserted as text (never as HTML).

import { say, t } from "./i18n.js";
import { createPicker } from "./picks.js";

const POLL_MS = 1000;

/** The camera page's string `key` (catalog id "ui.camera.<key>"), {placeholders} filled from `vars`. */
export function s(key, vars = {}) {
  return t(`camera.${key}`, vars);
}

const byId = (id) => document.getElementById(id);

function el(tag, text = "", attrs = {}) {
  const node = document.createElement(tag);
  node.textContent = text;
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  return node;
}

async function getJson(url) {
  const response = await fetch(url, { cache: "no-store" });
  return { ok: response.ok, data: await response.json() };
}

// A seat's board is compared with the game only with that seat's private link (?token= on this page's
// address, from the seat's own page): without it the camera reads the board alone.
const TOKEN = new URLSearchParams(window.location.search).get("token");

function query(board = false) {
  const game = byId("cam-game").value;
  if (!game || (board && !TOKEN)) return "";
  const seat = `?game=${encodeURIComponent(game)}&seat=${encodeURIComponent(byId("cam-seat").value || "0")}`;
  return board ? `${seat}&token=${encodeURIComponent(TOKEN)}` : seat;
}

function showCodes(info) {
  const camera = info.camera;
  const status = byId("cam-status");
  const error = info.error || "";
  status.textContent = s(`status_${info.status}`, { camera, error, frame: info.frame ?? "" });
  status.dataset.state = info.status;
  const list = byId("cam-codes");
  list.replaceChildren();
  const codes = info.codes || [];
  if (!codes.length) list.append(el("li", s("no_codes"), { class: "seen" }));
  for (const code of codes) {
    const item = el("li", `${code.code} `);
    item.dataset.code = code.code;
    if (!code.present) item.append(el("span", s("not_confirmed"), { class: "seen" }));
    list.append(item);
  }
  if (info.frame !== null && info.frame !== undefined) {
    byId("cam-frame").src = `/camera/frame.jpg?n=${info.frame}`;
  }
}

// The board on the photo in the game's own words (its board reader's, sent by the server): what it holds, its
// points by source, the note on what a photo alone cannot score, and each difference from the tracked game.
function showBoard(board) {
  const read = board.read;
  byId("cam-board-summary").textContent = say(board.summary);
  const score = byId("cam-score");
  score.replaceChildren(...(board.score_lines || []).map((line) => el("li", say(line))));
  score.hidden = !board.score_lines;
  byId("cam-score-note").textContent = say(board.score_error) || say(board.note);
  const conflicts = byId("cam-conflicts");
  conflicts.replaceChildren(...read.conflicts.map((c) => el("li", say(c.message))),
                            ...read.others.map((o) => el("li", `${o.code}: ${s("other", { reason: say(o.reason) })}`)));
  conflicts.hidden = !conflicts.children.length;
  const diff = byId("cam-diff");
  diff.replaceChildren(...(board.difference_lines || []).map((line) => el("li", say(line))));
  if (board.difference_lines && !board.difference_lines.length) diff.append(el("li", s("agrees")));
  byId("cam-diff-box").hidden = !board.difference_lines;
}

// The whole table in one frame: each board with its player and points, the land office, the event track, and
// with a game chosen every difference from it in words (public information only).
function showTable(info) {
  const boards = byId("cam-table-boards");
  boards.replaceChildren();
  const read = info.read;
  const rows = info.score || [];
  for (const board of read.boards) {
    const tiles = board.pieces.filter((p) => p.tile).length;
    const name = board.seat === null ? s("table_no_player") : info.names[board.seat];
    const row = rows.find((r) => r.name === name);
    const text = s(`table_board_${board.by}`, { name, tiles, workers: board.pieces.length - tiles,
                                               points: row ? row.total : "–" });
    boards.append(el("li", text, { "data-seat": String(board.seat) }));
  }
  if (!read.boards.length) boards.append(el("li", s("table_none")));
  const shown = (codes) => codes.map((c) => c.split(":")[2] || c).join(", ") || "–";
  byId("cam-table-office").textContent = s("table_office", { items: shown(read.office) });
  byId("cam-table-track").textContent = s("table_track", { items: read.row.map((c) => c.split(":")[2]).join(" ") || "–" });
  byId("cam-table-note").textContent = say(info.score_error) || "";
  const diff = byId("cam-table-diff");
  diff.replaceChildren();
  if (info.differences) {
    for (const line of info.differences) diff.append(el("li", say(line)));
    if (!info.differences.length) diff.append(el("li", s("agrees")));
  }
}

/** Send the decision the picks make (from the station), with the version it was chosen from; say what happened. */
async function play(picks, version) {
  const game = byId("cam-game").value;
  const response = await fetch(`/api/games/${encodeURIComponent(game)}/moves`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ picks, version }),
  });
  const data = await response.json();
  byId("cam-played").textContent = response.ok ? s("played", { move: (data.played || []).map(say).join(" · ") })
    : response.status === 409 && data.error.type === "StaleMoveError" ? s("moved_on") : say(data.error.message || data.error.reason);
}

let picker = null;
let pickerGame = "";

/** The station's picker (picks.js) for the chosen game: a scanned piece that leads on to more picks goes on here. */
function stationPicker() {
  const game = byId("cam-game").value;
  if (!picker || pickerGame !== game) {
    pickerGame = game;
    const box = byId("cam-picks");
    box.replaceWith(box.cloneNode(false)); // a new picker: the old one's listeners go with its box
    picker = createPicker({ box: byId("cam-picks"), apiPath: `/api/games/${encodeURIComponent(game)}`,
      send: (picks) => play(picks, picker.version) });
  }
  return picker;
}

function showStation(station) {
  const text = byId("cam-station");
  const moves = byId("cam-moves");
  moves.replaceChildren();
  const hand = station.hand_scanner;
  byId("cam-hand-scanner").hidden = !hand;
  if (hand) {
    byId("cam-hand-scanner").textContent = hand.error ? s("hand_scanner_stopped", { reason: say(hand.error) })
      : s("hand_scanner_reading");
  }
  if (station.refused) {
    text.textContent = s("station_refused", { reason: say(station.refused.message) || station.refused.reason });
    return;
  }
  if (!station.offer) {
    text.textContent = station.in_view > 1 ? s("station_many", { n: station.in_view }) : s("station_idle");
    return;
  }
  const title = station.offer.title;
  text.textContent = station.offer.source === "scanner" ? s("station_scanned", { title }) : s("station_seen", { title });
  if (!byId("cam-game").value) {
    text.textContent += ` — ${s("station_choose")}`;
    return;
  }
  if (!station.offer.starts.length) text.textContent += ` — ${s("station_no_moves")}`;
  for (const start of station.offer.starts) {
    const button = el("button", start.words.map(say).join(" · "), { type: "button", class: "primary" });
    button.addEventListener("click", () => (start.complete ? play(start.picks, station.offer.version)
      : stationPicker().start(start.picks, station.offer.version)));
    const item = el("li");
    item.append(button);
    moves.append(item);
  }
}

// The station's field takes a code's text: typed, or typed by a hand-held scanner plugged into this tablet
// (it ends each scan with Enter, which sends the form). The field keeps the focus for the next scan.
async function sendScan(event) {
  event.preventDefault();
  const field = byId("cam-scan");
  const payload = field.value.trim();
  if (!payload) return;
  const response = await fetch(`/camera/station/scan${query()}`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ payload }),
  });
  const data = await response.json();
  field.value = "";
  field.focus();
  if (response.ok) showStation(data);
  else showStation({ offer: null, in_view: 0, refused: { message: data.error.message, reason: data.error.reason } });
}

async function poll() {
  try {
    const codes = await getJson("/camera/codes");
    showCodes(codes.data);
    byId("cam-error").hidden = true;
    const station = await getJson(`/camera/station${query()}`);  // scans reach it without a camera too
    if (station.ok) showStation(station.data);
    if (codes.data.frame !== null && codes.data.frame !== undefined) {
      const game = byId("cam-game").value;
      const [board, table] = await Promise.all([
        getJson(`/camera/board${query(true)}`),
        getJson(`/camera/table${game ? `?game=${encodeURIComponent(game)}` : ""}`)]);
      if (board.ok) showBoard(board.data);
      else throw new Error(say(board.data.error.message || board.data.error.reason));
      byId("cam-table-card").hidden = !table.ok;  // hidden for a game whose table is not read in one frame
      if (table.ok) showTable(table.data);
    }
  } catch (error) {
    byId("cam-error").textContent = String(error.message || error);
    byId("cam-error").hidden = false;
  }
  window.setTimeout(poll, POLL_MS);
}

async function loadGames() {
  const { data } = await getJson("/api/games");
  const select = byId("cam-game");
  const readable = document.body.dataset.readable.split(" ");  // the games whose boards the camera reads
  for (const game of data.games.filter((g) => readable.includes(g.game))) {
    const option = el("option", `${game.players.join(", ")} (${t(`status_${game.status}`)})`, { value: game.id });
    option.dataset.players = JSON.stringify(game.players);
    select.append(option);
  }
  const asked = new URLSearchParams(window.location.search).get("game");
  if (asked) select.value = asked;
  select.addEventListener("change", fillSeats);
  fillSeats();
}

function fillSeats() {
  const select = byId("cam-game");
  const seat = byId("cam-seat");
  seat.replaceChildren();
  const chosen = select.selectedOptions[0];
  const players = chosen && chosen.dataset.players ? JSON.parse(chosen.dataset.players) : [];
  players.forEach((name, index) => seat.append(el("option", name, { value: String(index) })));
  seat.disabled = !players.length;
  const asked = new URLSearchParams(window.location.search).get("seat");
  if (asked && TOKEN) seat.value = asked;
}

function applyStrings() {
  for (const node of document.querySelectorAll("[data-cam]")) node.textContent = s(node.dataset.cam);
  for (const node of document.querySelectorAll("[data-cam-alt]")) node.alt = s(node.dataset.camAlt);
  document.title = `${s("title")} · Keydom Companion`;
}

applyStrings();
byId("cam-scan-form").addEventListener("submit", sendScan);
loadGames().finally(poll);
