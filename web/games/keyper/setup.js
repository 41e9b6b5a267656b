// Keyper's setup guide (spec 2): every piece named, the companion's draws (the spring display, the season's boats,
// the start player, two players' ninth keyples). The private fairs are dealt in secret: each seat's page shows its own.

import { say, t } from "../../js/i18n.js";
import { runSetup } from "../../js/setup.js";
import { h, paintSeat, seatColour, seatDot } from "../../js/ui.js";
import { colourName, resName, tileName } from "./keyper.js";

/** A boat by the two goods its spring side shows. */
function boatName(guide, boat) {
  const goods = (guide.boat_goods || {})[boat];
  return goods ? t("kp_boat_with", { a: resName(goods[0]), b: resName(goods[1]) }) : t("kp_boat_unknown");
}

/** Keyper's steps, from the game's `setup_guide`. */
function keyperSteps(game, guide) {
  const who = (seat) => [seatDot(game, seat), h("strong", {}, game.players[seat])];
  const each = guide.each_player;
  return [
    { key: "kp_setup.step_box", body: [
      guide.data.provisional.length ? h("p", { class: "note provisional" }, t("kp_setup.provisional", {
        parts: guide.data.provisional.map((part) => say({ id: `kp.section.${part}`, params: {} })).join(", ") })) : null,
      h("p", {}, t("kp_setup.box_intro", { n: guide.players })),
      h("ul", { class: "pieces" },
        h("li", { "data-piece": "boards" }, t("kp_setup.boards", { n: guide.players })),
        h("li", { "data-piece": "supply" }, t("kp_setup.supply")),
        h("li", { "data-piece": "keep_tile" }, t("kp_setup.keep_tile")),
        h("li", { "data-piece": "winter_fairs" }, t("kp_setup.winter_fairs", { n: guide.winter_fairs })),
        h("li", { "data-piece": "set_aside" }, t("kp_setup.set_aside", { n: guide.set_aside })))] },
    { key: "kp_setup.step_boards", body: [
      h("ol", { class: "setup-boards" }, guide.boards.map((b) => h("li", { "data-board": b.board }, t("kp_setup.board_side", { ...b, layout: String(b.layout).split("/").pop() }))))] },
    { key: "kp_setup.step_players", body: [
      h("p", {}, t("kp_setup.each_intro")),
      h("ul", { class: "pieces" },
        h("li", { "data-piece": "player_board" }, t("kp_setup.player_board")),
        h("li", { "data-piece": "keyples" }, t("kp_setup.keyples", { list: each.keyples.map(colourName).join(", ") })),
        h("li", { "data-piece": "keyper" }, t("kp_setup.keyper")),
        h("li", { "data-piece": "home_tiles" }, t("kp_setup.home_tiles", { n: each.home_tiles.length, list: each.home_tiles.map(tileName).join(", ") })),
        Object.keys(each.goods).length ? h("li", { "data-piece": "goods" }, t("kp_setup.goods",
          { list: Object.entries(each.goods).map(([g, n]) => `${n} ${resName(g)}`).join(", ") })) : null),
      Object.keys(guide.ninth).length ? h("ul", { class: "ninth" }, Object.entries(guide.ninth).map(([seat, colours]) =>
        h("li", { "data-seat": seat }, who(Number(seat)), " ", t("kp_setup.ninth", { list: colours.map(colourName).join(", ") })))) : null] },
    { key: "kp_setup.step_display", body: [
      h("p", {}, t("kp_setup.display_intro", { n: guide.display.length })),
      h("ul", { class: "chips setup-display" }, guide.display.map((tile) => h("li", { class: "chip", "data-tile": tile },
        /^W\d+$/.test(tile) ? t("kp_fair_of", { season: t("kp_seasons.winter") }) : tileName(tile)))),
      h("p", {}, t("kp_setup.bag_rest", { n: guide.bag_size }))] },
    { key: "kp_setup.step_boats", body: [
      h("p", {}, t("kp_setup.boats_intro")),
      h("ul", { class: "chips setup-boats" }, guide.boats.map((boat) => h("li", { class: "chip", "data-boat": boat }, boatName(guide, boat)))),
      guide.spare_boats.length ? h("p", { class: "muted" }, t("kp_setup.boats_spare", { list: guide.spare_boats.map((boat) => boatName(guide, boat)).join(", ") })) : null] },
    { key: "kp_setup.step_fairs", body: [
      h("p", {}, t("kp_setup.fairs_intro", { n: guide.private_fairs })),
      h("ul", { id: "seats", class: "seat-links" })] },
    { key: "kp_setup.step_ready", body: [
      paintSeat(h("p", { class: "first-player", "data-seat": guide.start }, who(guide.start), " ", t("kp_setup.start")), seatColour(game, guide.start))] },
  ];
}

runSetup(keyperSteps);
