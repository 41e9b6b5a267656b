// Shared helpers of the tablet's pages: DOM building, the API, live updates, seat colours, the table and seat
// pages' frame (runTablePage, runSeatPage). A game's own pieces are its folder's (web/games/<game>/).
// Data is always inserted as text (never as HTML): player names are typed by players.

import { say, t } from "./i18n.js";
import { createPicker } from "./picks.js";

export const SVG_NS = "http://www.w3.org/2000/svg";
export const LOG_LINES = 30;

// ------------------------------------------------------------------ DOM helpers

/** An element with attributes (class, data-*, hidden...) and children (nodes or text). */
export function h(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** An SVG element, like h(). */
export function svg(tag, attrs = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

export function build(el, attrs, children) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value == null) continue;
    if (name === "style") el.style.cssText = String(value); // through the CSSOM: the pages' CSP refuses style attributes
    else el.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) { // nested lists of children (a term and its text per item) too
    if (child == null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function byId(id) {
  return document.getElementById(id);
}

/** Replace the children of element `id` (if the page has it). */
export function fill(id, ...children) {
  const el = byId(id);
  if (el) el.replaceChildren(...children.flat(Infinity).filter((c) => c != null && c !== false));
  return el;
}

/** `all` without one of each of `some` (an unordered pick taken out of a move's arguments), or null if `some` is
 * not all in it. */
export function withoutEach(all, some) {
  const rest = [...all];
  for (const item of some) {
    const at = rest.indexOf(item);
    if (at < 0) return null;
    rest.splice(at, 1);
  }
  return rest;
}

export function listText(items) {
  return items.length ? items.join(", ") : t("none");
}

// ------------------------------------------------------------------ the API

/** Call the API; never throws: {ok, status, data}, with a readable error in data.error when it fails. */
export async function api(method, path, body) {
  const init = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    return { ok: false, status: 0, data: { error: { reason: t("error_network") } } };
  }
  const data = response.status === 204 ? {} : await response.json().catch(() => ({}));
  return { ok: response.ok, status: response.status, data };
}

export function gamePath(gameId, rest = "") {
  return `/api/games/${encodeURIComponent(gameId)}${rest}`;
}

/** Show an API error (reason, and the rule of a refused move) in the page's #error. */
export function showError(data) {
  const error = (data && data.error) || {};
  const reason = say(error.message || error.reason) || t("error_network");
  const text = error.move ? t("error_refused", { move: error.move, reason }) : reason;
  const rule = error.rule ? h("span", { class: "rule", "data-rule": error.rule }, t("error_rule", { rule: error.rule })) : null;
  const el = fill("error", h("span", { class: "reason" }, text), rule ? " " : null, rule);
  el.hidden = false;
}

export function clearError() {
  const el = fill("error");
  if (el) el.hidden = true;
}

export function setConnection(key) {
  const el = byId("connection");
  el.textContent = key ? t(key) : "";
  el.dataset.state = key || "";
  el.title = key === "reconnecting" ? t("offline_note") : "";
}

/**
 * Follow a game's server-sent events: handlers.update({version, game}) on every change,
 * handlers.deleted() once the game is gone. Reconnects on its own after a lost connection.
 */
export function follow(gameId, handlers) {
  let source = null;
  const connect = () => {
    source = new EventSource(gamePath(gameId, "/stream"));
    source.addEventListener("open", () => {
      setConnection("live");
      if (handlers.open) handlers.open();
    });
    source.addEventListener("update", (event) => handlers.update(JSON.parse(event.data)));
    source.addEventListener("deleted", () => {
      source.close();
      handlers.deleted();
    });
    source.addEventListener("error", () => {
      setConnection("reconnecting");
      if (source.readyState === EventSource.CLOSED) setTimeout(retry, 5000); // an HTTP error: the browser gives up
    });
  };
  const retry = async () => {
    const answer = await api("GET", gamePath(gameId));
    if (answer.status === 404) handlers.deleted();
    else connect();
  };
  connect();
}

export function showDeleted() {
  setConnection("deleted");
  const el = fill("error", t("deleted"), " ", h("a", { href: "/" }, t("back_to_games")));
  el.hidden = false;
  for (const control of document.querySelectorAll("button, input")) control.disabled = true;
}

/** The lines a move caused (what to take from the box), under the form. */
export function showPlayed(lines) {
  fill("played", lines.map((line) => h("li", {}, say(line))));
}

export function playerName(game, seat) {
  return game.players[seat] ?? "?";
}

/** A seat's colour (#rrggbb) from game.colours, or null if the game has none for it. */
export function seatColour(game, seat) {
  const colour = (game.colours || [])[seat];
  return typeof colour === "string" && /^#[0-9a-fA-F]{6}$/.test(colour) ? colour : null;
}

/** Give an element the seat's colour as the CSS variable --seat (a no-op without a colour). */
export function paintSeat(el, colour) {
  if (colour) el.style.setProperty("--seat", colour);
  else el.style.removeProperty("--seat");
  return el;
}

/** A small dot in the seat's colour, before a player's name. */
export function seatDot(game, seat) {
  const colour = seatColour(game, seat);
  return colour ? paintSeat(h("span", { class: "seat-dot", "aria-hidden": "true", "data-colour": colour }), colour) : null;
}

const NOTICE_KEY = "keydom-notice-hidden:";

/** The one quiet notice of provisional data in #warnings: one line linking to the data page, the warnings
 * themselves as its tooltip; dismissed for this game (remembered in localStorage per game id). */
export function renderWarnings(warnings) {
  const gameId = document.body.dataset.gameId || "";
  let dismissed = false;
  try {
    dismissed = window.localStorage.getItem(NOTICE_KEY + gameId) === "1";
  } catch {
    // storage may be off (private mode): the notice then shows again on the next page
  }
  const shown = Boolean(warnings && warnings.length) && !dismissed;
  const el = byId("warnings");
  if (!el) return;
  el.hidden = !shown;
  if (!shown) return fill("warnings");
  if (el.querySelector(".notice")) return; // already there: not rebuilt under a finger
  const close = h("button", { type: "button", class: "notice-dismiss", "aria-label": t("notice_dismiss"), title: t("notice_dismiss") }, "×");
  close.addEventListener("click", () => {
    try {
      window.localStorage.setItem(NOTICE_KEY + gameId, "1");
    } catch {
      // not remembered: hidden on this page only
    }
    el.hidden = true;
    fill("warnings");
  });
  fill("warnings", h("li", { class: "notice", title: warnings.map(say).join("\n") },
    t("notice_provisional"), " ", h("a", { href: "/data" }, t("notice_data_link")), " ", close));
}

/** "At the table now": each physical instruction of the last player move and the draws it caused, whichever
 * device made it, until the next move (the public game's `table_now`). */
export function renderTableNow(lines) {
  const box = byId("table-now");
  if (!box) return;
  box.hidden = !(lines && lines.length);
  fill("table-now-list", (lines || []).map((line) => h("li", {}, say(line))));
}

/** What `move` does in words (the API's `words`: notation -> text or message), else its notation. */
export function moveText(words, move) {
  return words && move in words ? say(words[move]) : move;
}

export function renderLog(lines) {
  const shown = lines.slice(-LOG_LINES).reverse();
  const el = fill("log", shown.length ? shown.map((line) => h("li", {}, say(line))) : h("li", { class: "muted" }, t("log_empty")));
  el.setAttribute("start", String(lines.length || 1));
}

/** The seats in #seats: an unclaimed seat's QR code and join link (the first device to open it claims the
 * seat and gets its private link; nobody else ever sees that link), or "claimed" with a button that gives
 * the seat a new link (a lost phone: its old link stops working). */
let seatsShown = "";
let seatsTimer = null;

export async function renderSeatLinks(gameId, answer = null) {
  answer = answer || await api("GET", gamePath(gameId, "/seats"));
  if (!answer.ok) return showError(answer.data);
  clearTimeout(seatsTimer);
  if (answer.data.seats.some((seat) => !seat.claimed)) { // a phone may claim a seat at any time: look again
    seatsTimer = setTimeout(() => renderSeatLinks(gameId), 2000);
  }
  const shown = JSON.stringify(answer.data.seats);
  if (shown === seatsShown) return byId("seats");
  seatsShown = shown;
  return fill("seats", answer.data.seats.map((seat) => {
    if (seat.claimed) {
      const button = h("button", { type: "button", class: "reissue", "data-seat": seat.seat }, t("seat_reissue"));
      button.addEventListener("click", async () => {
        if (!window.confirm(t("seat_reissue_confirm", { name: seat.name }))) return;
        const again = await api("POST", gamePath(gameId, `/seats/${seat.seat}/reissue`), {});
        renderSeatLinks(gameId, again);
      });
      return h("li", { "data-seat": seat.seat, "data-claimed": "true" },
        h("span", { class: "seat-claimed" }, t("seat_claimed", { n: seat.seat + 1, name: seat.name })), " ", button);
    }
    return h("li", { "data-seat": seat.seat, "data-claimed": "false" },
      h("img", { class: "seat-qr", src: `${seat.page}/qr.svg`, width: 160, height: 160, alt: t("seat_qr_alt", { name: seat.name }) }),
      h("a", { class: "button", href: seat.page }, t("seat_link", { n: seat.seat + 1, name: seat.name })));
  }));
}

/** A seat's private page: fetch it, draw it with ``renderSeat(data, colours)``, play a tapped
 * legal move (buttons with data-move inside #legal), and fetch again on every live update. With ``picks`` the
 * seat's decision is made by picks in #legal (picks.js) and ``renderSeat`` leaves #legal alone. */
export function runSeatPage(renderSeat, { picks = false } = {}) {
  const { gameId, token } = document.body.dataset;
  const path = gamePath(gameId, `/private/${encodeURIComponent(token)}`);
  const picker = picks ? createPicker({ box: byId("legal"), apiPath: path, send: (chosen) => sendMove({ picks: chosen }) }) : null;
  let busy = false;
  let again = false;
  let colours = []; // the seats' colours, from the public game (the private view has none)
  let last = null;
  const refresh = async () => {
    if (busy) {
      again = true; // one more fetch once this one is done
      return;
    }
    busy = true;
    do {
      again = false;
      const answer = await api("GET", path);
      if (answer.ok) {
        last = answer.data;
        renderSeat(last, colours);
        if (picker) showSeatPick(picker, last);
      }
      else if (answer.status === 404) showDeleted();
      else showError(answer.data);
    } while (again);
    busy = false;
  };
  const sendMove = async (move) => {
    const answer = await api("POST", `${path}/moves`, { ...move, version: last ? last.version : null });
    if (answer.ok) {
      clearError();
      showPlayed(answer.data.played);
    } else {
      showError(answer.data);
    }
    await refresh();
  };
  byId("legal").addEventListener("click", async (event) => {
    const button = event.target.closest("button[data-move]");
    if (!button) return;
    for (const b of byId("legal").querySelectorAll("button")) b.disabled = true;
    sendMove({ move: button.dataset.move });
  });
  follow(gameId, {
    update: (update) => {
      renderWarnings(update.game.warnings);
      colours = update.game.colours || colours;
      if (last) renderSeat(last, colours);
      refresh();
    },
    deleted: showDeleted,
  });
  refresh();
}

/** A seat's decision in its picker: its first pick while it decides, else a quiet "nothing to decide". */
function showSeatPick(picker, data) {
  const first = data.deciding && data.pick && (data.pick.groups.length || data.pick.done) ? data.pick : null;
  picker.show(first, data.version);
  if (!first) fill("legal", h("p", { class: "muted" }, t("no_legal")));
  byId("legal").hidden = false;
}

/** The shared table of any game: draw each new version of the public game with ``render(game)``,
 * drive the touch flow ``createFlow(play)`` (an object with ``render(game)``), the notation box and
 * Undo, and follow live updates. */
export function runTablePage(render, createFlow) {
  const gameId = document.body.dataset.gameId;
  let shown = -1;
  let reopened = false;
  let flows = null;
  let log = []; // the whole log as this page holds it: a live update carries only the lines after `log_start`
  let logVersion = -1;
  /** Give `game` its whole log: a full game's own, or the lines held with the update's new ones; false if the
   * update follows a version this page never had (an update it missed): the page then fetches the whole game. */
  const withLog = (game) => {
    if (!game.log_start) log = game.log;
    else if (game.log_base === logVersion && game.log_start <= log.length) log = log.slice(0, game.log_start).concat(game.log);
    else return false;
    logVersion = game.version;
    game.log = log;
    return true;
  };
  const show = (game) => {
    // an update older than what is on screen, or the same version again (the stream's update and the move's own
    // answer carry the same game, in either order): drawing it again would rebuild the panel under a finger
    if (game.version < shown || (game.version === shown && !reopened)) return;
    reopened = false;
    if (!withLog(game)) {
      api("GET", gamePath(gameId)).then((answer) => (answer.ok ? show(answer.data) : showError(answer.data)));
      return;
    }
    if (shown >= 0 && game.version > shown) { // the table moved on: old messages no longer apply
      clearError();
      fill("played");
    }
    shown = game.version;
    undo = game.undo || undo;
    render(game);
    renderTableNow(game.table_now);
    flows.render(game);
    enable();
  };
  const controls = ["move", "play", "undo"].map(byId);
  let undo = { possible: false, move: null };
  const enable = () => {
    controls.forEach((control) => { control.disabled = document.body.classList.contains("over"); });
    const button = byId("undo");
    button.disabled = button.disabled || !undo.possible;
    button.title = undo.possible ? t("undo_names", { move: undo.move }) : say(undo.reason);
  };
  // Every move and undo names the version on screen: if the table moved on meanwhile (another device, a
  // double tap), the service refuses it (409) and answers the game as it is now, which is shown at once.
  const send = async (path, body) => {
    controls.forEach((control) => { control.disabled = true; }); // no double taps
    const answer = await api("POST", gamePath(gameId, path), { ...body, version: shown });
    if (!answer.ok) {
      if (answer.status === 409 && answer.data.game) show(answer.data.game);
      enable();
      showError(answer.status === 409 && answer.data.error && answer.data.error.type === "StaleMoveError"
        ? { error: { reason: t("moved_on") } } : answer.data);
      return null;
    }
    clearError();
    show(answer.data.game);
    enable();
    return answer.data;
  };
  /** Send a move: its notation (the expert box) or `{picks}`, the picks a device assembled (picks.js). */
  const play = async (move) => {
    const played = await send("/moves", typeof move === "string" ? { move } : move);
    if (played) showPlayed(played.played);
    return played;
  };
  flows = createFlow(play);
  byId("move-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = byId("move");
    const text = input.value.trim();
    if (!text) return input.focus();
    if (await play(text)) input.value = "";
    input.focus();
  });
  byId("undo").addEventListener("click", async () => {
    // the confirmation names the pieces drawn since, which go back (and come out again at the next draws)
    const ask = [t("undo_confirm", { move: undo.move }), ...(undo.lines || []).slice(1).map(say)].join("\n");
    if (!undo.possible || !window.confirm(ask)) return;
    const answer = await send("/undo", {});
    if (answer) showPlayed(answer.lines);
  });
  // a reopened stream's first update is drawn even at the version on screen; moves keep naming that version
  follow(gameId, { open: () => { reopened = true; }, update: (update) => show(update.game), deleted: showDeleted });
  api("GET", gamePath(gameId)).then((answer) => (answer.ok ? show(answer.data) : showError(answer.data)));
  renderSeatLinks(gameId);
}

/** The distinct next words of `choices` (moves as text) after the words `picked`, in order of first appearance,
 * and `complete`: the move `picked` makes by itself, or null. */
export function nextWords(choices, picked) {
  const next = [];
  let complete = null;
  for (const move of choices) {
    const words = move.split(" ");
    if (!picked.every((word, i) => words[i] === word)) continue;
    if (words.length === picked.length) complete = move;
    else if (!next.includes(words[picked.length])) next.push(words[picked.length]);
  }
  return { next, complete };
}

/** The touch flow of a table page: a move is composed word by word by taps and sent whole, one at a time.
 * The words picked so far are dropped when the game moves on (a new version) and after each send.
 * `draw(game, flow)` fills the panel (#flow); `flow.picked` holds the words so far, `flow.pick(word)` goes one
 * word deeper (or sends the move at once when `ends(game, words)` names the whole move those words make) and
 * `flow.send(move)` sends a move. A button carrying `data-move` in #flow-options sends its move; #flow-back
 * takes back the last word. Returns the object ``runTablePage`` drives (``render(game)``). */
export function createFlow(play, draw, ends = () => null) {
  let game = null;
  let shown = -1;
  let picked = [];
  let busy = false;
  const render = (newGame) => {
    if (newGame.version !== shown) {
      shown = newGame.version;
      if (!busy) picked = [];
    }
    game = newGame;
    draw(game, flow);
  };
  const flow = {
    get picked() { return picked; },
    pick(word) {
      if (busy || !game) return;
      const words = [...picked, word];
      const move = ends(game, words);
      if (move) {
        flow.send(move);
        return;
      }
      picked = words;
      render(game);
    },
    async send(move) {
      if (busy) return;
      busy = true;
      try {
        await play(move);
      } finally {
        busy = false;
        picked = [];
        if (game) render(game);
      }
    },
  };
  byId("flow-options").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-move]");
    if (button) flow.send(button.dataset.move);
  });
  byId("flow-back").addEventListener("click", () => {
    picked = picked.slice(0, -1);
    if (game) render(game);
  });
  return { render };
}
