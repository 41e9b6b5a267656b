// The camera page: the latest frame with the stickers outlined, the board it shows with its score,
// what differs from a tracked game, and the scan station (hold one tile up, play a move that names it).
// It polls the /camera endpoints (web/camera.py). Its strings are here, in English and German.
// Data is always inserted as text (never as HTML).

const POLL_MS = 1000;

const STRINGS = {
  en: {
    title: "Camera",
    game_label: "Compare with game",
    no_game: "no game (this board alone)",
    seat_label: "Board of",
    frame_alt: "The camera's latest picture, recognised stickers outlined",
    codes_heading: "Stickers in view",
    board_heading: "The board on the photo",
    diff_heading: "Differs from the game",
    station_heading: "Scan station",
    status_off: "The camera is off. Start the service with --camera samples, usb:0 or pi.",
    status_unavailable: "No camera: {error}",
    status_stopped: "The camera stopped: {error}",
    status_waiting: "Waiting for the first picture from {camera}…",
    status_live: "Picture {frame} from {camera}",
    no_codes: "No stickers in view.",
    not_confirmed: "(seen once)",
    summary: "{tiles} field tiles, {workers} workers",
    score_workers: "Workers",
    score_largest: "Largest group",
    score_second: "Second group (×2)",
    score_majority: "Crop majorities",
    score_total: "Total",
    hidden_until_end: "shown at the end",
    alone_note: "Crop majorities need the stones behind every screen: choose the game.",
    game_note: "The game's other boards and screens, with this board as photographed.",
    only_photo: "On the photo, not in the game: {items}",
    only_game: "In the game, not on the photo: {items}",
    other_side: "Other side up than in the game: {items}",
    workers_photo: "Workers on the photo, not in the game: {items}",
    workers_game: "Workers in the game, not on the photo: {items}",
    agrees: "The photo agrees with the game.",
    station_idle: "Hold one tile or worker up to the camera.",
    station_many: "{n} components in view: show just one.",
    station_seen: "{title}",
    station_no_moves: "No legal move names it now.",
    moved_on: "The table has moved on: scan again.",
    station_choose: "Choose a game to see its moves.",
    played: "Played: {move}",
    other: "not placed: {reason}",
  },
  de: {
    title: "Kamera",
    game_label: "Mit Partie vergleichen",
    no_game: "keine Partie (nur dieses Brett)",
    seat_label: "Brett von",
    frame_alt: "Das letzte Kamerabild, erkannte Aufkleber umrandet",
    codes_heading: "Aufkleber im Bild",
    board_heading: "Das Brett auf dem Foto",
    diff_heading: "Abweichungen von der Partie",
    station_heading: "Scan-Station",
    status_off: "Die Kamera ist aus. Starte den Dienst mit --camera samples, usb:0 oder pi.",
    status_unavailable: "Keine Kamera: {error}",
    status_stopped: "Die Kamera hat angehalten: {error}",
    status_waiting: "Warte auf das erste Bild von {camera}…",
    status_live: "Bild {frame} von {camera}",
    no_codes: "Keine Aufkleber im Bild.",
    not_confirmed: "(einmal gesehen)",
    summary: "{tiles} Feldplättchen, {workers} Arbeiter",
    score_workers: "Arbeiter",
    score_largest: "Größte Gruppe",
    score_second: "Zweite Gruppe (×2)",
    score_majority: "Mehrheiten",
    score_total: "Summe",
    hidden_until_end: "am Ende",
    alone_note: "Für die Mehrheiten braucht es die Steine hinter allen Sichtschirmen: wähle die Partie.",
    game_note: "Die anderen Bretter und Sichtschirme der Partie, dieses Brett wie fotografiert.",
    only_photo: "Auf dem Foto, nicht in der Partie: {items}",
    only_game: "In der Partie, nicht auf dem Foto: {items}",
    other_side: "Andere Seite oben als in der Partie: {items}",
    workers_photo: "Arbeiter auf dem Foto, nicht in der Partie: {items}",
    workers_game: "Arbeiter in der Partie, nicht auf dem Foto: {items}",
    agrees: "Das Foto stimmt mit der Partie überein.",
    station_idle: "Halte ein Plättchen oder einen Arbeiter vor die Kamera.",
    station_many: "{n} Teile im Bild: zeige nur eines.",
    station_seen: "{title}",
    station_no_moves: "Kein erlaubter Zug nennt es gerade.",
    moved_on: "Am Tisch ist inzwischen etwas passiert: bitte neu scannen.",
    station_choose: "Wähle eine Partie, um ihre Züge zu sehen.",
    played: "Gespielt: {move}",
    other: "nicht platziert: {reason}",
  },
};

function lang() {
  return document.documentElement.lang in STRINGS ? document.documentElement.lang : "en";
}

/** The string `key` of the page's language, {placeholders} filled from `vars`. */
export function s(key, vars = {}) {
  const text = STRINGS[lang()][key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
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

function scoreRow(label, value, cls = "", missing = "") {
  const row = el("tr", "", cls ? { class: cls } : {});
  row.append(el("th", label), el("td", value === null ? missing : String(value)));
  return row;
}

function showBoard(board) {
  const read = board.read;
  const pieces = read.pieces;
  const tiles = pieces.filter((p) => p.tile).length;
  byId("cam-board-summary").textContent = s("summary", { tiles, workers: pieces.length - tiles });
  const table = byId("cam-score");
  table.replaceChildren();
  table.hidden = !board.score;
  if (board.score) {
    const sc = board.score;
    table.append(scoreRow(s("score_workers"), sc.worker_points), scoreRow(s("score_largest"), sc.largest_group_points),
                 scoreRow(s("score_second"), sc.second_group_points), scoreRow(s("score_majority"), sc.majority_points, "",
                                                                      board.game ? s("hidden_until_end") : "–"),
                 scoreRow(s("score_total"), sc.total, "total"));
  }
  byId("cam-score-note").textContent = board.score_error || (board.game ? s("game_note") : s("alone_note"));
  const conflicts = byId("cam-conflicts");
  conflicts.replaceChildren(...read.conflicts.map((c) => el("li", c.message)),
                            ...read.others.map((o) => el("li", `${o.code}: ${s("other", { reason: o.reason })}`)));
  const box = byId("cam-diff-box");
  const diff = byId("cam-diff");
  diff.replaceChildren();
  box.hidden = !board.disagreements;
  if (board.disagreements) {
    const d = board.disagreements;
    const lines = [["only_photo", d.tiles_only_on_photo], ["only_game", d.tiles_only_in_game],
                   ["other_side", d.tiles_other_side_up], ["workers_photo", d.workers_only_on_photo],
                   ["workers_game", d.workers_only_in_game]].filter(([, items]) => items.length);
    for (const [key, items] of lines) diff.append(el("li", s(key, { items: items.join(", ") }), { "data-kind": key }));
    if (!lines.length) diff.append(el("li", s("agrees")));
  }
}

async function play(move, version) {
  const game = byId("cam-game").value;
  const response = await fetch(`/api/games/${encodeURIComponent(game)}/moves`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ move, version }),
  });
  const data = await response.json();
  byId("cam-played").textContent = response.ok ? s("played", { move })
    : response.status === 409 && data.error.type === "StaleMoveError" ? s("moved_on") : data.error.reason;
}

function showStation(station) {
  const text = byId("cam-station");
  const moves = byId("cam-moves");
  moves.replaceChildren();
  if (!station.offer) {
    text.textContent = station.in_view > 1 ? s("station_many", { n: station.in_view }) : s("station_idle");
    return;
  }
  text.textContent = s("station_seen", { title: station.offer.title });
  if (!byId("cam-game").value) {
    text.textContent += ` — ${s("station_choose")}`;
    return;
  }
  if (!station.offer.moves.length) text.textContent += ` — ${s("station_no_moves")}`;
  for (const move of station.offer.moves) {
    const button = el("button", move, { type: "button", class: "primary" });
    button.addEventListener("click", () => play(move, station.offer.version));
    const item = el("li");
    item.append(button);
    moves.append(item);
  }
}

async function poll() {
  try {
    const codes = await getJson("/camera/codes");
    showCodes(codes.data);
    byId("cam-error").hidden = true;
    if (codes.data.frame !== null && codes.data.frame !== undefined) {
      const [board, station] = await Promise.all([getJson(`/camera/board${query(true)}`),
                                                  getJson(`/camera/station${query()}`)]);
      if (board.ok) showBoard(board.data);
      else throw new Error(board.data.error.reason);
      if (station.ok) showStation(station.data);
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
    const option = el("option", `${game.players.join(", ")} (${game.status})`, { value: game.id });
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
loadGames().finally(poll);
