// La Granja's setup guide.

import { say, t } from "../../js/i18n.js";
import { runSetup } from "../../js/setup.js";
import { h, paintSeat, seatColour, seatDot } from "../../js/ui.js";
import { roofEffect } from "./words.js";

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
        t("lg_setup.provisional", { name: guide.data.name,
          parts: guide.data.provisional.map((part) => say({ id: `lg.section.${part}`, params: {} })).join(", ") })) : null,
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
        h("strong", {}, r.marker), " ", roofEffect(r.effect)))),
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

runSetup(laGranjaSteps);
