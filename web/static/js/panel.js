// The virtual panel: the physical panel's lights mirrored live, its buttons clickable.
// Lights and messages come from GET /api/panel/stream (server-sent events); presses go to
// POST /api/panel/press. UNDO, like the real button, acts only when held (hold_seconds).
// Mounts on any page with an element #virtual-panel (data-game-id: the game on the table). On a table page the
// panel is that game's, always: it shows that game's lights (GET /api/panel?game=<id>), its presses act on that
// game, and it says which game the physical panel follows when that is another. On /panel (data-standalone) it
// shows the game the physical panel follows, chosen with #panel-chooser.
//   <section id="virtual-panel" class="card virtual-panel" data-game-id="{{ game_id }}"></section>
//   <script type="module" src="{{ url_for('static', filename='js/panel.js') }}"></script>
// It builds its own content and loads css/panel.css.

import { say, t as text } from "./i18n.js";

/** The panel's string `key` (catalog id "ui.panel.<key>"), {placeholders} filled from `vars`. */
function t(key, vars = {}) {
  return text(`panel.${key}`, vars);
}

const root = document.getElementById("virtual-panel");
const $ = (id) => document.getElementById(id);

const SKELETON = `
  <h2 id="panel-title"></h2>
  <p id="panel-game" class="turn"></p>
  <div class="panel-lights">
    <div id="panel-seats" class="panel-seats"></div>
    <div class="panel-light-box"><span id="panel-status" class="panel-light" role="img"></span>
      <span id="panel-status-label"></span></div>
    <div class="panel-light-box"><span id="panel-alert" class="panel-light" role="img"></span>
      <span id="panel-alert-label"></span></div>
    <div id="panel-indicators" class="panel-indicators" hidden></div>
  </div>
  <div id="panel-buttons" class="panel-buttons"></div>
  <p id="panel-next" class="muted" hidden></p>
  <p id="panel-follows" class="muted" hidden></p>
  <form id="panel-choice" class="panel-choice" autocomplete="off">
    <label for="panel-move" id="panel-move-label"></label>
    <input id="panel-move" type="text" autocapitalize="off" spellcheck="false">
    <button type="submit" id="panel-choose"></button>
  </form>
  <p id="panel-message" class="panel-message" role="status" aria-live="polite"></p>
  <ul id="panel-backends" class="warnings" hidden></ul>
  <p id="panel-table"><a id="panel-table-link" href="#"></a></p>`;

function mount() {
  root.classList.add("virtual-panel");
  root.innerHTML = SKELETON; // a fixed template: no data in it
  if (!root.hasAttribute("data-standalone")) $("panel-table").hidden = true;
  if (!document.querySelector("link[data-panel-css]")) {
    const css = document.createElement("link");
    css.rel = "stylesheet";
    css.href = new URL("../css/panel.css", import.meta.url).href;
    css.dataset.panelCss = "";
    document.head.append(css);
  }
}
let gameId = root ? root.dataset.gameId || "" : "";
const standalone = root ? root.hasAttribute("data-standalone") : false; // /panel: it follows the physical panel
const asked = () => (!standalone && gameId ? `?game=${encodeURIComponent(gameId)}` : "");
let holdSeconds = 1;
let holdButtons = ["UNDO"];
let built = false;
let shownVersion = null; // the game's version these lights show: a press names it (a stale press is refused)

function light(el, colour) {
  el.style.background = colour;
  el.style.boxShadow = colour === "#000000" ? "none" : `0 0 14px ${colour}`;
  el.dataset.colour = colour;
}

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error ? say(data.error.message || data.error.reason) : response.statusText);
  return data;
}

/** The panel's message (a string or a message from the service), refused ones marked. */
function show(message, ok) {
  const el = $("panel-message");
  const text = say(message);
  el.textContent = text;
  el.hidden = !text;
  el.classList.toggle("refused", !ok);
}

async function press(button, kind) {
  try {
    const data = await post("/api/panel/press", {
      button, kind, game: gameId || undefined, version: shownVersion === null ? undefined : shownVersion,
    });
    render(data.panel);
  } catch (error) {
    show(error.message, false);
  }
}

function buildButtons(state) {
  holdSeconds = state.hold_seconds;
  holdButtons = state.hold_buttons;
  const box = $("panel-buttons");
  box.replaceChildren();
  for (const name of state.buttons) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.button = name;
    button.textContent = holdButtons.includes(name) ? `${name} (${t("hold")} ${holdSeconds} s)` : name;
    if (holdButtons.includes(name)) {
      let timer = null;
      const start = (event) => {
        event.preventDefault();
        button.classList.add("holding");
        press(name, "press");
        timer = setTimeout(() => { timer = null; press(name, "hold"); }, holdSeconds * 1000);
      };
      const stop = () => {
        button.classList.remove("holding");
        if (timer) clearTimeout(timer);
        timer = null;
      };
      button.addEventListener("pointerdown", start);
      button.addEventListener("pointerup", stop);
      button.addEventListener("pointerleave", stop);
    } else {
      button.addEventListener("click", () => press(name, "press"));
    }
    box.append(button);
  }
  built = true;
}

function render(state) {
  if (!standalone && gameId && state.game !== gameId) return; // a table page shows its own game only
  if (!built) buildButtons(state);
  if (state.game) gameId = state.game;
  const chooser = $("panel-chooser"); // /panel's chooser of the games in progress: it shows the game followed
  if (chooser && [...chooser.options].some((option) => option.value === gameId)) chooser.value = gameId;
  shownVersion = state.version === undefined ? null : state.version;
  $("panel-game").textContent = state.game
    ? t("game", { title: state.title, players: state.players.join(", ") }) : t("no_game");
  const next = $("panel-next"); // what NEXT plays in this game, else a move of it OK could play, in words
  next.textContent = state.next ? t("next", { m: say(state.next) })
    : state.example_words ? t("example", { m: say(state.example_words) }) : "";
  next.hidden = !next.textContent;
  $("panel-move").placeholder = state.example || "";
  const follows = $("panel-follows"); // the physical panel on the table follows another game: say which
  const other = state.follows && state.follows.game !== state.game ? state.follows : null;
  follows.textContent = other ? t("follows", { title: other.title, players: other.players.join(", ") }) : "";
  follows.hidden = !other;
  const link = $("panel-table-link");
  link.textContent = t("table");
  link.href = state.game ? `/games/${state.game}` : "/";
  const seats = $("panel-seats");
  seats.replaceChildren();
  const waiting = state.lights.waiting || [];
  state.lights.seats.forEach((colour, seat) => {
    const box = document.createElement("div");
    box.className = "panel-seat";
    const lamp = document.createElement("span");
    lamp.className = "panel-light";
    lamp.dataset.seat = String(seat);
    light(lamp, colour);
    box.append(lamp, state.players[seat] || t("seat", { n: seat + 1 }));
    if (waiting.includes(seat)) { // the game may ask this seat next (Keyper's followers): its light blinks
      lamp.classList.add("blinking");
      const note = document.createElement("small");
      note.className = "panel-waiting";
      note.textContent = t("waiting");
      box.append(note);
    }
    seats.append(box);
  });
  const indicators = $("panel-indicators"); // the game's named lights (Key Market: the weather's goods)
  indicators.replaceChildren();
  for (const indicator of state.lights.indicators || []) {
    const box = document.createElement("div");
    box.className = "panel-light-box";
    box.dataset.indicator = indicator.key;
    const lamp = document.createElement("span");
    lamp.className = "panel-light";
    lamp.setAttribute("role", "img");
    light(lamp, indicator.colour);
    const label = document.createElement("span");
    label.textContent = say(indicator.label);
    box.append(lamp, label);
    indicators.append(box);
  }
  indicators.hidden = indicators.children.length === 0;
  const status = $("panel-status");
  light(status, state.lights.status_colour);
  status.dataset.status = state.lights.status;
  $("panel-status-label").textContent = t("status", { s: t(state.lights.status) });
  const alert = $("panel-alert");
  light(alert, state.lights.alert_colour);
  $("panel-alert-label").textContent = state.lights.alert ? t("alert") : t("no_alert");
  if (state.message.text) show(state.message.message || state.message.text, state.message.ok); // the viewer's language
  else if (state.choice) show(t("chosen", { m: state.choice }), true);
  const backends = $("panel-backends");
  backends.replaceChildren();
  for (const line of [...state.panels.filter((p) => p.panel !== "simulated").map(
    (p) => `${p.panel}: ${p.ok ? "ok" : "not working"}${p.message ? ` (${p.message})` : ""}`), ...state.problems]) {
    const item = document.createElement("li");
    item.textContent = line;
    backends.append(item);
  }
  backends.hidden = backends.children.length === 0;
}

function connect() {
  const source = new EventSource(`/api/panel/stream${asked()}`);
  source.addEventListener("panel", (event) => render(JSON.parse(event.data)));
  source.onerror = () => show(t("offline"), false);
}

async function start() {
  if (!root) return;
  mount();
  $("panel-title").textContent = t("title");
  $("panel-move-label").textContent = t("move_label");
  $("panel-choose").textContent = t("choose");
  $("panel-choice").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      render(await post("/api/panel/choice", { move: $("panel-move").value, game: gameId || undefined }));
    } catch (error) {
      show(error.message, false);
    }
  });
  const chooser = $("panel-chooser");
  if (chooser) {
    chooser.addEventListener("change", () => {
      gameId = chooser.value;
      post("/api/panel/follow", { game: gameId }).then(render).catch((e) => show(e.message, false));
    });
  }
  // the game shown is the one the table chose: the physical panel follows it
  if (gameId) await post("/api/panel/follow", { game: gameId }).then(render).catch((e) => show(e.message, false));
  connect();
}

start();
