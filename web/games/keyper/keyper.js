// Keyper on the tablet: the shared table (/games/<id>) and a seat's private page, from the JSON API (docs/api.md).
// The table shows the public view only: the display and the bag's contents (never its order), the country boards
// with their keyples standing or lying, the player boards, the shipping track, whose decision it is (a follower
// offer with its yields), the end-of-season checklist and the final score tile by tile. A decision is made by picks
// (../../js/picks.js): the keyple, then the board and the field, then the payment; the components the page draws
// carry `data-component` (fields, boards, tiles, boats, plots, keyples) so the picker lights them and a tap picks.
// Every rule decision is the core's. Data is always inserted as text.

import { has, say, t } from "../../js/i18n.js";
import { pickFlow } from "../../js/picks.js";
import {
  byId, fill, h, paintSeat, playerName, renderLog, renderWarnings, runSeatPage, runTablePage, seatColour, seatDot,
} from "../../js/ui.js";

/** A known key's text, else the fallback (a code the catalogs do not name). */
export function known(key, fallback, vars = {}) {
  return has(key) ? t(key, vars) : fallback;
}

const plain = (code) => String(code).replace(/_/g, " ");
/** A tile, a resource, an animal or a keyple colour in words. */
export const tileName = (tile) => known(`kp_tiles.${tile}`, plain(tile));
export const resName = (kind) => known(`kp_res.${kind}`, plain(kind));
export const colourName = (colour) => known(`kp_colours.${colour}`, plain(colour));
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

/** A fair by its season and what it asks (a private fair not shown to this page: "a fair"). */
function fairLabel(view, fair) {
  const known_ = view.fair_tiles && view.fair_tiles[fair];
  if (!known_) return t("kp_fair_unknown");
  return `${t("kp_fair_of", { season: seasonName(known_.season) })} (${fairWords(known_)})`;
}

const isFair = (tile) => /^W\d+$/.test(tile);
/** A country tile by its printed name, a winter fair (drawn from the bag like a tile) by what it asks. */
const tileLabel = (view, tile) => (isFair(tile) ? fairLabel(view, tile) : tileName(tile));

/** A boat by the two goods its side up shows this season. */
function boatLabel(view, boat) {
  const goods = (view.boat_goods || {})[boat];
  return goods ? t("kp_boat_with", { a: resName(goods[0]), b: resName(goods[1]) }) : t("kp_boat_unknown");
}

/** A board side (`2/spring/A`) by its letter. */
const sideLetter = (layout) => String(layout).split("/").pop();

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
       ...(view.final_round ? [" · ", h("span", { class: "badge final-round" }, t("kp_final_round"))] : [])]);
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
  fill("display", view.display.length ? view.display.map((tile) => h("li", { class: "chip tile", "data-tile": tile, "data-component": tile },
    tileLabel(view, tile)))
    : h("li", { class: "muted" }, t("none")));
  // the winter fairs in the bag as one chip (which of them is drawn is the draw's secret too)
  const fairs = Object.entries(view.bag).filter(([tile]) => isFair(tile)).reduce((sum, [, n]) => sum + n, 0);
  const bag = Object.entries(view.bag).filter(([tile]) => !isFair(tile)).sort(([a], [b]) => tileName(a).localeCompare(tileName(b)));
  if (fairs) bag.push(["winter-fairs", fairs]);
  fill("bag-note", t("kp_bag_count", { n: view.bag_size }));
  const bagName = (tile) => (tile === "winter-fairs" ? t("kp_fair_of", { season: seasonName("winter") }) : tileName(tile));
  fill("bag", bag.length ? bag.map(([tile, n]) => h("li", { class: "chip", "data-tile": tile }, n > 1 ? `${bagName(tile)} ×${n}` : bagName(tile)))
    : h("li", { class: "muted" }, t("none")));
  fill("piles", t("kp_piles", { discard: view.discard.length, aside: view.set_aside }));
  fill("boats", view.boats.length ? view.boats.map((boat) => {
    const on = view.boards.find((b) => b.boat === boat);
    return h("li", { class: `chip${on ? " used" : ""}`, "data-boat": boat, "data-component": boat },
      on ? t("kp_boat_on", { boat: boatLabel(view, boat), board: on.board }) : boatLabel(view, boat));
  }) : h("li", { class: "muted" }, t("none")));
}

function boardCard(game, board) {
  const keeper = board.keeper;
  return h("article", { class: "card country-board", "data-board": board.board, "data-layout": board.layout, "data-component": `board-${board.board}` },
    h("header", { class: "board-head" },
      h("h3", {}, t("kp_board", { n: board.board })),
      h("span", { class: "muted" }, t("kp_layout", { layout: sideLetter(board.layout) })),
      keeper == null ? h("span", { class: "badge free" }, t("kp_keep_free"))
        : paintSeat(h("span", { class: "badge keeper", "data-keeper": keeper }, seatDot(game, keeper),
          t("kp_keeper_of", { name: playerName(game, keeper) })), seatColour(game, keeper)),
      board.boat ? h("span", { class: "badge boat" }, t("kp_boat_here", { boat: boatLabel(game.view, board.boat) })) : null),
    h("ol", { class: "fields" }, board.fields.map((field) => h("li", {
      class: `kp-field${field.keyples.length ? " taken" : ""}`, "data-field": field.field, "data-kind": field.kind, "data-component": field.field },
    h("span", { class: "field-no" }, field.field.split(".")[1]), " ",
    h("span", { class: "field-kind" }, fieldWords(field.kind)), " ",
    h("span", { class: "keyples" }, field.keyples.map(keypleChip))))));
}

function renderBoards(game) {
  fill("boards", game.view.boards.map((board) => boardCard(game, board)));
}

/** A player's goods and animals as counted chips; nothing at all in neither: "no goods". */
function chips(player) {
  const items = [...Object.entries(player.goods).map(([kind, n]) => [kind, n, "data-good"]),
    ...Object.entries(player.animals).map(([kind, n]) => [kind, n, "data-animal"])].filter(([, n]) => n);
  return items.length ? items.map(([kind, n, attr]) => h("li", { class: "chip", [attr]: kind }, `${n} ${resName(kind)}`))
    : [h("li", { class: "muted" }, t("kp_no_goods"))];
}

/** The keep area's keyples by colour, with their count (`pickable`: the decider's, which a tap picks). */
function keepGroups(keep, pickable) {
  const counts = new Map();
  for (const colour of keep) counts.set(colour, (counts.get(colour) || 0) + 1);
  return [...counts].map(([colour, n]) => h("span", { class: `keyple kp-${colour}`, "data-colour": colour, "data-count": n,
    ...(pickable ? { "data-component": colour } : {}) },
  n > 1 ? `${colourName(colour)} ×${n}` : colourName(colour)));
}

function plotList(player, pickable) {
  const built = ["farm", "village"].flatMap((area) => player.plots[area].filter((plot) => plot.tiles.length || plot.keyples.length));
  if (!built.length) return h("p", { class: "muted" }, t("kp_nothing_built"));
  return h("ul", { class: "plots" }, built.map((plot) => h("li", { "data-plot": plot.plot, "data-side": plot.side,
    ...(pickable ? { "data-component": plot.plot } : {}) },
    h("strong", {}, targetWords(plot.plot)), " ", plot.tiles.map(tileName).join(" / "),
    plot.side === "upgraded" ? ` (${t("kp_upgraded")})` : "", " ", plot.keyples.map(keypleChip))));
}

/** A player's board: keep area, Keyper, keep tile, built and unbuilt tiles, stores, fairs, shipping. ``own``: on the
 * player's own page, whose private fairs have their own card there (here only the count the others see). */
function playerCard(game, player, own = false) {
  const view = game.view;
  const deciding = view.waiting && (view.waiting.seat === player.seat || (view.waiting.deciders || []).includes(player.seat));
  const pickable = Boolean(deciding && view.waiting.seat === player.seat); // its pieces are the picks' components
  const fact = (key, value) => [h("dt", {}, t(key)), h("dd", {}, value)];
  const list = (items) => (items.length ? items.join(", ") : t("none"));
  const keeperAt = view.boards.find((b) => b.keeper === player.seat);
  const card = h("article", { class: `card board player-board${deciding ? " to-move" : ""}`, "data-seat": player.seat },
    h("header", { class: "board-head" },
      h("h3", {}, seatDot(game, player.seat), player.name),
      deciding ? h("span", { class: "badge decide" }, t("to_move_badge")) : null,
      h("span", { class: "badge shipping", "data-shipping": player.shipping }, t("kp_shipping_at", { n: player.shipping }))),
    h("dl", { class: "facts" },
      fact("kp_keyper", player.keyper_home ? t("kp_keyper_home") : t("kp_keyper_on", { n: keeperAt ? keeperAt.board : "?" })),
      fact("kp_keep_area", h("span", { class: "keep-area" }, player.keep.length ? keepGroups(player.keep, pickable) : t("none"))),
      player.keep_tile.length ? fact("kp_keep_tile", h("span", {}, player.keep_tile.map(keypleChip))) : [],
      fact("kp_claimed", player.claimed ? t("kp_board", { n: player.claimed }) : t("none")),
      fact("kp_unbuilt", player.unbuilt.length ? h("span", { class: "unbuilt" }, player.unbuilt.map((tile, i) => [i ? ", " : "",
        h("span", { class: "tile", "data-tile": tile, ...(pickable ? { "data-component": tile } : {}) }, tileName(tile))])) : t("none")),
      fact("kp_winter_fairs", player.winter_fairs.length ? h("span", {}, player.winter_fairs.map((f, i) => [i ? ", " : "",
        h("span", { "data-fair": f, ...(pickable ? { "data-component": f } : {}) }, fairLabel(view, f))])) : t("none")),
      fact("kp_held", list(player.held.map((x) => `${fairLabel(view, x.fair)}, ${seasonName(x.season)}`))),
      own ? [] : fact("kp_private_fairs", t("kp_private_count", { n: player.private_fair_count })),
      own && player.fold ? fact("kp_my_fold", t("kp_layout", { layout: player.fold })) : []),
    h("ul", { class: "chips goods" }, chips(player)),
    plotList(player, pickable));
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
    case "fairs": return per(r, "kp_result_fairs", (row) => ({ fairs: row.fairs.length ? row.fairs.map((f) => fairLabel(game.view, f)).join(", ") : t("none") }));
    case "housing": return per(r, "kp_result_animals", (row) => ({ n: row.animals }));
    case "collect": return per(r, "kp_result_home", (row) => ({ n: row.home }));
    case "tiles": return r.map((tile) => tileLabel(game.view, tile)).join(", ") || t("none");
    case "boats": return r.map((boat) => boatLabel(game.view, boat)).join(", ") || t("none");
    case "fold": return r.map((b) => t("kp_result_fold", { board: b.board, layout: t("kp_layout", { layout: sideLetter(b.layout) }) })).join(" · ");
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
            h("td", {}, targetWords(tile.plot)), h("td", {}, tileName(tile.tile), tile.side === "upgraded" ? ` (${t("kp_upgraded")})` : ""),
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

// ------------------------------------------------------------------ the decision on the table

/** Who decides, and what the table should know: a follower offer may be answered here or on the seat's page; a
 * seat's private fair is named on its own page only. */
function whoDecides(game) {
  const seat = typeof game.to_move === "number" && game.to_move >= 0 ? game.to_move : null;
  return seat == null ? "" : [seatDot(game, seat), t("flow_decides", { name: playerName(game, seat) })];
}

function flowNote(game) {
  const waiting = game.view.waiting;
  const seat = typeof game.to_move === "number" && game.to_move >= 0 ? game.to_move : null;
  const note = !waiting || seat == null ? null
    : waiting.kind === "follow" ? t("kp_follow_here_or_seat", { name: playerName(game, seat) })
    : waiting.kind === "fairs" ? t("kp_fairs_on_seat_page", { name: playerName(game, seat) }) : null;
  fill("flow-private", note);
  byId("flow-private").hidden = !note;
  const panel = byId("flow");
  panel.dataset.seat = seat == null ? "" : String(seat);
  if (seat != null) paintSeat(panel, seatColour(game, seat));
}

/** The table's flow: the shared picker, with the note that explains the decision. */
function tableFlow(play) {
  const flow = pickFlow(play, whoDecides);
  return { picker: flow.picker, render(game) { flow.render(game); flowNote(game); } };
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
  document.body.dataset.version = String(game.version); // the version drawn (a test waits for it)
}

function renderSeat(data, colours) {
  const game = { players: data.view.players.map((p) => p.name), colours, view: data.view, to_move: data.view.to_move };
  const me = data.view.players[data.seat];
  document.title = t("seat_title", { name: data.name });
  const header = fill("seat-name", seatDot(game, data.seat), t("seat_title", { name: data.name }));
  paintSeat(header.closest(".card"), seatColour(game, data.seat));
  renderStatus(game);
  fill("my-fairs", (me.private_fairs || []).map((fair, i) => h("li", { class: `chip${fair ? "" : " muted"}`, "data-fair": fair || "" },
    `${seasonName(["spring", "summer", "autumn"][i])}: ${fair && data.view.fair_tiles[fair] ? fairWords(data.view.fair_tiles[fair]) : t("kp_fair_gone")}`)));
  fill("my-board", playerCard(game, me, true));
  const waiting = data.view.waiting;
  const offer = waiting && waiting.kind === "follow" && waiting.seat === data.seat && waiting.follow ? followLine(game, waiting.follow) : null;
  fill("seat-offer", offer);
  byId("seat-offer").hidden = !offer;
  renderLog(data.log);
  document.body.dataset.version = String(data.version);
}

const PAGES = { "kp-table": () => runTablePage(renderTable, tableFlow), "kp-seat": () => runSeatPage(renderSeat, { picks: true }) };
const init = PAGES[document.body.dataset.page];
if (init) init();
