// Keyper on the tablet: the shared table (/games/<id>) and a seat's private page, from the JSON API (docs/api.md).
// The table shows the public view only: the display and the bag's contents (never its order), the country boards
// with their keyples standing or lying, the player boards, the shipping track, whose decision it is (a follower
// offer with its yields), the end-of-season checklist and the final score tile by tile. Moves are composed word
// by word from the decider's `choices` (the table) or `legal` moves (a seat page); every rule decision is the core's.
// Data is always inserted as text.

import { has, say, t } from "../../js/i18n.js";
import {
  byId, createFlow, fill, h, moveText, nextWords, paintSeat, playerName, renderLog, renderWarnings, runSeatPage,
  runTablePage, seatColour, seatDot,
} from "../../js/ui.js";

const FIRST_VERBS = ["keyper", "place", "lay", "follow", "take", "process", "trade", "convert", "build", "upgrade",
  "work", "ship", "pick", "keep", "fairs", "release", "rest", "fold"];
const LAST_VERBS = ["pass", "done"];
/** Decisions the shared table cannot offer: a board's fold is chosen in secret on each seat's page. */
const PRIVATE_KINDS = ["fold"];

/** A known key's text, else the fallback (a code the catalogs do not name). */
export function known(key, fallback, vars = {}) {
  return has(key) ? t(key, vars) : fallback;
}

const plain = (code) => String(code).replace(/_/g, " ");
/** A tile, a resource, an animal or a keyple colour in words. */
export const tileName = (tile) => known(`kp_tiles.${tile}`, plain(tile));
export const resName = (kind) => known(`kp_res.${kind}`, plain(kind));
export const colourName = (colour) => known(`kp_colours.${colour}`, plain(colour));
const verbName = (verb) => known(`kp_verbs.${verb}`, verb);
const seasonName = (season) => known(`kp_seasons.${season}`, season);

/** A field code (`gem:gold@black`) in words: what it gives and its colour. */
export function fieldWords(code) {
  const [what, colour] = code.split("@");
  const [kind, param] = what.split(":");
  const base = known(`kp_fields.${kind}`, kind, { what: param ? resName(param) : "" });
  return colour && colour !== "none" ? `${base} (${colourName(colour)})` : base;
}

/** What a fair asks and gives: "2 clay, 1 cow → 3 points" (a winter fair: its early and late sides). */
function fairWords(fair) {
  const side = (requires, vp) => t("kp_fair_needs", { list: Object.entries(requires).map(([k, n]) => `${n} ${resName(k)}`).join(", "), n: vp });
  return fair.season === "winter" ? `${side(fair.requires, fair.vp)} / ${side(fair.late_requires, fair.late_vp)}` : side(fair.requires, fair.vp);
}

/** A payment (`stone+timber`, `free`) in words. */
const payWords = (pay) => (pay === "free" ? t("kp_free") : pay.split("+").map(resName).join(" + "));

/** A keyple as a small coloured token: standing or lying, in words for screen readers. */
function keypleChip(keyple) {
  const state = keyple.standing ? t("kp_standing") : t("kp_lying");
  return h("span", { class: `keyple kp-${keyple.colour}${keyple.standing ? " standing" : " lying"}`,
                     "data-colour": keyple.colour, "data-standing": String(keyple.standing),
                     title: `${colourName(keyple.colour)}, ${state}` },
    `${colourName(keyple.colour)} ${keyple.standing ? "▲" : "▬"}`);
}

// ------------------------------------------------------------------ status and follower offers

function renderStatus(game) {
  const view = game.view;
  const over = view.over || game.to_move == null;
  const winners = (view.score || []).filter((row) => row.rank === 1).map((row) => row.name);
  fill("turn", over ? [h("strong", {}, t("game_over")), winners.length ? ` ${t("kp_winners", { names: winners.join(", ") })}` : ""]
    : [h("strong", {}, t("kp_season", { season: seasonName(view.season) })),
       view.final_round ? [" · ", h("span", { class: "badge final-round" }, t("kp_final_round"))] : null]);
  const waiting = view.waiting;
  const el = fill("pending", over ? null : describeWaiting(game, waiting));
  el.dataset.kind = waiting ? waiting.kind : over ? "over" : "chance";
  el.dataset.player = waiting && waiting.seat != null ? String(waiting.seat) : "";
}

function describeWaiting(game, waiting) {
  if (waiting && waiting.kind === "fold") {
    return t("kp_folding", { names: waiting.deciders.map((seat) => playerName(game, seat)).join(", ") });
  }
  if (game.to_move === "chance" || !waiting || waiting.seat == null) return t("companion_draws");
  const vars = { name: playerName(game, waiting.seat), n: waiting.units || 0, target: targetWords(waiting.target || "") };
  const line = [seatDot(game, waiting.seat), known(`kp_waiting.${waiting.kind}`, say(waiting.text || waiting.kind), vars)];
  if (waiting.follow) line.push(" ", followLine(game, waiting.follow));
  return line;
}

/** Spec 4.3 for everyone: who placed, who may still follow (in order), and the yields alone or together. */
function followLine(game, offer) {
  return h("span", { class: "follow-offer", "data-placer": offer.placer, "data-asked": offer.asked.join(",") },
    t("kp_follow_offer", { placer: playerName(game, offer.placer), colour: colourName(offer.colour || ""),
      names: offer.asked.map((seat) => playerName(game, seat)).join(", "), alone: offer.alone, together: offer.together }));
}

/** A field (`2.7`) or a plot (`V3`) in words. */
function targetWords(target) {
  if (/^\d+\.\d+$/.test(target)) {
    const [board, field] = target.split(".");
    return t("kp_field_of", { board, field });
  }
  if (/^[FV]\d+$/.test(target)) return t(target[0] === "F" ? "kp_farm_plot" : "kp_village_plot", { n: target.slice(1) });
  return target;
}

// ------------------------------------------------------------------ the shared parts of the board

function renderSupply(game) {
  const view = game.view;
  fill("display", view.display.length ? view.display.map((tile) => h("li", { class: "chip tile", "data-tile": tile }, tileName(tile)))
    : h("li", { class: "muted" }, t("none")));
  const bag = Object.entries(view.bag).sort(([a], [b]) => tileName(a).localeCompare(tileName(b)));
  fill("bag-note", t("kp_bag_count", { n: view.bag_size }));
  fill("bag", bag.length ? bag.map(([tile, n]) => h("li", { class: "chip", "data-tile": tile }, n > 1 ? `${tileName(tile)} ×${n}` : tileName(tile)))
    : h("li", { class: "muted" }, t("none")));
  fill("piles", t("kp_piles", { discard: view.discard.length, aside: view.set_aside }));
  fill("boats", view.boats.length ? view.boats.map((boat) => {
    const on = view.boards.find((b) => b.boat === boat);
    return h("li", { class: `chip${on ? " used" : ""}`, "data-boat": boat }, on ? t("kp_boat_on", { boat, board: on.board }) : boat);
  }) : h("li", { class: "muted" }, t("none")));
}

function boardCard(game, board) {
  const keeper = board.keeper;
  return h("article", { class: "card country-board", "data-board": board.board, "data-layout": board.layout },
    h("header", { class: "board-head" },
      h("h3", {}, t("kp_board", { n: board.board })),
      h("span", { class: "muted" }, t("kp_layout", { layout: board.layout })),
      keeper == null ? h("span", { class: "badge free" }, t("kp_keep_free"))
        : paintSeat(h("span", { class: "badge keeper", "data-keeper": keeper }, seatDot(game, keeper),
          t("kp_keeper_of", { name: playerName(game, keeper) })), seatColour(game, keeper)),
      board.boat ? h("span", { class: "badge boat" }, t("kp_boat_here", { boat: board.boat })) : null),
    h("ol", { class: "fields" }, board.fields.map((field) => h("li", {
      class: `kp-field${field.keyples.length ? " taken" : ""}`, "data-field": field.field, "data-kind": field.kind },
    h("span", { class: "field-no" }, field.field.split(".")[1]), " ",
    h("span", { class: "field-kind" }, fieldWords(field.kind)), " ",
    h("span", { class: "keyples" }, field.keyples.map(keypleChip))))));
}

function renderBoards(game) {
  fill("boards", game.view.boards.map((board) => boardCard(game, board)));
}

function chips(counts, attr) {
  const items = Object.entries(counts).filter(([, n]) => n);
  return items.length ? items.map(([kind, n]) => h("li", { class: "chip", [attr]: kind }, `${n} ${resName(kind)}`))
    : [h("li", { class: "muted" }, t("none"))];
}

/** The keep area's keyples by colour, with their count. */
function keepGroups(keep) {
  const counts = new Map();
  for (const colour of keep) counts.set(colour, (counts.get(colour) || 0) + 1);
  return [...counts].map(([colour, n]) => h("span", { class: `keyple kp-${colour}`, "data-colour": colour, "data-count": n },
    n > 1 ? `${colourName(colour)} ×${n}` : colourName(colour)));
}

function plotList(player) {
  const built = ["farm", "village"].flatMap((area) => player.plots[area].filter((plot) => plot.tiles.length || plot.keyples.length));
  if (!built.length) return h("p", { class: "muted" }, t("kp_nothing_built"));
  return h("ul", { class: "plots" }, built.map((plot) => h("li", { "data-plot": plot.plot, "data-side": plot.side },
    h("strong", {}, plot.plot), " ", plot.tiles.map(tileName).join(" / "),
    plot.side === "upgraded" ? ` (${t("kp_upgraded")})` : "", " ", plot.keyples.map(keypleChip))));
}

/** A player's board: keep area, Keyper, keep tile, built and unbuilt tiles, stores, fairs, shipping. */
function playerCard(game, player, own = false) {
  const view = game.view;
  const deciding = view.waiting && (view.waiting.seat === player.seat || (view.waiting.deciders || []).includes(player.seat));
  const fact = (key, value) => [h("dt", {}, t(key)), h("dd", {}, value)];
  const list = (items) => (items.length ? items.join(", ") : t("none"));
  const keeperAt = view.boards.find((b) => b.keeper === player.seat);
  const privateFairs = player.private_fairs;
  const card = h("article", { class: `card board player-board${deciding ? " to-move" : ""}`, "data-seat": player.seat },
    h("header", { class: "board-head" },
      h("h3", {}, seatDot(game, player.seat), player.name),
      deciding ? h("span", { class: "badge decide" }, t("to_move_badge")) : null,
      h("span", { class: "badge shipping", "data-shipping": player.shipping }, t("kp_shipping_at", { n: player.shipping }))),
    h("dl", { class: "facts" },
      fact("kp_keyper", player.keyper_home ? t("kp_keyper_home") : t("kp_keyper_on", { n: keeperAt ? keeperAt.board : "?" })),
      fact("kp_keep_area", h("span", { class: "keep-area" }, player.keep.length ? keepGroups(player.keep) : t("none"))),
      player.keep_tile.length ? fact("kp_keep_tile", h("span", {}, player.keep_tile.map(keypleChip))) : [],
      fact("kp_claimed", player.claimed ? t("kp_board", { n: player.claimed }) : t("none")),
      fact("kp_unbuilt", list(player.unbuilt.map(tileName))),
      fact("kp_winter_fairs", list(player.winter_fairs.map((f) => (view.fair_tiles && view.fair_tiles[f] ? `${f} (${fairWords(view.fair_tiles[f])})` : f)))),
      fact("kp_held", list(player.held.map((x) => `${x.fair} (${seasonName(x.season)})`))),
      fact("kp_private_fairs", own && privateFairs
        ? h("span", { class: "private-fairs" }, list(privateFairs.filter(Boolean)))
        : t("kp_private_count", { n: player.private_fair_count })),
      own && player.fold ? fact("kp_my_fold", player.fold) : []),
    h("ul", { class: "chips goods" }, chips(player.goods, "data-good")),
    h("ul", { class: "chips animals" }, chips(player.animals, "data-animal")),
    plotList(player));
  return paintSeat(card, seatColour(game, player.seat));
}

function renderPlayers(game) {
  fill("players", game.view.players.map((player) => playerCard(game, player)));
}

function renderShipping(game) {
  const players = [...game.view.players].sort((a, b) => b.shipping - a.shipping || a.seat - b.seat);
  fill("shipping", players.map((p) => h("li", { "data-seat": p.seat, "data-shipping": p.shipping },
    seatDot(game, p.seat), `${p.name}: `, h("strong", {}, String(p.shipping)))));
}

// ------------------------------------------------------------------ the end-of-season checklist

function stepResult(game, step) {
  const r = step.result;
  if (r == null) return null;
  const per = (rows, key, vars) => rows.map((row) => `${playerName(game, row.seat)}: ${t(key, vars(row))}`).join(" · ");
  switch (step.step) {
    case "claim": return per(r, "kp_result_claim", (row) => ({ board: row.board || "—" }));
    case "fairs": return per(r, "kp_result_fairs", (row) => ({ fairs: row.fairs.length ? row.fairs.join(", ") : t("none") }));
    case "housing": return per(r, "kp_result_animals", (row) => ({ n: row.animals }));
    case "collect": return per(r, "kp_result_home", (row) => ({ n: row.home }));
    case "tiles": return r.map(tileName).join(", ") || t("none");
    case "boats": return r.join(", ") || t("none");
    case "fold": return r.map((b) => t("kp_result_fold", { board: b.board, layout: b.layout })).join(" · ");
    case "team_cap": return per(r, "kp_result_keep", (row) => ({ n: row.keep }));
    case "start": return t("kp_result_start", { name: r.name });
    default: return null;
  }
}

function renderSeasonEnd(game) {
  const box = byId("season-end");
  const check = game.view.season_end;
  box.hidden = !check;
  if (!check) return;
  fill("season-end-heading", t("kp_season_end_heading", { season: seasonName(check.season) }));
  fill("season-end-steps", check.steps.map((step) => h("li", { class: `step ${step.status}`, "data-step": step.step, "data-status": step.status },
    h("strong", {}, t(`kp_steps.${step.step}`)), " ", h("span", { class: "badge" }, t(`kp_step_status.${step.status}`)),
    step.result != null ? h("div", { class: "step-result" }, stepResult(game, step)) : null)));
}

// ------------------------------------------------------------------ the final screen

/** "2 pig", "3 white keyples": a score row's piece (`keyple_<colour>` for keyples) with its count. */
function pieceCount(kind, n) {
  const colour = kind.startsWith("keyple_") ? kind.slice(7) : has(`kp_colours.${kind}`) ? kind : null; // assigned keyples: by colour
  return colour ? t("kp_keyples_n", { n, colour: colourName(colour) }) : `${n} ${resName(kind)}`;
}

function renderFinal(game) {
  const el = byId("final");
  const rows = game.view.score;
  const over = game.view.over && rows;
  el.hidden = !over;
  if (!over) return fill("final");
  const order = rows.map((_, seat) => seat).sort((a, b) => rows[a].rank - rows[b].rank || a - b);
  return fill("final",
    h("h2", {}, t("kp_final_heading")),
    h("ol", { class: "final-ranking" }, order.map((seat) => {
      const row = rows[seat];
      return paintSeat(h("li", { class: `final-row${row.rank === 1 ? " winner" : ""}`, "data-seat": seat, "data-rank": row.rank, "data-total": row.total },
        h("strong", {}, `${row.rank}. `, seatDot(game, seat), row.name, " · ", t("kp_final_total", { n: row.total })),
        h("p", {}, t("kp_final_parts", { farm: row.farm, village: row.village, fairs: row.fairs, shipping: row.shipping })),
        h("table", { class: "score-table assignment" },
          h("thead", {}, h("tr", {}, h("th", {}, t("kp_plot")), h("th", {}, t("kp_tile")), h("th", {}, t("kp_assigned")), h("th", {}, t("kp_points")))),
          h("tbody", {}, row.tiles.map((tile) => h("tr", { "data-plot": tile.plot, "data-tile": tile.tile },
            h("td", {}, tile.plot), h("td", {}, tileName(tile.tile), tile.side === "upgraded" ? ` (${t("kp_upgraded")})` : ""),
            h("td", {}, Object.entries(tile.assigned).map(([k, n]) => pieceCount(k, n)).join(", ") || "—"),
            h("td", { class: "total" }, String(tile.points)))))),
        Object.keys(row.unassigned).length ? h("p", { class: "muted" }, t("kp_unassigned", {
          list: Object.entries(row.unassigned).map(([k, n]) => pieceCount(k, n)).join(", ") })) : null),
      seatColour(game, seat));
    })),
    tieNote(game),
    h("p", { class: "seed", "data-seed": game.view.seed || "" }, t("final_seed", { seed: game.view.seed || "?" })));
}

/** Spec 5.3: when totals are equal, the tie-breakers of the game's house rule decided (naming the first count that
 * told the players apart, as the core worked it out: `view.ties`), or the tie stands. */
function tieNote(game) {
  const ties = game.view.ties || [];
  if (!ties.length) return null;
  const rule = t(`variants.tiebreak.choice.${game.view.options.tiebreak}`);
  return h("ul", { class: "tiebreaks" }, ties.map((tie) => {
    const names = tie.seats.map((seat) => playerName(game, seat)).join(", ");
    if (!tie.decided_by) return h("li", { "data-points": tie.points }, t("kp_tie_shared", { names, points: tie.points }));
    const counts = tie.seats.map((seat, i) => `${playerName(game, seat)} ${tie.counts[i]}`).join(", ");
    return h("li", { "data-points": tie.points, "data-decided-by": tie.decided_by },
      t("kp_tie_decided", { names, points: tie.points, rule }), " ",
      t("kp_tie_by", { what: t(`kp_tiebreak.${tie.decided_by}`), counts }));
  }));
}

// ------------------------------------------------------------------ composing a move word by word

function verbRank(verb) {
  if (FIRST_VERBS.includes(verb)) return FIRST_VERBS.indexOf(verb);
  return LAST_VERBS.includes(verb) ? 100 + LAST_VERBS.indexOf(verb) : 50;
}

/** The distinct next words after `picked`, each with the whole move it makes if it ends one, and the move `picked`
 * makes by itself (or null). */
function nextMoves(choices, picked) {
  const { next, complete } = nextWords(choices, picked);
  return { next: new Map(next.map((word) => [word, shallowMove(choices, [...picked, word])])), complete };
}

/** The one move `picked` makes when no longer move starts with it, else null. */
function shallowMove(choices, picked) {
  const text = picked.join(" ");
  let whole = false;
  for (const move of choices) {
    if (move === text) whole = true;
    else if (move.startsWith(`${text} `)) return null;
  }
  return whole ? text : null;
}

function wordLabel(verb, word, picked) {
  if (/^\d+\.\d+$/.test(word) || /^[FV]\d+$/.test(word)) return targetWords(word);
  if (verb === "keyper") return t("kp_board", { n: word });
  if (verb === "fold") return picked.length === 1 ? t("kp_fold_mine") : t("kp_option", { option: word });
  if (word.includes("+") || word === "free") return payWords(word);
  if (has(`kp_words.${word}`)) return t(`kp_words.${word}`);
  if (has(`kp_colours.${word}`) && ["place", "follow", "rest"].includes(verb)) return colourName(word);
  if (has(`kp_res.${word}`)) return resName(word);
  if (/^[a-z_]+$/.test(word)) return tileName(word);
  return word;
}

/** The composer's buttons: `picked` so far, the next words (a word that ends a move carries it as data-move), and
 * the move `picked` makes if it is one already. `pick(word)` goes one word deeper. */
function composer(choices, picked, words, pick) {
  if (!picked.length) {
    const verbs = [...new Set(choices.map((move) => move.split(" ")[0]))].sort((a, b) => verbRank(a) - verbRank(b));
    return h("div", { class: "flow-verbs" }, verbs.map((verb) => {
      const whole = shallowMove(choices, [verb]);
      const button = h("button", { type: "button", class: `flow-verb${whole ? " direct" : ""}`, "data-verb": verb }, verbName(verb));
      if (whole) button.dataset.move = whole;
      else button.addEventListener("click", () => pick(verb));
      return button;
    }));
  }
  const { next, complete } = nextMoves(choices, picked);
  const verb = picked[0];
  return [
    h("div", { class: "flow-tokens" }, [...next].map(([word, move]) => {
      const button = h("button", { type: "button", class: "flow-token", "data-token": word }, wordLabel(verb, word, picked));
      if (move) {
        button.dataset.move = move;
        button.title = move;
      } else button.addEventListener("click", () => pick(word));
      return button;
    })),
    complete ? h("p", {}, h("button", { type: "button", class: "primary flow-finish", "data-move": picked.join(" ") },
      t("flow_finish", { move: moveText(words, picked.join(" ")) }))) : null,
  ];
}

function pathWords(picked) {
  return picked.length ? [h("strong", {}, verbName(picked[0])), ...picked.slice(1).map((w) => ` → ${wordLabel(picked[0], w, picked)}`)] : null;
}

function drawFlow(game, flow) {
  const { picked } = flow;
  const panel = byId("flow");
  const waiting = game.view.waiting;
  const seat = typeof game.to_move === "number" && game.to_move >= 0 ? game.to_move : null;
  const fairs = waiting && waiting.kind === "fairs";
  // a private fair is named only on its owner's page: the table offers the winter fairs (public) alone
  const choices = (game.choices || []).filter((move) => !fairs || move.split(" ").slice(1).every((a) => /^W\d+$/.test(a)));
  const secret = waiting && PRIVATE_KINDS.includes(waiting.kind);
  if (seat == null && !secret) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  panel.dataset.seat = seat == null ? "" : String(seat);
  if (seat != null) paintSeat(panel, seatColour(game, seat));
  fill("flow-who", seat == null ? t("kp_folding_heading") : [seatDot(game, seat), t("flow_decides", { name: playerName(game, seat) })]);
  const note = secret ? t("kp_on_seat_page_fold")
    : waiting && waiting.kind === "follow" ? t("kp_follow_here_or_seat", { name: playerName(game, seat) })
    : fairs ? t("kp_fairs_on_seat_page", { name: playerName(game, seat) }) : null;
  fill("flow-private", note);
  byId("flow-private").hidden = !note;
  fill("flow-path", pathWords(picked));
  byId("flow-back").hidden = !picked.length;
  if (!choices.length || secret) {
    fill("flow-options");
    return;
  }
  fill("flow-options", h("p", { class: "flow-prompt" }, picked.length ? t("kp_choose_next", { verb: verbName(picked[0]) }) : t("flow_choose_action")),
    composer(choices, picked, game.words, flow.pick));
}

// ------------------------------------------------------------------ the pages

function renderTable(game) {
  const title = t("game_line", { title: game.title, players: game.players.join(", ") });
  document.title = title;
  fill("game-title", title);
  renderWarnings(game.warnings);
  renderStatus(game);
  renderSeasonEnd(game);
  renderBoards(game);
  renderPlayers(game);
  renderSupply(game);
  renderShipping(game);
  renderFinal(game);
  renderLog(game.log);
  document.body.classList.toggle("over", game.to_move == null);
}

let seatPicked = [];
let seatVersion = -1;
let seatData = null;
let seatColours = [];

function renderSeat(data, colours) {
  seatData = data;
  seatColours = colours;
  const game = { players: data.view.players.map((p) => p.name), colours, view: data.view, to_move: data.view.to_move };
  const me = data.view.players[data.seat];
  document.title = t("seat_title", { name: data.name });
  const header = fill("seat-name", seatDot(game, data.seat), t("seat_title", { name: data.name }));
  paintSeat(header.closest(".card"), seatColour(game, data.seat));
  renderStatus(game);
  fill("my-fairs", (me.private_fairs || []).map((fair, i) => h("li", { class: `chip${fair ? "" : " muted"}`, "data-fair": fair || "" },
    `${seasonName(["spring", "summer", "autumn"][i])}: ${fair || t("kp_fair_gone")}`,
    fair && data.view.fair_tiles[fair] ? ` · ${fairWords(data.view.fair_tiles[fair])}` : "")));
  fill("my-board", playerCard(game, me, true));
  if (data.version !== seatVersion) {
    seatVersion = data.version;
    seatPicked = [];
  }
  renderSeatLegal();
  renderLog(data.log);
}

function renderSeatLegal() {
  const data = seatData;
  const legal = data.legal || [];
  if (!legal.length) return fill("legal", h("p", { class: "muted" }, t("no_legal")));
  const back = seatPicked.length ? h("button", { type: "button", class: "move-back" }, t("flow_back")) : null;
  if (back) back.addEventListener("click", () => { seatPicked = seatPicked.slice(0, -1); renderSeatLegal(); });
  const waiting = data.view.waiting;
  const offer = waiting && waiting.kind === "follow" && waiting.seat === data.seat && waiting.follow
    ? h("p", { class: "note follow-note" }, followLine({ players: data.view.players.map((p) => p.name), colours: seatColours }, waiting.follow)) : null;
  return fill("legal", offer, h("p", { class: "flow-path" }, pathWords(seatPicked)),
    composer(legal, seatPicked, data.words || {}, (word) => { seatPicked = [...seatPicked, word]; renderSeatLegal(); }), back);
}

const PAGES = { "kp-table": () => runTablePage(renderTable, (play) => createFlow(play, drawFlow)), "kp-seat": () => runSeatPage(renderSeat) };
const init = PAGES[document.body.dataset.page];
if (init) init();
