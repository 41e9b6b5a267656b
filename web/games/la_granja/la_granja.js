// La Granja on the tablet: the shared table (/games/<id>) and a seat's private page, from the JSON API
// (docs/api.md). Both play by picks (../../js/picks.js): the card or action first, then where, then how to pay,
// each pick a tap on a button in words or on the component drawn (`data-component`: a die, a market space, a
// building row's symbol, a card, a roof marker, a good). The table's picks never name a card in a hand or a
// donkey choice: those are made on the seat pages. Every rule decision is the core's; a refusal shows its
// rule ID and reason. Data is always inserted as text.

import { say, t } from "../../js/i18n.js";
import { pickFlow } from "../../js/picks.js";
import {
  byId, fill, h, paintSeat, playerName, renderLog, renderWarnings, runSeatPage, runTablePage, seatColour, seatDot,
} from "../../js/ui.js";
import { known, roofEffect } from "./words.js";

const GOODS = ["olive", "grain", "grape", "pig", "food", "wine", "meat"];
const FACES = [1, 2, 3, 4, 5, 6];
/** Decisions the shared table cannot offer (the decider's hand or secret donkey): made on the seat page. */
const PRIVATE_KINDS = ["play", "discard", "card", "donkey"];


const goodName = (good) => known(`lg_goods.${good}`, good);
const phaseName = (phase) => known(`lg_phases.${phase}`, phase);
/** A VP source (ledger code V1-V16, spent) in words: the core's messages `lg.source.<code>` (scoring.py). */
const sourceName = (source) => say({ id: `lg.source.${source.toLowerCase()}`, params: {} });
const sourceOrder = (a, b) => (Number(a.slice(1)) || 99) - (Number(b.slice(1)) || 99);

// ------------------------------------------------------------------ shared pieces of both pages

/** "Round 2 · Yield phase" and who decides about what. */
function renderStatus(game) {
  const view = game.view;
  const over = view.phase === "over" || game.to_move == null;
  const winners = (view.score || []).filter((row) => row.rank === 1).map((row) => row.name);
  fill("turn", over ? [h("strong", {}, t("game_over")), winners.length ? h("span", { class: "winners" }, " ", t("lg_winners", { names: winners.join(", ") })) : null]
    : [h("strong", {}, t("lg_round", { n: view.round })), " · ", phaseName(view.phase)]);
  const waiting = view.waiting;
  const el = fill("pending", over ? null : describeWaiting(game, waiting));
  el.dataset.kind = waiting ? waiting.kind : over ? "over" : "chance";
  el.dataset.player = waiting && waiting.player != null ? String(waiting.player) : "";
}

function describeWaiting(game, waiting) {
  if (waiting && waiting.kind === "donkey") {  // spec 3.4 step 1: every seat at once, each in secret
    return t("lg_donkeys_choosing", { names: waiting.deciders.map((seat) => playerName(game, seat)).join(", ") });
  }
  if (game.to_move === "chance" || !waiting || waiting.player == null) return t("companion_draws");
  const vars = { name: playerName(game, waiting.player), n: waiting.count, detail: waiting.detail };
  const sentence = known(`lg_waiting.${waiting.kind}`, t("lg_waiting_other", { ...vars, kind: waiting.kind }), vars);
  return [seatDot(game, waiting.player), sentence];
}

/** The dice by yield space (1-6): each die, who took it, and what the face gives. */
function renderDice(game) {
  const view = game.view;
  const rolled = view.dice.rolled;
  const left = [...view.dice.left];
  const takers = view.players.flatMap((p) => p.dice.map((value) => ({ value, seat: p.seat })));
  const lastDie = left.length === 1 && takers.length === rolled.length - 1;
  const earlier = rolled.length && view.phase !== "yield"; // the dice stay on the board until the next roll
  fill("dice-note", !rolled.length ? t("lg_dice_none") : earlier ? t("lg_dice_previous")
    : lastDie ? t("lg_dice_last", { value: left[0] }) : null);
  fill("dice", FACES.map((face) => {
    const taken = takers.filter((x) => x.value === face);
    const free = left.filter((v) => v === face).length;
    const dice = [
      ...taken.map((x) => paintSeat(h("li", { class: "die taken", "data-value": face, "data-seat": x.seat },
        h("span", { class: "pip" }, String(face)), " ", seatDot(game, x.seat), t("lg_taken_by", { name: playerName(game, x.seat) })),
        seatColour(game, x.seat))),
      ...Array.from({ length: free }, () => h("li", { class: "die free", "data-value": face, "data-component": `die${face}` },
        h("span", { class: "pip" }, String(face)), " ", t(lastDie ? "lg_die_shared" : "lg_die_free"))),
    ];
    return h("li", { class: "yield-space", "data-face": face },
      h("div", { class: "yield-head" }, h("strong", { class: "face" }, t("lg_yield_space", { n: face })),
        h("span", { class: "gives muted" }, t(`lg_faces.${face}`))),
      h("ul", { class: "dice-list" }, dice.length ? dice : h("li", { class: "muted" }, "—")));
  }));
}

/** The id a pick gives a component of `player`'s farm (`id`) while `player` decides, else none: the picker lights
 * only the decider's pieces. */
const mine = (game, player, id) => (game.view.waiting && game.view.waiting.player === player.seat ? id : null);

/** A building's name in the page's language (the core's message). */
function buildingName(game, key) {
  const building = (game.view.buildings || []).find((b) => b.building === key);
  return building ? say(building.name) : say({ id: `lg.building.${key}`, params: {} });
}

function goodsChips(game, player) {
  const chips = [
    h("li", { class: "chip", "data-good": "silver" }, t("lg_silver", { n: player.silver })),
    h("li", { class: "chip", "data-good": "trade" }, t("lg_trade_goods", { n: player.trade_goods })),
    ...GOODS.filter((g) => player.goods[g]).map((g) => h("li", { class: `chip good-${g}`, "data-good": g,
                                                                 "data-component": mine(game, player, g) },
      `${player.goods[g]} ${goodName(g)}`)),
  ];
  return h("ul", { class: "chips" }, chips);
}

function ledgerList(ledger) {
  if (ledger == null) return h("p", { class: "muted" }, t("lg_vp_hidden"));
  return h("ol", { class: "ledger" }, ledger.map((entry) => h("li", { "data-source": entry.source, "data-amount": entry.amount },
    h("span", { class: "amount" }, `${entry.amount > 0 ? "+" : ""}${entry.amount}`), " ",
    t("lg_ledger_line", { round: entry.round, source: sourceName(entry.source), note: say(entry.note) }))));
}

/** The donkey line of a player: chosen in secret (hidden), chosen (own page or after the reveal), or nothing. */
function donkeyText(game, player) {
  const waiting = game.view.waiting;
  if (player.donkey) return t("lg_donkey_value", { n: player.donkey });
  if (waiting && waiting.kind === "donkey") return t(player.donkey_chosen ? "lg_donkey_chosen" : "lg_donkey_choosing");
  return null;
}

const openLedgers = new Set(); // the seats whose ledger is unfolded stay so when the table is drawn again

function ledgerBox(player) {
  const box = h("details", { class: "ledger-box", open: openLedgers.has(player.seat) },
    h("summary", {}, t("lg_ledger")), ledgerList(player.ledger));
  box.addEventListener("toggle", () => (box.open ? openLedgers.add(player.seat) : openLedgers.delete(player.seat)));
  return box;
}

function farmCard(game, player) {
  const view = game.view;
  const deciding = view.waiting && view.waiting.player === player.seat;
  const donkey = donkeyText(game, player);
  const fact = (key, value) => (value == null || value === "" ? [] : [h("dt", {}, t(key)), h("dd", {}, value)]);
  const list = (items) => (items.length ? items.join(", ") : t("none"));
  const pieces = (items) => (items.length ? items.flatMap((item, i) => (i ? [", ", item] : [item])) : t("none"));
  const card = h("article", { class: `card board${deciding ? " to-move" : ""}`, "data-seat": player.seat,
                              "data-colour": seatColour(game, player.seat) },
    h("header", { class: "board-head" },
      h("h3", {}, seatDot(game, player.seat), player.name),
      deciding ? h("span", { class: "badge decide" }, t("to_move_badge")) : null,
      h("strong", { class: "vp count", "data-vp": player.vp ?? "" }, player.vp == null ? t("lg_vp_hidden_short") : t("lg_vp", { n: player.vp }))),
    goodsChips(game, player),
    h("dl", { class: "facts" },
      fact("lg_hand", t("lg_hand_size", { n: player.hand_size, limit: player.hand_limit })),
      player.hand ? fact("lg_hand_cards", list(player.hand)) : [],
      fact("lg_fields", pieces(player.fields.map((f) => h("span", { class: "piece field", "data-card": f.card,
        "data-component": f.grown ? mine(game, player, `${f.crop}:field`) : null },
        `${f.card} ${goodName(f.crop)}${f.grown ? " ●" : ""}`)))),
      fact("lg_carts", pieces(player.carts.map((c) => h("span", { class: "piece cart", "data-card": c.card,
        "data-component": mine(game, player, String(c.card)) },
        t("lg_cart", { card: c.card, vp: c.vp, filled: c.filled.filter(Boolean).length, of: c.symbols.length }), " ",
        c.symbols.map((sym, i) => h("span", { class: `symbol good-${sym}${c.filled[i] ? " filled" : ""}`,
          "data-component": c.filled[i] ? null : mine(game, player, `cart${c.card}=${sym}`) }, goodName(sym))))))),
      fact("lg_extensions", list(player.extensions)),
      fact("lg_helpers", pieces(player.helpers.map((x) => h("span", { class: "piece helper", "data-card": x.card,
        "data-component": mine(game, player, String(x.card)) }, `${x.card} ${say(x.name)}${x.used ? ` (${t("lg_used")})` : ""}`)))),
      fact("lg_roof", pieces(player.roof.map((r) => h("span", { class: "piece roof", "data-component": mine(game, player, r.marker) },
        `${roofEffect(r.text || r.effect)}${r.face_up ? "" : ` (${t("lg_used")})`}`)))),
      fact("lg_crafts", list(player.crafts.map((c) => `${buildingName(game, c.building)} (${t(`lg_side_${c.side}`)})`))),
      fact("lg_dice_taken", list(player.dice)),
      fact("lg_donkey", donkey),
      fact("lg_siesta_pos", String(player.siesta)),
      fact("lg_stalls", String(player.stalls)),
      fact("lg_markers", t("lg_markers_of", { n: player.markers_in_use }))),
    ledgerBox(player));
  return paintSeat(card, seatColour(game, player.seat));
}

function renderFarms(game) {
  fill("farms", game.view.players.map((player) => farmCard(game, player)));
}

function renderBoard(game) {
  const view = game.view;
  const holder = (x) => (x == null ? t("lg_free") : x === "neutral" ? t("lg_neutral") : playerName(game, x));
  fill("turn-order", view.turn_order.map((seat) => h("li", { "data-seat": seat }, seatDot(game, seat), playerName(game, seat))));
  fill("siesta", view.siesta.map((stack, space) => h("li", { class: `slot${stack.length ? " filled" : " empty"}`, "data-space": space },
    h("span", { class: "space" }, String(space)), " ",
    stack.map((seat) => h("span", { class: "disc", "data-seat": seat }, seatDot(game, seat), playerName(game, seat))))));
  fill("market", view.market.map((m) => h("li", { class: `slot${m.holder == null ? " empty" : " filled"}`, "data-space": m.space,
                                                 "data-component": m.space },
    h("strong", {}, String(m.value)), m.x ? " ✗ " : " ", holder(m.holder))));
  fill("buildings", view.buildings.map((b) => h("li", { "data-building": b.building },
    h("strong", {}, say(b.name)), " ",
    b.lock ? h("span", { class: "badge lock" }, t("lg_lock", { n: b.lock })) : null, " ",
    t("lg_craft_left", { n: b.craft_markers }), b.first_vp ? ` · ${t("lg_first_vp")}` : "",
    b.completed_by.length ? ` · ${t("lg_completed_by", { names: b.completed_by.map((s) => playerName(game, s)).join(", ") })}` : "",
    buildingRows(game, b))));
  fill("roof-display", view.roof_display.length
    ? view.roof_display.map((r) => h("li", { class: "chip", "data-marker": r.marker, "data-component": r.marker },
      roofEffect(r.text || r.effect)))
    : h("li", { class: "muted" }, t("none")));
  fill("pile", t("lg_pile", { n: view.draw_pile, discards: view.discards.length }));
}

/** A building's rows (spec 4.3.12): each row's holder and symbols; the decider's delivery to a symbol is a pick
 * (`handelshaus/2=olive` into a free row, `handelshaus=olive` into the row they hold). */
function buildingRows(game, b) {
  const decider = game.view.waiting ? game.view.waiting.player : null;
  const held = decider == null ? null : (game.view.players[decider].rows || []).find((r) => r.building === b.building);
  return h("ol", { class: "building-rows" }, b.rows.map((owner, r) => {
    const mineRow = owner != null && owner === decider;
    const filled = mineRow && held ? held.filled : [];
    const slot = (sym, i) => {
      if (decider == null || filled[i] || (owner != null && !mineRow) || (owner == null && held)) return null;
      return mineRow ? `${b.building}=${sym}` : `${b.building}/${r + 1}=${sym}`;
    };
    return h("li", { class: `building-row${owner == null ? " empty" : ""}`, "data-row": r + 1 },
      owner == null ? h("span", { class: "muted" }, t("lg_free")) : [seatDot(game, owner), playerName(game, owner)], " ",
      b.row.map((sym, i) => h("span", { class: `symbol good-${sym}${filled[i] ? " filled" : ""}`, "data-component": slot(sym, i) },
        goodName(sym))));
  }));
}

/** VP by source: a row per source in words, a column per player in `order` (seat indexes). */
function sourceTable(game, rows, order) {
  const sources = [...new Set(rows.flatMap((row) => Object.keys(row.ledger)))].sort(sourceOrder);
  return h("table", { class: "score-table lg-sources" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("lg_source_heading")),
      order.map((seat) => h("th", { scope: "col", "data-seat": seat }, seatDot(game, seat), rows[seat].name,
        rows[seat].rank ? ` (${rows[seat].rank})` : "")))),
    h("tbody", {}, sources.map((source) => h("tr", { "data-source": source },
      h("th", { scope: "row" }, sourceName(source)),
      order.map((seat) => h("td", {}, String(rows[seat].ledger[source] ?? "")))))),
    h("tfoot", {}, h("tr", {}, h("th", { scope: "row" }, t("lg_total")),
      order.map((seat) => h("td", { class: "total" }, String(rows[seat].total))))));
}

function renderScore(game) {
  const rows = game.view.score;
  if (!rows) return fill("score", h("p", { class: "muted" }, t("lg_vp_hidden")));
  return fill("score", sourceTable(game, rows, rows.map((_, seat) => seat)), h("p", { class: "muted" }, t("lg_sources_note")));
}

/** The seats of `rows` best first (rank, then seat). */
function rankOrder(rows) {
  return rows.map((_, seat) => seat).sort((a, b) => (rows[a].rank - rows[b].rank) || a - b);
}

/** The final screen once the game is over: the players ranked, winner first, each with VP by source in words and
 * the final conversion; the tie-break that decided (spec 5.4); the seed of the draws. */
function renderFinal(game) {
  const el = byId("final");
  const rows = game.view.score;
  const over = game.to_move == null && rows && rows.every((row) => row.rank);
  el.hidden = !over;
  if (!over) return fill("final");
  const order = rankOrder(rows);
  const winners = order.filter((seat) => rows[seat].rank === 1);
  const notes = tiebreakNotes(rows);
  return fill("final",
    h("h2", {}, t("lg_final_heading")),
    h("p", { class: "winner-line" }, winners.map((seat) => seatDot(game, seat)),
      t("lg_final_winner", { names: winners.map((seat) => rows[seat].name).join(", "), points: rows[winners[0]].total })),
    h("ol", { class: "final-ranking" }, order.map((seat) => {
      const row = rows[seat];
      const sources = Object.keys(row.ledger).filter((s) => row.ledger[s] || s === "V15").sort(sourceOrder); // the conversion always
      return paintSeat(h("li", { class: `final-row${row.rank === 1 ? " winner" : ""}`, "data-seat": seat, "data-rank": row.rank,
                                 "data-total": row.total },
        h("strong", { class: "final-name" }, `${row.rank}. `, seatDot(game, seat), row.name, " · ", t("lg_final_total", { n: row.total })),
        h("ul", { class: "final-sources" }, sources.map((s) => h("li", { "data-source": s },
          say({ id: "lg.score.source", params: { source: sourceName(s), points: `${row.ledger[s] > 0 ? "+" : ""}${row.ledger[s]}` } })))),
        h("p", { class: "muted" }, t("lg_final_conversion", { silver: row.silver_total, points: row.conversion_points, rest: row.rest_silver }))), seatColour(game, seat));
    })),
    h("h3", {}, t("lg_tiebreak_heading")),
    h("ul", { class: "tiebreaks" }, notes.map((note) => h("li", {}, note))),
    h("p", { class: "seed", "data-seed": game.view.seed || "" }, t("final_seed", { seed: game.view.seed || "?" })));
}

/** Which tie-break decided, as the terminal says it (companion/games/la_granja/scoring.py, tiebreak_notes). */
function tiebreakNotes(rows) {
  const notes = [];
  for (const total of [...new Set(rows.map((row) => row.total))].sort((a, b) => b - a)) {
    const level = rows.filter((row) => row.total === total);
    if (level.length < 2) continue;
    const params = { names: level.map((row) => row.name), points: total,
                     counts: level.map((row) => ({ id: "lg.score.silver_of", params: { name: row.name, n: row.rest_silver } })) };
    const decided = new Set(level.map((row) => row.rest_silver)).size > 1;
    notes.push(say({ id: decided ? "lg.score.tiebreak_silver" : "lg.score.tiebreak_shared", params }));
  }
  return notes.length ? notes : [say({ id: "lg.score.tiebreak_none", params: {} })];
}

// ------------------------------------------------------------------ the shared table

function renderTable(game) {
  const title = t("game_line", { title: game.title, players: game.players.join(", ") });
  document.title = title;
  fill("game-title", title);
  renderWarnings(game.warnings);
  renderStatus(game);
  renderDice(game);
  renderFarms(game);
  renderBoard(game);
  renderScore(game);
  renderFinal(game);
  renderLog(game.log);
  renderPrivateNote(game);
  const over = game.to_move == null;
  for (const id of ["move", "play", "undo"]) byId(id).disabled = over;
  document.body.classList.toggle("over", over);
}

/** Which decisions the table cannot offer: cards of a hand and the secret donkeys are picked on the seat pages. */
function renderPrivateNote(game) {
  const waiting = game.view.waiting;
  const secret = Boolean(waiting && PRIVATE_KINDS.includes(waiting.kind) && (waiting.kind === "donkey" || waiting.player != null));
  const seats = !secret ? [] : waiting.kind === "donkey" ? waiting.deciders : [waiting.player];
  const name = seats.map((seat) => playerName(game, seat)).join(", ");
  fill("flow-private", secret ? t(waiting.kind === "donkey" ? "lg_on_seat_page_donkey" : "lg_on_seat_page", { name }) : null);
  byId("flow-private").hidden = !secret;
}

function initTable() {
  runTablePage(renderTable, pickFlow);
}

// ------------------------------------------------------------------ a seat's private page

/** On a seat page during and after the simultaneous donkey choice: who is still choosing, then the reveal. */
function donkeyStatus(game, me) {
  const view = game.view;
  const waiting = view.waiting;
  if (waiting && waiting.kind === "donkey" && me.donkey_chosen) {
    const others = waiting.deciders.map((seat) => playerName(game, seat));
    return t("lg_donkey_waiting_others", { n: others.length, names: others.join(", ") });
  }
  if (view.phase === "transport" && view.players.every((p) => p.donkey)) {
    return t("lg_donkeys_revealed", { list: view.players.map((p) => `${p.name} ${p.donkey}`).join(", ") });
  }
  return null;
}

function renderSeat(data, colours) {
  const game = { players: data.view.players.map((p) => p.name), colours, view: data.view, to_move: data.view.to_move };
  const me = data.view.players[data.seat];
  document.title = t("seat_title", { name: data.name });
  const header = fill("seat-name", seatDot(game, data.seat), t("seat_title", { name: data.name }));
  paintSeat(header.closest(".card"), seatColour(game, data.seat));
  renderStatus(game);
  fill("hand", me.hand && me.hand.length ? me.hand.map((card) => h("li", { class: "chip card-chip", "data-card": card, "data-component": String(card) }, String(card)))
    : h("li", { class: "muted" }, t("none")));
  fill("my-donkey", me.donkey ? t("lg_donkey_value", { n: me.donkey }) : t("lg_donkey_none"),
    me.donkeys_used.length ? ` · ${t("lg_donkeys_used", { list: me.donkeys_used.join(", ") })}` : "");
  fill("donkey-status", donkeyStatus(game, me));
  fill("my-farm", farmCard(game, me));
  renderLog(data.log);
}

function initSeat() {
  runSeatPage(renderSeat, { picks: true });
}

// ------------------------------------------------------------------ start (companion.js has set the language)

const PAGES = { "lg-table": initTable, "lg-seat": initSeat };
const init = PAGES[document.body.dataset.page];
if (init) init();
