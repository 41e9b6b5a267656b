// Key Market on the tablet: the shared table (/games/<id>) and a seat's private page, from the JSON API
// (docs/api.md). The table shows the public view only: the market's rows and prices, the coming harvests with
// their reasons, the Season End as a checklist, and the decider's public decision as picks (picks.js: the piece
// or action first, then where, then how to pay; the fields, workers, guild tiles and market rows drawn here carry
// `data-component` and light up when a pick names them). The secret choices (the farmhouse payment, the goods
// brought to Market Day) and everything paid from behind a screen are picked on the seat pages. Data is always
// inserted as text; places are named in words, never by grid position.

import { has, say, t } from "../../js/i18n.js";
import { pickFlow } from "../../js/picks.js";
import {
  byId, fill, h, paintSeat, playerName, renderLog, renderWarnings, runSeatPage, runTablePage, seatColour, seatDot,
} from "../../js/ui.js";

export const GOODS = ["fruit", "veg", "wheat", "sheep", "fish", "lux"];
const LEVEL_WORD = { A: "apprentice", J: "journeyman", M: "master" };

/** A known key's text, else the fallback. */
const known = (key, fallback, vars = {}) => (has(key) ? t(key, vars) : fallback);
export const goodName = (good) => say({ id: `km.good.${good}`, params: {} });
export const seasonName = (season) => say({ id: `km.season.${season}`, params: {} });
export const guildName = (guild) => say({ id: `km.guild.${guild}`, params: {} });
const stageName = (stage) => known(`km_stages.${stage}`, stage);

/** Goods `{good: n}` as "2 Fruit, 1 Fish" (market row order), or "nothing". */
export function goodsText(goods) {
  const parts = GOODS.filter((g) => goods && goods[g]).map((g) => t("km_count_good", { n: goods[g], good: goodName(g) }));
  return parts.length ? parts.join(", ") : t("km_nothing");
}

/** The field at `x,y` in words, as the table names it ("the wheat field at the top left of Ann's board"). */
function fieldText(view, token) {
  const field = (view.fields || []).find((f) => f.at.join(",") === token);
  return field ? say(field.name) : "";
}

/** A worker's id: its code sticker's (companion/games/key_market/places.py), worker 0 is the keyworker. */
const workerId = (seat, index) => `KM:W:${seat + 1}:${index === 0 ? "K" : index}`;
/** A guild tile's id (the tiles carry no sticker: their printed number names them). */
const guildId = (guild) => `KM:G:${guild}`;

// ------------------------------------------------------------------ the shared table's cards

function renderStatus(game) {
  const view = game.view;
  const over = view.stage === "over" || game.to_move == null;
  const winners = (view.score || []).filter((row) => row.rank === 1).map((row) => row.name);
  fill("turn", over ? [h("strong", {}, t("game_over")), winners.length ? ` · ${t("km_winners", { names: winners.join(", ") })}` : null]
    : [h("strong", {}, t("km_year_season", { year: view.year, season: seasonName(view.season) })), " · ", stageName(view.stage)]);
  const el = fill("pending", over ? null : pendingText(game));
  el.dataset.stage = view.stage;
}

function pendingText(game) {
  const view = game.view;
  if (view.to_move === "simultaneous") {
    const list = view.players.map((p) => h("span", { class: `chooser${p.chosen ? " chosen" : ""}`, "data-seat": p.seat,
                                                     "data-chosen": String(p.chosen) },
      seatDot(game, p.seat), p.name, " ", p.chosen ? t("km_chosen") : t("km_choosing")));
    return [t(view.stage === "pay" ? "km_secret_pay" : "km_secret_commit"), " ", ...list];
  }
  if (view.to_move === "chance" || typeof view.to_move !== "number") return t("companion_draws");
  return [seatDot(game, view.to_move), t("km_to_move", { name: playerName(game, view.to_move), stage: stageName(view.stage) })];
}

/** The market board: each row's count, today's buy and sell price, and what the Season End takes off it. */
function renderMarket(game) {
  const view = game.view;
  fill("market", h("table", { class: "km-market" },
    h("thead", {}, h("tr", {}, ["km_good", "km_in_row", "km_buy", "km_sell", "km_removal"].map((key) => h("th", { scope: "col" }, t(key))))),
    h("tbody", {}, view.market.map((row) => h("tr", { "data-good": row.good, "data-component": row.good, "data-n": row.n, "data-buy": row.buy, "data-sell": row.sell },
      h("th", { scope: "row" }, goodName(row.good)),
      h("td", { class: "n" }, String(row.n)),
      h("td", { class: "buy" }, t("km_gold", { n: row.buy })),
      h("td", { class: "sell" }, t("km_gold", { n: row.sell }), row.covered ? h("small", {}, ` ${t("km_covered")}`) : null),
      h("td", { class: "removal" }, row.removal ? `−${row.removal}` : "—"))))),
  h("p", { class: "muted supply" }, t("km_supply", { goods: goodsText(view.supply) })));
}

/** The territory as laid: each field at its place with its good, its shape (or "village") and the worker on it,
 * each a component the picks light (`data-component`: the field's and the worker's sticker ids); under it each board
 * in words: which board and side, who laid it, where each of its fields lies, its village. */
function renderTerritory(game) {
  const view = game.view;
  if (!view.fields.length) return fill("territory", h("p", { class: "muted" }, t("km_no_boards")));
  const xs = view.fields.map((f) => f.at[0]);
  const ys = view.fields.map((f) => f.at[1]);
  const [x0, y0] = [Math.min(...xs), Math.min(...ys)];
  const workers = new Map();
  for (const p of view.players) p.workers.forEach((w, i) => { if (w.startsWith("f:")) workers.set(w.slice(2), [p.seat, i]); });
  const kind = (f) => (f.good === "lux" ? t("km_village") : t(`km_shapes.${f.shape}`));
  const grid = h("div", { class: "territory-grid", style: `grid-template-columns: repeat(${Math.max(...xs) - x0 + 1}, minmax(5.5rem, 1fr))` },
    view.fields.map((f) => {
      const at = f.at.join(",");
      const [seat, index] = workers.get(at) || [null, null];
      const cell = h("div", { class: `field ${f.shape} good-${f.good}${seat != null ? " worked" : ""}`, "data-at": at,
                              "data-component": f.id, "aria-label": say(f.name), title: say(f.name),
                              "data-good": f.good, "data-board": f.board, style: `grid-column: ${f.at[0] - x0 + 1}; grid-row: ${f.at[1] - y0 + 1}` },
        h("span", { class: "good" }, goodName(f.good)), h("span", { class: "shape" }, kind(f)),
        seat != null ? h("span", { class: "worker", "data-seat": seat, "data-component": workerId(seat, index) },
          seatDot(game, seat), playerName(game, seat)) : null);
      return seat != null ? paintSeat(cell, seatColour(game, seat)) : cell;
    }));
  const boards = h("ul", { class: "boards-list" }, view.boards.map((b) => {
    const fields = view.fields.filter((f) => f.board === b.board).sort((p, q) => (p.at[1] - q.at[1]) || (p.at[0] - q.at[0]));
    const village = fields.find((f) => f.good === "lux");
    const farmland = fields.filter((f) => f.good !== "lux")
      .map((f) => t("km_board_field", { spot: say(f.spot), shape: t(`km_shapes.${f.shape}`), good: goodName(f.good) }));
    const item = h("li", { "data-board": b.board, "data-seat": b.seat ?? "" },
      h("strong", {}, b.board === 0 ? t("km_small_board") : t("km_board_side", { board: b.board, side: b.side.toUpperCase() })),
      b.seat != null ? [" ", t("km_laid_by"), " ", seatDot(game, b.seat), playerName(game, b.seat)] : null,
      ": ", t("km_board_fields", { n: farmland.length, fields: farmland.join("; ") }),
      village ? [" ", t("km_board_village", { spot: say(village.spot) })] : null);
    return b.seat != null ? paintSeat(item, seatColour(game, b.seat)) : item;
  }));
  return fill("territory", [h("div", { class: "territory-scroll" }, grid), h("h3", {}, t("km_boards_heading")), boards]);
}

/** The weather of the year: each season's two markers and the goods they favour or spoil; year 2's face down. */
function renderWeather(game) {
  const view = game.view;
  const seasons = ["spring", "summer", "autumn"];
  const rows = [];
  for (const year of [1, 2]) {
    seasons.forEach((season, i) => {
      const pair = view.weather[(year - 1) * 3 + i];
      const goods = view.weather_goods[(year - 1) * 3 + i];
      const now = view.year === year && view.season === season;
      rows.push(h("li", { class: `weather${now ? " now" : ""}`, "data-year": year, "data-season": season },
        h("strong", {}, t("km_year_season", { year, season: seasonName(season) })), " ",
        pair ? t("km_weather_pair", { square: pair[0], round: pair[1], square_good: goodName(goods[0]), round_good: goodName(goods[1]) })
          : h("span", { class: "muted" }, t("km_weather_hidden"))));
    });
  }
  fill("weather", rows);
}

function renderGuilds(game) {
  const view = game.view;
  fill("guilds", view.guilds.length ? view.guilds.map((g) => {
    const members = view.players.flatMap((p) => p.workers.map((w, i) => [w, i]).filter(([w]) => w.startsWith(`g:${g}:`))
      .map(([w, i]) => h("span", { class: "member", "data-seat": p.seat, "data-component": workerId(p.seat, i) },
        `${p.name} (${t(`km_levels.${LEVEL_WORD[w.split(":")[2]]}`)})`)));
    return h("li", { "data-guild": g }, h("strong", { class: "guild-tile", "data-component": guildId(g) }, guildName(g)),
      members.length ? [" · ", members.map((m, i) => (i ? [", ", m] : m))] : "");
  }) : h("li", { class: "muted" }, t("km_guilds_later")));
}

/** A harvest: per field its good, total and each part with its reason; extras; the shortage shown before it happens. */
function harvestList(view, harvest) {
  if (!harvest) return null;
  const short = Object.keys(harvest.shortage || {}).filter((g) => harvest.shortage[g]);
  return h("div", { class: "harvest" },
    h("ul", { class: "harvest-fields" }, harvest.fields.map((f) => h("li", { "data-field": f.field, "data-total": f.total },
      h("strong", {}, `${fieldText(view, f.field) || goodName(f.good)}: ${f.total}`),
      h("span", { class: "muted" }, " = ", f.parts.map((part) => `${part.amount >= 0 ? "+" : ""}${part.amount} ${say(part.reason)}`).join(", "))))),
    harvest.extras.length ? h("ul", { class: "harvest-extras" }, harvest.extras.map((e) => h("li", {},
      `+${e.amount} ${goodName(e.good)} · ${say(e.reason)}`))) : null,
    h("p", { class: "harvest-total" }, t("km_harvest_sum", { goods: goodsText(harvest.goods), gold: harvest.gold })),
    short.length ? h("p", { class: "shortage", role: "note" }, t("km_shortage", { goods: goodsText(harvest.shortage) })) : null,
    (harvest.warnings || []).map((w) => h("p", { class: "note" }, say(w))));
}

/** A player's card. ``own``: on the player's own page, whose goods and gold stand in "Behind your screen" above
 * the picks: each of their workers on the territory a chip the picks light (the territory there is folded). */
function playerCard(game, player, own = false) {
  const view = game.view;
  const deciding = view.to_move === player.seat;
  const onFields = player.workers.filter((w) => w.startsWith("f:")).map((w) => w.slice(2));
  const fieldWorkers = player.workers.map((w, i) => [w, i]).filter(([w]) => w.startsWith("f:"))
    .map(([w, i]) => h("span", { class: "worker-chip", "data-component": workerId(player.seat, i) }, fieldText(view, w.slice(2))));
  const pool = player.workers.filter((w) => w === "pool").length;
  // the supply's workers, each a component the picks may light: the keyworker, and the first normal one (the one
  // a hire or an apprenticeship from the supply takes)
  const firstPool = player.workers.indexOf("pool", 1);
  const supply = [player.workers[0] === "pool" ? [" ", h("span", { class: "worker-chip key", "data-component": workerId(player.seat, 0) }, t("km_keyworker"))] : null,
    firstPool > 0 ? [" ", h("span", { class: "worker-chip", "data-component": workerId(player.seat, firstPool) }, t("km_pool_worker"))] : null];
  const retired = player.workers.filter((w) => w === "retired").length;
  const fact = (key, value) => (value == null || value === "" ? [] : [h("dt", {}, t(key)), h("dd", {}, value)]);
  const secretStage = view.to_move === "simultaneous";
  const card = h("article", { class: `card board km-player${deciding ? " to-move" : ""}`, "data-seat": player.seat },
    h("header", { class: "board-head" }, h("h3", {}, seatDot(game, player.seat), player.name),
      deciding ? h("span", { class: "badge decide" }, t("to_move_badge")) : null,
      secretStage ? h("span", { class: "badge secret", "data-chosen": String(player.chosen) }, player.chosen ? t("km_chosen") : t("km_choosing")) : null),
    h("dl", { class: "facts" },
      fact("km_farmhouse", player.tile ? t("km_farmhouse_tile", { n: player.tile, good: player.farmhouse ? goodName(player.farmhouse) : "?" }) : null),
      fact("km_manor", player.manor ? t("km_manor_built") : t("km_manor_none")),
      fact("km_on_territory", !onFields.length ? t("km_nothing") : own ? h("span", { class: "field-workers" }, fieldWorkers)
        : onFields.map((f) => fieldText(view, f)).join("; ")),
      fact("km_pool", [String(pool), supply]),
      retired ? fact("km_retired", String(retired)) : [],
      fact("km_committed", Object.values(player.committed || {}).some(Boolean) ? goodsText(player.committed) : null),
      player.gold != null && !own ? fact("km_gold_label", t("km_gold", { n: player.gold })) : [],
      player.goods != null && !own ? fact("km_behind_screen", goodsText(player.goods)) : [],
      view.upkeep && view.upkeep[player.seat] ? fact("km_upkeep", [t("km_gold", { n: view.upkeep[player.seat].gold }), " · ", say(view.upkeep[player.seat].reason)]) : []),
    view.harvests && view.harvests[player.seat] ? [h("h4", {}, t("km_coming_harvest")), harvestList(view, view.harvests[player.seat])] : null);
  return paintSeat(card, seatColour(game, player.seat));
}

function renderPlayers(game) {
  fill("players", game.view.players.map((player) => playerCard(game, player)));
}

function renderOrder(game) {
  const view = game.view;
  fill("turn-order", view.turn_order.map((seat) => h("li", { "data-seat": seat }, seatDot(game, seat), playerName(game, seat))));
  fill("favour", view.favour ? view.favour.map((seat) => h("li", { "data-seat": seat }, seatDot(game, seat), playerName(game, seat)))
    : h("li", { class: "muted" }, t("km_no_favour")));
}

/** At the upkeep, in turn order: a player before the decider has paid or released, the decider decides, the others
 * wait; before the upkeep everyone waits. */
function upkeepState(view, seat) {
  if (view.stage !== "upkeep") return "waiting";
  const at = view.turn_order.indexOf(view.to_move);
  const mine = view.turn_order.indexOf(seat);
  return mine < at ? "decided" : mine === at ? "deciding" : "waiting";
}

/** The Season End as a checklist: market removals, each player's upkeep, the new turn order with how ties broke. */
function renderSeasonEnd(game) {
  const view = game.view;
  const box = byId("season-end");
  const shown = Boolean(view.next_order);
  box.hidden = !shown;
  if (!shown) return fill("season-end-list");
  const removals = view.market.filter((row) => row.removal);
  return fill("season-end-list",
    h("li", { class: "check removals" }, h("strong", {}, t("km_check_removals")), " ",
      removals.length ? removals.map((row) => t("km_removal_of", { n: row.removal, good: goodName(row.good) })).join(", ") : t("km_nothing")),
    h("li", { class: "check upkeep" }, h("strong", {}, t("km_check_upkeep")),
      h("ul", {}, view.players.map((p) => h("li", { "data-seat": p.seat, "data-upkeep": upkeepState(view, p.seat) },
        seatDot(game, p.seat), p.name, ": ",
        view.upkeep && view.upkeep[p.seat] ? [t("km_gold", { n: view.upkeep[p.seat].gold }), " · ", say(view.upkeep[p.seat].reason)]
          : t("km_no_upkeep"),
        view.stage === "upkeep" ? h("span", { class: "badge" }, t(`km_upkeep_state.${upkeepState(view, p.seat)}`)) : null)))),
    h("li", { class: "check order" }, h("strong", {}, t("km_check_order")),
      h("ol", { class: "next-order" }, view.next_order.map((line) => h("li", {}, say(line))))));
}

/** A score item in words: "2 pairs of Fish: 10 VP". */
function itemText(item) {
  const what = GOODS.includes(item.what) ? goodName(item.what)
    : /^\d+[AJM]$/.test(item.what) ? `${guildName(item.what.slice(0, -1))} (${t(`km_levels.${LEVEL_WORD[item.what.slice(-1)]}`)})`
      : item.what in LEVEL_WORD ? t(`km_levels.${LEVEL_WORD[item.what]}`) : "";
  return t(`km_items.${item.kind}`, { n: item.count, what, vp: item.vp });
}

function rankOrder(rows) {
  return rows.map((_, seat) => seat).sort((a, b) => (rows[a].rank - rows[b].rank) || a - b);
}

/** The final screen: the players ranked, each with every scoring item (the best split of the goods item by item),
 * the tie-break and the seed of the draws. */
function renderFinal(game) {
  const el = byId("final");
  const rows = game.view.score;
  const over = game.to_move == null && rows && rows.every((row) => row.rank);
  el.hidden = !over;
  if (!over) return fill("final");
  const order = rankOrder(rows);
  const winners = order.filter((seat) => rows[seat].rank === 1);
  const totals = rows.map((row) => row.total);
  // each tie in words: who tied, and who ranks first by the favour track (2 players: the last turn order), L638-640
  const ties = [...new Set(totals.filter((total, i) => totals.indexOf(total) !== i))].map((total) => {
    const level = order.filter((seat) => rows[seat].total === total);
    return h("li", { "data-points": total }, t(game.view.favour ? "km_tie_favour" : "km_tie_order",
      { names: level.map((seat) => rows[seat].name).join(", "), points: total, first: rows[level[0]].name }));
  });
  return fill("final",
    h("h2", {}, t("km_final_heading")),
    h("p", { class: "winner-line" }, winners.map((seat) => seatDot(game, seat)),
      t("km_final_winner", { names: winners.map((seat) => rows[seat].name).join(", "), points: rows[winners[0]].total })),
    h("ol", { class: "final-ranking" }, order.map((seat) => {
      const row = rows[seat];
      return paintSeat(h("li", { class: `final-row${row.rank === 1 ? " winner" : ""}`, "data-seat": seat, "data-rank": row.rank, "data-total": row.total },
        h("strong", { class: "final-name" }, `${row.rank}. `, seatDot(game, seat), row.name, " · ", t("km_vp", { n: row.total })),
        h("ul", { class: "final-items" }, row.items.length ? row.items.map((item) => h("li", { "data-kind": item.kind, "data-vp": item.vp }, itemText(item)))
          : h("li", { class: "muted" }, t("km_nothing")))), seatColour(game, seat));
    })),
    ties.length ? h("ul", { class: "tiebreak" }, ties) : h("p", { class: "tiebreak" }, t("km_tiebreak_none")),
    h("p", { class: "seed", "data-seed": game.view.seed || "" }, t("final_seed", { seed: game.view.seed || "?" })));
}

// ------------------------------------------------------------------ the shared table

/** Who decides, and where the goods from behind the screen are picked (the secret choices and payments are made on
 * the seat pages; the table's picks hold the public decisions only). */
function renderFlowNote(game) {
  const view = game.view;
  const seat = typeof view.to_move === "number" ? view.to_move : null;
  const note = view.to_move === "simultaneous" ? t("km_on_seat_pages") : seat != null ? t("km_private_note", { name: playerName(game, seat) }) : null;
  fill("flow-private", note);
  byId("flow-private").hidden = !note;
  const flow = byId("flow");
  if (seat != null) {
    flow.dataset.seat = String(seat);
    paintSeat(flow, seatColour(game, seat));
  }
}

function renderTable(game) {
  const title = t("game_line", { title: game.title, players: game.players.join(", ") });
  document.title = title;
  fill("game-title", title);
  renderWarnings(game.warnings);
  renderStatus(game);
  renderMarket(game);
  renderSeasonEnd(game);
  renderTerritory(game);
  renderPlayers(game);
  renderOrder(game);
  renderWeather(game);
  renderGuilds(game);
  renderFinal(game);
  renderFlowNote(game);
  renderLog(game.log);
  const over = game.to_move == null;
  for (const id of ["move", "play", "undo"]) byId(id).disabled = over;
  document.body.classList.toggle("over", over);
}

// ------------------------------------------------------------------ a seat's private page (its decisions as picks in #legal)

/** The seat's own secrets: its goods and gold behind the screen, its secret choice (before and after the reveal). */
function renderSecrets(game, me) {
  const view = game.view;
  fill("my-goods", t("km_behind_screen_line", { goods: goodsText(me.goods), gold: me.gold ?? 0 }));
  const secret = me.secret;
  const label = view.stage === "pay" ? "km_my_payment" : "km_my_commitment";
  fill("my-secret", view.to_move === "simultaneous"
    ? (secret ? t(label, { goods: goodsText(Object.fromEntries(GOODS.map((g) => [g, secret.filter((x) => x === g).length]))) })
      : t("km_my_secret_none"))
    : Object.values(me.committed || {}).some(Boolean) ? t("km_my_committed", { goods: goodsText(me.committed) }) : null);
}

function renderSeat(data, colours) {
  const game = { players: data.view.players.map((p) => p.name), colours, view: data.view, to_move: data.view.to_move };
  const me = data.view.players[data.seat];
  document.title = t("seat_title", { name: data.name });
  const header = fill("seat-name", seatDot(game, data.seat), t("seat_title", { name: data.name }));
  paintSeat(header.closest(".card"), seatColour(game, data.seat));
  renderStatus(game);
  renderSecrets(game, me);
  fill("my-board", playerCard(game, me, true));
  renderTerritory(game);
  renderGuilds(game);
  renderLog(data.log);
}

// ------------------------------------------------------------------ start (companion.js has set the language)

/** The table's picks (picks.js); while the players choose in secret on their own pages the panel stays up and says
 * so (the table has nothing to pick then, and the notation box stays at hand). */
function tableFlow(play) {
  const flow = pickFlow(play);
  return {
    picker: flow.picker,
    render(game) {
      flow.render(game);
      if (game.view.to_move !== "simultaneous") return;
      byId("flow").hidden = false;
      fill("flow-who", t(game.view.stage === "pay" ? "km_secret_pay" : "km_secret_commit"));
    },
  };
}

const PAGES = { "km-table": () => runTablePage(renderTable, tableFlow), "km-seat": () => runSeatPage(renderSeat, { picks: true }) };
const init = PAGES[document.body.dataset.page];
if (init) init();
