// Key Harvest on the tablet: the shared table (/games/<id>) and a seat's private page.
// Everything comes from the JSON API (docs/api.md); the rules stay in the core.
// Data is always inserted as text (never as HTML): player names are typed by players.

import { has, t } from "../../js/i18n.js";
import {
  h, svg, byId, fill, listText, playerName, seatColour, paintSeat, seatDot, renderWarnings, renderLog,
  runSeatPage, runTablePage,
} from "../../js/ui.js";
import { pickFlow } from "../../js/picks.js";
import {
  CROPS, TRACK_SPACES, OFFICE_SLOTS, HEX, SQRT3, cropName, workerName, workerKind, eventName, cropChip, stoneChips,
} from "./pieces.js";
import { createFinal, scoreTable } from "./scoring.js";

// ------------------------------------------------------------------ turn and pending decision

/** #turn: whose turn it is and the actions taken, or that the game is over. */
function renderTurn(game) {
  const view = game.view;
  const el = byId("turn");
  el.dataset.active = String(view.active);
  if (view.phase === "over") return fill("turn", h("strong", {}, t("game_over")));
  const actions = view.actions.length ? view.actions.join(", ") : t("no_actions");
  const rounds = view.end.triggered
    ? (view.end.turns_left == null ? t("final_rounds_started") : t("final_rounds", { n: view.end.turns_left }))
    : null;
  return fill("turn", seatDot(game, view.active), h("strong", {}, t("turn_of", { name: playerName(game, view.active) })), " · ",
              t("actions_taken", { actions }), rounds ? h("span", { class: "rounds" }, " · ", rounds) : null);
}

/** The pending decision in plain words, plus its raw details (worker, event, tile). */
function describePending(game) {
  const view = game.view;
  const pending = view.pending;
  if (view.phase === "over") return "";
  if (game.to_move === "chance") return t("companion_draws");
  if (!pending) return t("nothing_pending", { name: playerName(game, view.active) });
  const vars = {
    name: playerName(game, pending.player),
    kind: pending.kind,
    worker: pending.worker ? workerName(pending.worker) : "",
    event: pending.event ? eventName(pending.event) : "",
    on: pending.label ? t("on_label", { label: pending.label }) : "",
    tile: pending.label ? t("tile_label", { label: pending.label }) : "",
    for: pending.worker ? t("for_worker", { worker: workerName(pending.worker) })
      : pending.event ? t("for_event", { event: eventName(pending.event) }) : "",
  };
  const key = `pending_${pending.kind}`;
  return has(key) ? t(key, vars) : t("pending_other", vars);
}

function pendingDetails(pending) {
  if (!pending) return [];
  return [
    pending.worker && t("detail_worker", { worker: pending.worker }),
    pending.event && t("detail_event", { event: pending.event }),
    pending.label && t("detail_label", { label: pending.label }),
  ].filter(Boolean);
}

function renderPending(game) {
  const pending = game.view.pending;
  const sentence = describePending(game);
  const details = pendingDetails(pending).filter((detail) => !sentence.includes(detail.split(" ").pop()));
  const el = fill("pending", sentence,
                  details.length ? h("span", { class: "details" }, " ", t("details", { details: details.join(t("detail_separator")) })) : null);
  el.dataset.kind = pending ? pending.kind : game.to_move === "chance" ? "chance" : "turn";
  el.dataset.player = pending ? String(pending.player) : String(game.view.active);
}

// ------------------------------------------------------------------ boards (hex maps)

/** Pointy-top hex centre of axial [q, r]. */
function hexCenter([q, r]) {
  return [HEX * SQRT3 * (q + r / 2), HEX * 1.5 * r];
}

function hexPoints([x, y], radius = HEX) {
  const corners = [];
  for (let i = 0; i < 6; i += 1) {
    const angle = (Math.PI / 180) * (60 * i - 30);
    corners.push(`${(x + radius * Math.cos(angle)).toFixed(1)},${(y + radius * Math.sin(angle)).toFixed(1)}`);
  }
  return corners.join(" ");
}

/** One viewBox for every board, from every space of the layout (and every tile, should one be off it). */
function boardBox(spaces, players) {
  const centres = [...spaces, ...players.flatMap((p) => p.tiles)].map((space) => hexCenter(space.at));
  if (!centres.length) centres.push([0, 0]);
  const xs = centres.map((c) => c[0]);
  const ys = centres.map((c) => c[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const pad = HEX * 1.1;
  return [x0 - pad, y0 - pad, x1 - x0 + 2 * pad, y1 - y0 + 2 * pad].map((n) => n.toFixed(1)).join(" ");
}

/** A field tile on the board; `occupied` moves the label up to leave room for a worker token. */
function hexTile(tile, seat, occupied) {
  const centre = hexCenter(tile.at);
  const [x, y] = centre;
  const title = t(tile.harvested ? "tile_title_harvested" : "tile_title", { label: tile.label, crop: cropName(tile.crop) });
  const labelY = occupied ? y - 8 : y + (tile.harvested ? -2 : 5);
  return svg("g", { class: `hex crop-${tile.crop}${tile.harvested ? " harvested" : ""}`, "data-label": tile.label,
                    "data-component": tile.label, "data-crop": tile.crop, "data-harvested": String(tile.harvested) },
    svg("title", {}, title),
    svg("polygon", { class: "base", points: hexPoints(centre) }),
    tile.harvested ? svg("polygon", { class: "stripes", points: hexPoints(centre), fill: `url(#stripes-${seat})` }) : null,
    svg("text", { x, y: labelY, class: "label" }, tile.label),
    tile.harvested ? svg("text", { x: occupied ? x - 18 : x, y: y + (occupied ? 14 : 18), class: "mark" },
                         t("harvested_mark")) : null);
}

/** An empty space of the board: a faint outline with its small label, so a player can find where a tile goes; on
 * the board of whoever decides it is a component a pick may name (a worker's space). */
function hexSpace(space, occupied, deciding) {
  const centre = hexCenter(space.at);
  const [x, y] = centre;
  return svg("g", { class: "space", "data-label": space.label, "data-crop": space.crop,
                    "data-component": deciding ? space.label : null },
    svg("title", {}, t("space_title", { label: space.label })),
    svg("polygon", { points: hexPoints(centre, HEX - 1) }),
    svg("text", { x, y: occupied ? y - 10 : y + 4 }, space.label));
}

/** A worker token on its space: labourers (A-F) and townsfolk (G-L) look different; on the board of whoever
 * decides it is a component a pick may name. */
function hexWorker(worker, at, index, count, deciding) {
  const [cx, cy] = hexCenter(at);
  const x = cx + (index - (count - 1) / 2) * 20;
  const y = cy + 11;
  return svg("g", { class: `worker ${workerKind(worker.worker)}`, "data-worker": worker.worker, "data-label": worker.label,
                    "data-component": deciding ? worker.worker : null },
    svg("title", {}, t("worker_at", { worker: workerName(worker.worker), label: worker.label })),
    svg("circle", { cx: x, cy: y, r: 12 }),
    svg("text", { x, y: y + 5 }, worker.worker));
}

function boardSvg(player, box, spaces, deciding) {
  const seat = player.seat;
  const at = Object.fromEntries([...spaces, ...player.tiles].map((space) => [space.label, space.at]));
  const onBoard = player.workers.filter((w) => at[w.label]);
  const occupied = new Set(onBoard.map((w) => w.label));
  const tileLabels = new Set(player.tiles.map((tile) => tile.label));
  const pattern = svg("pattern", { id: `stripes-${seat}`, width: 10, height: 10, patternUnits: "userSpaceOnUse",
                                   patternTransform: "rotate(45)" },
    svg("rect", { width: 5, height: 10, class: "stripe" }));
  return svg("svg", { class: "hexmap", viewBox: box, role: "img", "aria-label": player.name },
    svg("defs", {}, pattern),
    spaces.filter((space) => !tileLabels.has(space.label)).map((space) => hexSpace(space, occupied.has(space.label), deciding)),
    player.tiles.map((tile) => hexTile(tile, seat, occupied.has(tile.label))),
    onBoard.map((w) => {
      const here = onBoard.filter((other) => other.label === w.label);
      return hexWorker(w, at[w.label], here.indexOf(w), here.length, deciding);
    }));
}

function warehouseItems(warehouse) {
  if (!warehouse.length) return h("li", { class: "muted" }, t("empty_warehouse"));
  return warehouse.map((entry) => h("li", { class: "warehouse-tile", "data-label": entry.label, "data-component": entry.label },
    h("span", { class: `chip crop-${entry.crop}`, "data-crop": entry.crop }, entry.label),
    " ", h("span", { class: "muted" }, t("bid_label")),
    h("ul", { class: "chips inline" }, stoneChips(entry.bid))));
}

/** One player's board: hex map, workers, labourers beside the board, warehouse, screen. */
function boardCard(game, player, box) {
  const view = game.view;
  const active = player.seat === view.active && view.phase !== "over";
  const deciding = player.seat === game.to_move && !active; // someone deciding out of turn
  const picking = player.seat === game.to_move; // their spaces and workers are what a pick names
  const classes = ["card", "board"];
  if (active) classes.push("active");
  if (deciding) classes.push("to-move");
  const card = h("article", { class: classes.join(" "), "data-seat": player.seat,
                              "data-colour": seatColour(game, player.seat) },
    h("header", { class: "board-head" },
      h("h3", {}, seatDot(game, player.seat), player.name),
      active ? h("span", { class: "badge" }, t("active_badge")) : null,
      deciding ? h("span", { class: "badge decide" }, t("to_move_badge")) : null,
      h("span", { class: "muted count" }, t("board_tiles", { n: player.board_tiles }))),
    player.tiles.length ? null : h("p", { class: "muted" }, t("no_tiles")),
    boardSvg(player, box, game.view.layout.spaces, picking),
    h("dl", { class: "facts" },
      h("dt", {}, t("workers_heading")),
      h("dd", {}, h("ul", { class: "chips workers" },
        player.workers.length
          ? player.workers.map((w) => h("li", { class: `chip worker ${workerKind(w.worker)}`, "data-worker": w.worker, "data-label": w.label,
                                          "data-component": picking ? w.worker : null, title: workerName(w.worker) },
                                  t("worker_at", { worker: w.worker, label: w.label })))
          : h("li", { class: "muted" }, t("no_workers")))),
      h("dt", {}, t("beside_heading")),
      h("dd", {}, h("ul", { class: "chips beside" },
        player.beside.map((letter) => h("li", { class: "chip worker", "data-component": picking ? letter : null,
                                                title: workerName(letter) }, letter)))),
      h("dt", {}, t("warehouse_heading")),
      h("dd", {}, h("ul", { class: "warehouse" }, warehouseItems(player.warehouse))),
      h("dt", {}, t("screen_heading")),
      h("dd", {}, player.stones ? h("ul", { class: "chips" }, stoneChips(player.stones, true))
                                : h("span", { class: "muted" }, t("screen_hidden")))));
  return paintSeat(card, seatColour(game, player.seat));
}

function renderBoards(game) {
  const players = game.view.players;
  const box = boardBox(game.view.layout.spaces, players);
  const heading = byId("boards-heading");
  fill("boards", heading, players.map((player) => boardCard(game, player, box)));
}

// ------------------------------------------------------------------ shared areas

/** A tile of a shared area: {label, crop}, coloured by its crop (a bare label if the crop is not known). */
function tileAttrs(tile, base) {
  return tile.crop ? { class: `${base} crop-${tile.crop}`, "data-label": tile.label, "data-component": tile.label,
                       "data-crop": tile.crop, title: t("tile_title", { label: tile.label, crop: cropName(tile.crop) }) }
                   : { class: base, "data-label": tile.label, "data-component": tile.label };
}

function renderLandOffice(view) {
  const tiles = view.land_office_tiles || [];
  const slots = [];
  for (let i = 0; i < OFFICE_SLOTS; i += 1) {
    const label = view.land_office[i] ?? null;
    const tile = tiles[i] || { label };
    slots.push(label ? h("li", tileAttrs(tile, "slot filled"), label)
                     : h("li", { class: "slot empty" }, t("empty_slot")));
  }
  fill("land-office", slots);
}

function renderTrack(view) {
  const slots = [];
  for (let i = 0; i < TRACK_SPACES; i += 1) {
    const letter = view.event_track[i] ?? null;
    const question = i + 1 === view.question_space;
    slots.push(h("li", { class: `slot${letter ? " filled" : " empty"}${question ? " question" : ""}`,
                         "data-space": i + 1, "data-event": letter, title: letter ? eventName(letter) : null },
      h("span", { class: "space" }, question ? t("question_slot") : String(i + 1)),
      letter ? h("span", { class: "event" }, letter) : null,
      letter ? h("span", { class: "event-name" }, t(`events.${letter}`)) : null));
  }
  fill("event-track", slots);
  fill("event-notes", view.set_aside.length ? t("set_aside", { events: view.set_aside.join(", ") }) : null);
}

function renderTown(town) {
  fill("town", town.length
    ? town.map((letter) => h("li", { class: "chip worker", "data-worker": letter, "data-component": letter }, workerName(letter)))
    : h("li", { class: "muted" }, t("no_townsfolk")));
}

function renderFallow(view) {
  const tiles = view.fallow_tiles || [];
  fill("fallow", view.fallow.length
    ? view.fallow.map((label, i) => h("li", tileAttrs(tiles[i] || { label }, "chip"), label))
    : h("li", { class: "muted" }, t("fallow_empty")));
}

/** The bag: what it still holds (field tiles by crop with their labels, events) and what is out of it, never the order. */
function renderBag(view) {
  const bag = view.bag;
  const exact = bag.events_in_bag != null;
  const cropOf = Object.fromEntries(view.layout.spaces.map((space) => [space.label, space.crop]));
  const inBag = new Set(bag.fields);
  const byCrop = (labels) => Object.fromEntries(CROPS.map((c) => [c, labels.filter((l) => cropOf[l] === c).sort()]));
  const held = byCrop(bag.fields);
  const out = byCrop(view.layout.spaces.map((space) => space.label).filter((label) => !inBag.has(label)));
  const outCount = CROPS.reduce((n, c) => n + out[c].length, 0);
  const drawnEvents = [...view.event_track, ...view.set_aside];
  fill("bag",
    h("p", { class: "bag-totals" },
      h("strong", { "data-count": bag.field_tiles, class: "fields" }, t("bag_fields", { n: bag.field_tiles })), " · ",
      h("strong", { "data-count": bag.events, class: "events" }, t("bag_events", { n: bag.events }))),
    h("ul", { class: "chips bag-crops" }, CROPS.map((c) => cropChip(c, t("stone_count", { n: bag.fields_by_crop[c] ?? 0, crop: cropName(c) })))),
    h("details", { class: "bag-labels" },
      h("summary", {}, t("bag_labels_summary")),
      h("dl", { class: "bag-list" }, CROPS.map((c) => [
        h("dt", { class: `crop-${c}` }, h("span", { class: "chip" }, cropName(c))),
        h("dd", { "data-crop": c }, held[c].length ? held[c].join(" ") : t("none"))]))),
    h("p", { class: "bag-events" }, exact ? t("bag_events_exact", { events: listText(bag.events_in_bag) })
                                          : t("bag_events_maybe", { events: listText(bag.events_maybe_in_bag) })),
    exact ? null : h("p", { class: "note" }, t("bag_removed_note")),
    bag.unknown_tile_with_trader ? h("p", { class: "note trader" }, t("bag_trader_note")) : null,
    h("h3", { class: "bag-out-heading" }, t("bag_out_heading")),
    h("p", { class: "bag-out", "data-count": outCount }, t("bag_out_fields", { n: outCount }), " ",
      CROPS.map((c) => h("span", { class: `chip mini crop-${c}`, "data-crop": c, title: cropName(c) }, String(out[c].length)))),
    h("p", { class: "bag-out-events" }, t("bag_out_events", { events: listText([...drawnEvents].sort()) })),
    h("p", { class: "note" }, t("bag_order_note")),
    view.removed_events ? h("p", { class: "note" }, t("bag_removed_events", { events: listText(view.removed_events) })) : null);
}

// ------------------------------------------------------------------ score

function renderScore(game) {
  const view = game.view;
  const over = view.phase === "over";
  fill("score", scoreTable(game, view.score, over), over ? null : h("p", { class: "muted" }, t("score_projection_note")));
}

// ------------------------------------------------------------------ the table page

function renderTable(game) {
  const view = game.view;
  const title = t("game_line", { title: game.title, players: game.players.join(", ") });
  document.title = title;
  fill("game-title", title);
  renderWarnings(game.warnings);
  renderTurn(game);
  renderPending(game);
  renderBoards(game);
  renderLandOffice(view);
  renderTrack(view);
  renderTown(view.town);
  renderFallow(view);
  renderBag(view);
  renderScore(game);
  renderLog(game.log);
  const over = view.phase === "over";
  for (const id of ["move", "play", "undo"]) byId(id).disabled = over;
  document.body.classList.toggle("over", over);
}

/** Who decides now, in the panel's heading, with their colour on the panel. */
function flowWho(game) {
  const seat = game.to_move;
  if (typeof seat !== "number") return "";
  paintSeat(byId("flow"), seatColour(game, seat)).dataset.seat = String(seat);
  return [seatDot(game, seat), t("flow_decides", { name: playerName(game, seat) })];
}

function initTable() {
  const final = createFinal(document.body.dataset.gameId);
  runTablePage((game) => {
    renderTable(game);
    final.render(game);
  }, (play) => pickFlow(play, flowWho));
}

// ------------------------------------------------------------------ a seat's private page

function renderSeat(data, colours) {
  const game = { players: data.view.players.map((p) => p.name), colours, view: data.view, to_move: data.view.to_move };
  const me = data.view.players[data.seat];
  document.title = t("seat_title", { name: data.name });
  const header = fill("seat-name", seatDot(game, data.seat), t("seat_title", { name: data.name }));
  const colour = seatColour(game, data.seat);
  paintSeat(header.closest(".card"), colour).classList.toggle("seat-coloured", Boolean(colour));
  renderTurn(game);
  renderPending(game);
  fill("stones", me.stones ? stoneChips(me.stones, true) : h("li", { class: "muted" }, t("screen_hidden")));
  renderLog(data.log);
}

function initSeat() {
  runSeatPage(renderSeat, { picks: true });
}

// ------------------------------------------------------------------ start (companion.js has set the language)

const PAGES = { table: initTable, seat: initSeat };
const init = PAGES[document.body.dataset.page];
if (init) init();
