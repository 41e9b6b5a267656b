// La Granja on the tablet: the shared table (/games/<id>) and a seat's private page, from the JSON API
// (docs/api.md). The shared table shows the public view and offers the decider's `choices` (which
// never name a card in a hand or a donkey choice: those are made on the seat pages) as a short flow:
// a verb, then its arguments one at a time. Every rule decision is the core's; a refusal shows its
// rule ID and reason. Data is always inserted as text.

import { say, t } from "../../js/i18n.js";
import {
  byId, createFlow, fill, h, moveText, nextWords, paintSeat, playerName, renderLog, renderWarnings, runSeatPage,
  runTablePage, seatColour, seatDot, withoutEach,
} from "../../js/ui.js";
import { known, roofEffect } from "./words.js";

const GOODS = ["olive", "grain", "grape", "pig", "food", "wine", "meat"];
const FACES = [1, 2, 3, 4, 5, 6];
/** Verbs offered first on the table, then the others as the game gives them, then these last. */
const FIRST_VERBS = ["die", "option", "take", "roof", "deliver", "extra", "stall", "release", "upgrade", "draw"];
const LAST_VERBS = ["done", "pass", "skip"];
/** Verbs naming a card in hand or the secret donkey: the API's public `choices` never hold them. */
const PRIVATE_VERBS = ["place", "discard", "donkey"];
/** Decisions the shared table cannot offer (the decider's hand or secret donkey): made on the seat page. */
const PRIVATE_KINDS = ["play", "discard", "card", "donkey"];


const goodName = (good) => known(`lg_goods.${good}`, good);
const verbName = (verb) => known(`lg_verbs.${verb}`, verb);
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
      ...Array.from({ length: free }, () => h("li", { class: "die free", "data-value": face },
        h("span", { class: "pip" }, String(face)), " ", t(lastDie ? "lg_die_shared" : "lg_die_free"))),
    ];
    return h("li", { class: "yield-space", "data-face": face },
      h("div", { class: "yield-head" }, h("strong", { class: "face" }, t("lg_yield_space", { n: face })),
        h("span", { class: "gives muted" }, t(`lg_faces.${face}`))),
      h("ul", { class: "dice-list" }, dice.length ? dice : h("li", { class: "muted" }, "—")));
  }));
}

function goodsChips(player) {
  const chips = [
    h("li", { class: "chip", "data-good": "silver" }, t("lg_silver", { n: player.silver })),
    h("li", { class: "chip", "data-good": "trade" }, t("lg_trade_goods", { n: player.trade_goods })),
    ...GOODS.filter((g) => player.goods[g]).map((g) => h("li", { class: `chip good-${g}`, "data-good": g },
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
  const card = h("article", { class: `card board${deciding ? " to-move" : ""}`, "data-seat": player.seat,
                              "data-colour": seatColour(game, player.seat) },
    h("header", { class: "board-head" },
      h("h3", {}, seatDot(game, player.seat), player.name),
      deciding ? h("span", { class: "badge decide" }, t("to_move_badge")) : null,
      h("strong", { class: "vp count", "data-vp": player.vp ?? "" }, player.vp == null ? t("lg_vp_hidden_short") : t("lg_vp", { n: player.vp }))),
    goodsChips(player),
    h("dl", { class: "facts" },
      fact("lg_hand", t("lg_hand_size", { n: player.hand_size, limit: player.hand_limit })),
      player.hand ? fact("lg_hand_cards", list(player.hand)) : [],
      fact("lg_fields", list(player.fields.map((f) => `${f.card} ${goodName(f.crop)}${f.grown ? " ●" : ""}`))),
      fact("lg_carts", list(player.carts.map((c) => t("lg_cart", { card: c.card, vp: c.vp,
        filled: c.filled.filter(Boolean).length, of: c.symbols.length })))),
      fact("lg_extensions", list(player.extensions)),
      fact("lg_helpers", list(player.helpers.map((x) => `${x.card} ${say(x.name)}${x.used ? ` (${t("lg_used")})` : ""}`))),
      fact("lg_roof", list(player.roof.map((r) => `${r.marker} ${roofEffect(r.effect)}${r.face_up ? "" : ` (${t("lg_used")})`}`))),
      fact("lg_crafts", list(player.crafts.map((c) => `${c.building} (${t(`lg_side_${c.side}`)})`))),
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
  fill("market", view.market.map((m) => h("li", { class: `slot${m.holder == null ? " empty" : " filled"}`, "data-space": m.space },
    h("strong", {}, m.space), ` (${m.value}${m.x ? " ✗" : ""}) `, holder(m.holder))));
  fill("buildings", view.buildings.map((b) => h("li", { "data-building": b.building },
    h("strong", {}, say(b.name)), " ",
    h("span", { class: "muted" }, b.row.map(goodName).join(" · ")), " ",
    b.lock ? h("span", { class: "badge lock" }, t("lg_lock", { n: b.lock })) : null, " ",
    t("lg_craft_left", { n: b.craft_markers }), b.first_vp ? ` · ${t("lg_first_vp")}` : "",
    b.completed_by.length ? ` · ${t("lg_completed_by", { names: b.completed_by.map((s) => playerName(game, s)).join(", ") })}` : "")));
  fill("roof-display", view.roof_display.length
    ? view.roof_display.map((r) => h("li", { class: "chip", "data-marker": r.marker }, `${r.marker} ${roofEffect(r.effect)}`))
    : h("li", { class: "muted" }, t("none")));
  fill("pile", t("lg_pile", { n: view.draw_pile, discards: view.discards.length }));
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

// ------------------------------------------------------------------ the move flow on the shared table

/** The order of verb buttons: the private ones (seat page), FIRST_VERBS, the others, LAST_VERBS. */
function verbRank(verb) {
  if (PRIVATE_VERBS.includes(verb)) return -10 + PRIVATE_VERBS.indexOf(verb);
  if (FIRST_VERBS.includes(verb)) return FIRST_VERBS.indexOf(verb);
  return LAST_VERBS.includes(verb) ? 100 + LAST_VERBS.indexOf(verb) : 50;
}

function verbsOf(choices) {
  return [...new Set(choices.map((move) => move.split(" ")[0]))].sort((a, b) => verbRank(a) - verbRank(b));
}

// One decision is one move: the goods of a take, the cards of a discard, the markers freed, the free upgrades of a
// grant and the deliveries of a turn are picked in any order, then sent at once. Their moves list each set once.

/** The head words of a set move (`take`, `upgrade free`...), or null for a move composed word by word. */
function setHead(words) {
  if (["take", "discard", "release", "deliver"].includes(words[0])) return 1;
  return words[0] === "upgrade" && words[1] === "free" ? 2 : null;
}

/** What a set move is made of: its tokens, a delivery's row counted apart (`wagner/2=wine`: `wagner=wine`, `wagner/2`). */
function itemsOf(words, head) {
  return words.slice(head).flatMap((token) => tokenItems(words[0], token));
}

function tokenItems(verb, token) {
  if (verb !== "deliver") return [token];
  const [target, good] = token.split("=");
  const [key, row] = target.split("/");
  return row ? [`${key}=${good}`, `${key}/${row}`] : [token];
}

/** The next words after `picked` and the whole move they make (or null): word by word, or as a set in any order. */
function compose(choices, picked) {
  const head = picked.length ? setHead(picked) : null;
  if (head == null || picked.length < head) {
    const { next, complete } = nextWords(choices, picked);
    return { next, complete, set: false };
  }
  const items = itemsOf(picked, head);
  const next = [];
  let complete = null;
  for (const move of choices) {
    const words = move.split(" ");
    if (setHead(words) !== head || words.slice(0, head).join(" ") !== picked.slice(0, head).join(" ")) continue;
    const rest = withoutEach(itemsOf(words, head), items);
    if (rest == null) continue;
    if (!rest.length) complete = move;
    for (const item of rest) {
      if (picked[0] === "deliver" && !item.includes("=")) continue;   // a row goes with its first good
      const [key, good] = item.split("=");
      const row = picked[0] === "deliver" ? rest.find((r) => r.startsWith(`${key}/`)) : null;
      const word = row ? `${row}=${good}` : item;
      if (!next.includes(word)) next.push(word);
    }
  }
  return { next, complete, set: true };
}

/** "1 of 2" while a set is picked (the count the game waits for), else null. */
function progress(waiting, picked) {
  const head = setHead(picked);
  if (head == null || !waiting || !(waiting.count > 1)) return null;
  return t("lg_pick_progress", { k: Math.min(picked.length - head + 1, waiting.count), n: waiting.count });
}

function wordLabel(verb, word) {
  if (verb === "die") return t("lg_die_label", { n: word, gives: t(`lg_faces.${word}`) });
  if (verb === "option") return known(`lg_options.${word}`, word);
  if (GOODS.includes(word)) return goodName(word);
  if (word.includes("=")) {  // a delivery: the good to its target (row on the first delivery to a building)
    const [target, good] = word.split("=");
    const [kind, where] = good.split(":");
    return `${goodName(kind)}${where ? ` (${known("lg_from_field", "field")})` : ""} → ${target}`;
  }
  return word;
}

/** A word sends the move at once when it completes one that nothing longer extends. */
function endsMove(game, words) {
  const { next, complete } = compose(game.choices || [], words);
  return complete && !next.length ? complete : null;
}

function drawFlow(game, flow) {
  const { picked } = flow;
  const panel = byId("flow");
  const waiting = game.view.waiting;
  const seat = typeof game.to_move === "number" && game.to_move >= 0 ? game.to_move : null;  // not at the simultaneous step
  const choices = game.choices || [];
  const secret = waiting && PRIVATE_KINDS.includes(waiting.kind);
  if (seat == null) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  panel.dataset.seat = String(seat);
  paintSeat(panel, seatColour(game, seat));
  fill("flow-who", seatDot(game, seat), t("flow_decides", { name: playerName(game, seat) }));
  fill("flow-private", secret ? t(waiting.kind === "donkey" ? "lg_on_seat_page_donkey" : "lg_on_seat_page",
                                   { name: playerName(game, seat) }) : null);
  byId("flow-private").hidden = !secret;
  fill("flow-path", picked.length ? [h("strong", {}, verbName(picked[0])), ...picked.slice(1).map((w) => ` → ${wordLabel(picked[0], w)}`)] : null);
  byId("flow-back").hidden = !picked.length;
  if (!choices.length) {
    fill("flow-options");
    return;
  }
  if (!picked.length) {
    fill("flow-options", h("p", { class: "flow-prompt" }, t("flow_choose_action")),
      h("div", { class: "flow-verbs" }, verbsOf(choices).map((verb) => {
        const whole = compose(choices, [verb]);
        const button = h("button", { type: "button", class: `flow-verb${whole.complete && !whole.next.length ? " direct" : ""}`,
                                     "data-verb": verb }, verbName(verb));
        button.addEventListener("click", () => flow.pick(verb));
        return button;
      })));
    return;
  }
  const verb = picked[0];
  const { next, complete } = compose(choices, picked);
  const step = progress(waiting, picked);
  const buttons = next.map((word) => {
    const button = h("button", { type: "button", class: "flow-token", "data-token": word }, wordLabel(verb, word));
    button.addEventListener("click", () => flow.pick(word));
    return button;
  });
  const finish = complete ? h("button", { type: "button", class: "primary flow-finish", "data-move": complete, title: complete },
    t("flow_finish", { move: moveText(game.words, complete) })) : null;
  fill("flow-options", h("p", { class: "flow-prompt", "data-progress": step || "" },
    t("lg_choose_next", { verb: verbName(verb) }), step ? ` (${step})` : ""),
    h("div", { class: "flow-tokens" }, buttons), finish ? h("p", {}, finish) : null);
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
  const over = game.to_move == null;
  for (const id of ["move", "play", "undo"]) byId(id).disabled = over;
  document.body.classList.toggle("over", over);
}

function initTable() {
  runTablePage(renderTable, (play) => createFlow(play, drawFlow, endsMove));
}

// ------------------------------------------------------------------ a seat's private page

function legalGroups(legal) {
  const groups = new Map();
  for (const move of legal) {
    const verb = move.split(" ")[0];
    if (!groups.has(verb)) groups.set(verb, []);
    groups.get(verb).push(move);
  }
  return [...groups].sort(([a], [b]) => verbRank(a) - verbRank(b));
}

/** A private page's move: its words where the game gives them (else `label`), its notation as the tooltip. */
function moveButton(move, label) {
  const words = moveText(seatWords, move);
  return h("button", { type: "button", class: "move", "data-move": move, title: move }, words === move ? label : words);
}

/** Card placements, one row per card of the hand: its sides and payments as short buttons. */
function placeRows(moves) {
  const byCard = new Map();
  for (const move of moves) {
    const card = move.split(" ")[1];
    if (!byCard.has(card)) byCard.set(card, []);
    byCard.get(card).push(move);
  }
  return [...byCard].map(([card, list]) => h("div", { class: "place-row", "data-card": card },
    h("strong", {}, t("lg_card_n", { n: card })), " ",
    list.map((move) => moveButton(move, move.split(" ").slice(2).join(" ")))));
}

/** A private page's button: the die with what it gives, the donkey marker in words, else the notation. */
function moveLabel(move) {
  const [verb, word] = move.split(" ");
  if (verb === "die") return wordLabel("die", word);
  if (verb === "donkey") return t("lg_donkey_value", { n: move.split(" ")[2] });
  if (verb === "option") return wordLabel("option", word);
  return move;
}

let seatPicks = {}; // per set verb, the words picked so far on this seat page
let seatLegal = [];
let seatWords = {}; // the seat's legal moves in words (the API's `words`)
let seatWaiting = null;

/** A set decision on the seat page: its words one tap each in any order ("1 of 2"), then one button sends it. */
function setComposer(verb, moves) {
  const head = verb === "upgrade" ? ["upgrade", "free"] : [verb];
  let picked = seatPicks[verb] || head;
  let step = compose(moves, picked);
  if (!step.next.length && !step.complete) {
    picked = head;
    step = compose(moves, picked);
  }
  const progressText = progress(seatWaiting, picked);
  const tokens = step.next.map((word) => {
    const button = h("button", { type: "button", class: "move-token", "data-token": word }, wordLabel(verb, word));
    button.addEventListener("click", () => {
      seatPicks = { ...seatPicks, [verb]: [...picked, word] };
      renderLegal(seatLegal);
    });
    return button;
  });
  const back = picked.length > head.length ? h("button", { type: "button", class: "move-back" }, t("flow_back")) : null;
  if (back) back.addEventListener("click", () => { seatPicks = { ...seatPicks, [verb]: picked.slice(0, -1) }; renderLegal(seatLegal); });
  return [
    h("p", { class: "flow-path", "data-progress": progressText || "" }, picked.slice(head.length).map((w) => wordLabel(verb, w)).join(" + ") || t("none"),
      progressText ? ` (${progressText})` : ""),
    h("div", { class: "moves" }, tokens),
    h("p", {}, step.complete ? moveButton(step.complete, t("flow_finish", { move: moveText(seatWords, step.complete) })) : null, back),
  ];
}

function renderLegal(legal) {
  seatLegal = legal;
  if (!legal.length) return fill("legal", h("p", { class: "muted" }, t("no_legal")));
  const groups = legalGroups(legal).flatMap(([verb, moves]) => {
    const free = verb === "upgrade" ? moves.filter((m) => m.startsWith("upgrade free ")) : [];
    if (free.length) return [[verb, moves.filter((m) => !free.includes(m))], ["upgrade free", free]].filter(([, list]) => list.length);
    return [[verb, moves]];
  });
  return fill("legal", groups.map(([verb, moves]) => h("section", { class: "move-group", "data-verb": verb },
    h("h3", {}, verbName(verb)),
    ["take", "discard", "release", "deliver", "upgrade free"].includes(verb)
      ? setComposer(verb === "upgrade free" ? "upgrade" : verb, moves)
      : h("div", { class: "moves" }, verb === "place" ? placeRows(moves) : moves.map((move) => moveButton(move, moveLabel(move)))))));
}

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
  fill("hand", me.hand && me.hand.length ? me.hand.map((card) => h("li", { class: "chip card-chip", "data-card": card }, String(card)))
    : h("li", { class: "muted" }, t("none")));
  fill("my-donkey", me.donkey ? t("lg_donkey_value", { n: me.donkey }) : t("lg_donkey_none"),
    me.donkeys_used.length ? ` · ${t("lg_donkeys_used", { list: me.donkeys_used.join(", ") })}` : "");
  fill("donkey-status", donkeyStatus(game, me));
  fill("my-farm", farmCard(game, me));
  if (seatWaiting && (!data.view.waiting || data.view.waiting.kind !== seatWaiting.kind)) seatPicks = {};
  seatWaiting = data.view.waiting;
  seatWords = data.words || {};
  renderLegal(data.legal);
  renderLog(data.log);
}

function initSeat() {
  runSeatPage(renderSeat);
}

// ------------------------------------------------------------------ start (companion.js has set the language)

const PAGES = { "lg-table": initTable, "lg-seat": initSeat };
const init = PAGES[document.body.dataset.page];
if (init) init();
