// Key Harvest's setup guide: every tile named by label and crop, so the players take it from a box sorted
// by label. Nobody's stones: each private page shows its own.

import { t } from "../../js/i18n.js";
import { runSetup } from "../../js/setup.js";
import { h, paintSeat, seatColour, seatDot } from "../../js/ui.js";
import { cropName } from "./pieces.js";

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

runSetup(steps);
