// Key Market's setup guide (spec 2.2, 2.3): every piece named, the companion's draws (weather markers, turn order,
// favour track, farmhouse tiles, territory boards, guilds) as the table lays them out.

import { t } from "../../js/i18n.js";
import { runSetup } from "../../js/setup.js";
import { api, gamePath, h, paintSeat, seatColour, seatDot } from "../../js/ui.js";
import { goodName, goodsText, guildName, seasonName } from "./key_market.js";

/** The game as it stands: the boards laid and the guilds drawn after the first decision show here too. */
const live = await api("GET", gamePath(document.body.dataset.gameId));
const view = live.ok ? live.data.view : null;

function keyMarketSteps(game, guide) {
  const name = (seat) => game.players[seat];
  const who = (seat) => [seatDot(game, seat), h("strong", {}, name(seat))];
  const seats = (list, cls) => h("ol", { class: cls }, list.map((seat) => paintSeat(h("li", { "data-seat": seat }, who(seat)), seatColour(game, seat))));
  const seasons = ["spring", "summer", "autumn"];
  const dealer = guide.turn_order.length ? guide.turn_order[0] : 0;
  const boards = view ? view.boards : [];
  const guilds = view ? view.guilds : [];
  return [
    { key: "km_setup.step_box", body: [
      h("p", {}, t("km_setup.box_intro", { n: guide.players })),
      h("h3", {}, t("km_setup.market_heading")),
      h("ul", { class: "market-start" }, Object.entries(guide.market).map(([good, n]) => h("li", { "data-good": good },
        t("km_setup.market_row", { n, good: goodName(good) })))),
      h("p", {}, t("km_setup.resources", { goods: goodsText(guide.resources) })),
      h("p", { class: "muted" }, t("km_setup.supply", { goods: goodsText(guide.supply) }))] },
    { key: "km_setup.step_weather", body: [
      h("p", {}, t("km_setup.weather_intro")),
      h("ul", { class: "weather-start" }, guide.weather.slice(0, 3).map((pair, i) => h("li", { "data-season": seasons[i], "data-markers": pair.join(" ") },
        h("strong", {}, seasonName(seasons[i])), " ",
        t("km_weather_pair", { square: pair[0], round: pair[1], square_good: goodName(guide.weather_goods[i][0]), round_good: goodName(guide.weather_goods[i][1]) })))),
      h("p", { class: "note" }, t("km_setup.weather_rest"))] },
    { key: "km_setup.step_order", body: [
      h("p", {}, t("km_setup.order_intro")), seats(guide.turn_order, "seat-order"),
      guide.favour ? [h("p", {}, t("km_setup.favour_intro")), seats(guide.favour, "favour-order")]
        : h("p", { class: "muted" }, t("km_no_favour"))] },
    { key: "km_setup.step_farmhouses", body: [
      h("p", {}, t("km_setup.farmhouses_intro")),
      h("ul", { class: "farmhouses" }, guide.farmhouses.map((tile, seat) => h("li", { "data-seat": seat, "data-tile": tile ?? "" },
        who(seat), " ", t("km_setup.farmhouse_tile", { n: tile ?? "?" }))))] },
    { key: "km_setup.step_boards", body: [
      guide.small_board ? h("p", {}, t("km_setup.small_board")) : null,
      guide.dealt ? h("p", { class: "dealt" }, t("km_setup.dealt", { name: name(dealer), board: guide.dealt[0], side: guide.dealt[1].toUpperCase() })) : null,
      h("p", {}, t("km_setup.boards_intro")),
      boards.length ? h("ul", { class: "boards-laid" }, boards.map((b) => h("li", { "data-board": b.board },
        t("km_setup.board_laid", { board: b.board, side: b.side.toUpperCase(), x: b.x, y: b.y, turns: b.turns })))) : null] },
    { key: "km_setup.step_guilds", body: [
      h("p", {}, t("km_setup.guilds_intro")),
      guilds.length ? h("ol", { class: "guilds-drawn" }, guilds.map((g) => h("li", { "data-guild": g }, guildName(g))))
        : h("p", { class: "muted" }, t("km_guilds_later"))] },
    { key: "km_setup.step_seats", body: [h("p", {}, t("km_setup.seats_intro")), h("ul", { id: "seats", class: "seat-links" })] },
    { key: "km_setup.step_ready", body: [h("p", {}, t("km_setup.ready", { name: name(dealer) }))] },
  ];
}

runSetup(keyMarketSteps);
