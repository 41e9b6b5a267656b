// The setup guide (/games/<id>/setup): the box laid out step by step for this table, from the
// game's setup draws (GET /api/games/<id>/setup). Every tile is named by label and crop, so the
// players take it from a box sorted by label. Nobody's stones: each private page shows its own.

import { t } from "./i18n.js";
import { api, byId, cropName, fill, gamePath, h, paintSeat, renderSeatLinks, seatColour, seatDot, showError } from "./ui.js";

function tileChip(tile) {
  return h("li", { class: `chip tile crop-${tile.crop}`, "data-label": tile.label, "data-crop": tile.crop },
    h("strong", {}, tile.label), " ", cropName(tile.crop));
}

function pieces(list) {
  return h("ul", { class: "pieces" }, list.map((item) => h("li", { "data-piece": item.piece },
    t(`pieces.${item.piece}`, { n: item.count }))));
}

/** The steps of the guide, each {key, body}; `game` has players and colours. */
function steps(game, guide) {
  const name = (seat) => game.players[seat];
  const who = (seat) => [seatDot(game, seat), h("strong", {}, name(seat))];
  return [
    { key: "setup_step_box", body: [
      h("p", {}, t("setup_box_intro", { n: guide.players })),
      h("h3", {}, t("setup_table_heading")), pieces(guide.table),
      h("h3", {}, t("setup_each_heading")), pieces(guide.each_player),
      h("p", { class: "note" }, t("setup_sort_note"))] },
    { key: "setup_step_seats", body: [
      h("ol", { class: "seat-order" }, guide.turn_order.map((seat) => h("li", { "data-seat": seat }, who(seat)))),
      h("p", { class: "first-player" }, t("setup_first", { name: name(guide.first_player) }))] },
    { key: "setup_step_start_tiles", body: [
      h("p", {}, t("setup_start_intro")),
      h("ul", { class: "start-tiles" }, guide.start_tiles.map((tiles, seat) => {
        const row = h("li", { "data-seat": seat, class: "seat-row" }, who(seat), " ",
          h("ul", { class: "chips inline" }, tiles.map(tileChip)));
        return paintSeat(row, seatColour(game, seat));
      }))] },
    { key: "setup_step_stones", body: [
      h("p", {}, t("setup_stones_intro", { n: guide.stones_each[0] ?? 3 })),
      h("p", {}, t("setup_supply", { n: guide.supply })),
      h("ul", { id: "seats", class: "seat-links" })] },
    { key: "setup_step_office", body: [
      h("p", {}, t("setup_office_intro")),
      h("ol", { class: "chips office-tiles" }, guide.land_office.map(tileChip))] },
    { key: "setup_step_events", body: [
      h("p", {}, guide.events_removed ? t("setup_events_removed", { n: guide.events_removed, left: guide.events_in_bag })
                                     : t("setup_events_all", { n: guide.events_in_bag })),
      h("p", {}, t("setup_bag_now", { fields: guide.field_tiles_in_bag, events: guide.events_in_bag })),
      h("p", { class: "note" }, t("setup_bag_note"))] },
    { key: "setup_step_ready", body: [h("p", {}, t("setup_ready", { name: name(guide.first_player) }))] },
  ];
}

function lgPieces(list) {
  return h("ul", { class: "pieces" }, list.map((item) => h("li", { "data-piece": item.piece },
    t(`lg_pieces.${item.piece}`, { n: item.count }))));
}

/** La Granja's steps (spec 2.1): every piece named, the companion's draws (start player, locks, roof markers). */
function laGranjaSteps(game, guide) {
  const name = (seat) => game.players[seat];
  const who = (seat) => [seatDot(game, seat), h("strong", {}, name(seat))];
  const holder = (x) => (x === "neutral" ? t("lg_neutral") : who(x));
  return [
    { key: "lg_setup.step_box", body: [
      guide.data.provisional.length ? h("p", { class: "note provisional" },
        t("lg_setup.provisional", { name: guide.data.name, parts: guide.data.provisional.join(", ") })) : null,
      h("p", {}, t("lg_setup.box_intro", { n: guide.players })),
      h("h3", {}, t("lg_setup.table_heading")), lgPieces(guide.table),
      h("h3", {}, t("lg_setup.each_heading")), lgPieces(guide.each_player)] },
    { key: "lg_setup.step_start", body: [
      h("ol", { class: "seat-order" }, guide.turn_order.map((seat) => paintSeat(h("li", { "data-seat": seat }, who(seat)), seatColour(game, seat)))),
      guide.solo_turn_marker ? h("p", { class: "solo-marker" }, t("lg_setup.solo_marker", { n: guide.solo_turn_marker }))
        : h("p", { class: "first-player" }, t("lg_setup.first", { name: name(guide.first_player) }))] },
    { key: "lg_setup.step_locks", body: [
      h("ol", { class: "locks" }, guide.locks.map((lock) => h("li", { "data-building": lock.building, "data-lock": lock.lock },
        t("lg_setup.lock", lock))))] },
    { key: "lg_setup.step_roofs", body: [
      h("p", {}, t("lg_setup.roofs_intro")),
      h("ul", { class: "chips roof-markers" }, guide.roof_display.map((r) => h("li", { class: "chip", "data-marker": r.marker },
        h("strong", {}, r.marker), " ", r.effect))),
      h("p", { class: "note" }, t("lg_setup.roofs_rest"))] },
    { key: "lg_setup.step_cards", body: [
      h("p", {}, t("lg_setup.cards_intro", { n: guide.cards_each, pile: guide.draw_pile })),
      h("ul", { id: "seats", class: "seat-links" })] },
    { key: "lg_setup.step_market", body: [
      h("p", {}, t("lg_setup.market_intro")),
      h("ul", { class: "market-start" }, guide.market.map((m) => h("li", { "data-space": m.space },
        h("strong", {}, `${m.space} (${m.value})`), " ", holder(m.holder)))),
      h("p", {}, t("lg_setup.siesta_intro")),
      h("ol", { class: "siesta-stack" }, guide.siesta_stack.map((seat) => h("li", { "data-seat": seat }, who(seat))))] },
    { key: "lg_setup.step_ready", body: [h("p", {}, t("lg_setup.ready", { name: name(guide.first_player) }))] },
  ];
}

export async function initSetup() {
  const gameId = document.body.dataset.gameId;
  const table = `/games/${encodeURIComponent(gameId)}`;
  for (const link of document.querySelectorAll(".to-table")) link.href = table;
  const [answer, game] = await Promise.all([api("GET", gamePath(gameId, "/setup")), api("GET", gamePath(gameId))]);
  if (!answer.ok) return showError(answer.data);
  const data = { players: answer.data.players, colours: answer.data.colours };
  fill("setup-title", t("setup_title", { players: data.players.join(", ") }));
  if (game.ok) {
    const warnings = fill("warnings", (game.data.warnings || []).map((w) => h("li", { class: "warning" }, w)));
    warnings.hidden = !(game.data.warnings || []).length;
  }
  const all = (answer.data.guide.locks ? laGranjaSteps : steps)(data, answer.data.guide);
  const sections = all.map((step, i) => h("section", { class: "card setup-step", "data-step": i + 1, "data-key": step.key, hidden: i > 0 },
    h("h2", {}, t("setup_step_of", { n: i + 1, of: all.length }), " · ", t(step.key)), step.body));
  fill("setup-steps", sections);
  renderSeatLinks(gameId);
  let current = 0;
  const go = (to) => {
    current = Math.max(0, Math.min(all.length - 1, to));
    sections.forEach((section, i) => { section.hidden = i !== current; });
    byId("setup-back").disabled = current === 0;
    byId("setup-next").hidden = current === all.length - 1;
    byId("setup-start").classList.toggle("primary", current === all.length - 1);
    fill("setup-progress", t("setup_step_of", { n: current + 1, of: all.length }));
    window.scrollTo(0, 0);
  };
  byId("setup-back").addEventListener("click", () => go(current - 1));
  byId("setup-next").addEventListener("click", () => go(current + 1));
  go(0);
  return null;
}
