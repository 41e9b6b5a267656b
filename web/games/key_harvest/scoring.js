// The score: the live projection, and at the end the scoring screen: each player's breakdown,
// the tie-breaks applied, a bar chart (inline SVG, drawn here) and a form to enter the stones
// behind the screens when the companion did not track them (POST /api/games/<id>/score rescores
// without changing the stored game).

import { t } from "../../js/i18n.js";
import { api, byId, fill, gamePath, h, seatColour, seatDot, showError, svg } from "../../js/ui.js";
import { CROPS, cropName } from "./pieces.js";

/** The parts of a score, in the order of the table and the chart's stacked bars. */
const PARTS = [
  ["worker_points", "col_workers"],
  ["largest_group_points", "col_largest"],
  ["second_group_points", "col_second"],
  ["majority_points", "col_majority"],
];
const BAR = 30;
const GAP = 14;
const NAME_WIDTH = 150;
const CHART_WIDTH = 640;

/** "Alice", "Alice and Bob", "Alice, Bob and Cara". */
function namesText(names) {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")}${t("and")}${names[names.length - 1]}`;
}

/** The seats of `rows` best first (rank, then seat order). */
export function rankOrder(rows) {
  return rows.map((_, seat) => seat).sort((a, b) => ((rows[a].rank ?? 0) - (rows[b].rank ?? 0)) || a - b);
}

/** The score table of `rows` (API score rows in seat order), one line per seat of `order`; `final` adds the
 * ranks and lists the players best first. */
export function scoreTable(game, rows, final, order = final ? rankOrder(rows) : rows.map((_, seat) => seat)) {
  const cols = ["col_player", ...PARTS.map(([, key]) => key), "col_total"];
  if (final) cols.unshift("col_rank");
  const body = order.map((seat) => {
    const row = rows[seat];
    const cells = [
      h("th", { scope: "row" }, seatDot(game, seat), row.name),
      ...PARTS.map(([part]) => h("td", { "data-part": part },
        row[part] == null ? h("span", { class: "muted" }, t("at_the_end")) : row[part])),
      h("td", { class: "total" }, row.total),
    ];
    if (final) cells.unshift(h("td", { class: "rank" }, row.rank));
    return h("tr", { class: final && row.rank === 1 ? "winner" : null, "data-seat": seat }, cells);
  });
  return h("table", { class: final ? "scores final" : "scores" },
    h("thead", {}, h("tr", {}, cols.map((key) => h("th", { scope: "col" }, t(key))))),
    h("tbody", {}, body));
}

export function winnerText(game, rows) {
  const winners = rows.filter((row) => row.rank === 1);
  if (!winners.length) return "";
  const names = namesText(winners.map((row) => row.name));
  const dots = rows.map((row, seat) => (row.rank === 1 ? seatDot(game, seat) : null)).filter(Boolean);
  return [...dots, t(winners.length > 1 ? "winners" : "winner", { names, points: winners[0].total })];
}

/** One sentence per group of players level on points: which tie-break decided, or that they share. */
export function tiebreakNotes(rows, options) {
  const tiles = options && options.tiebreak_tiles === "fields_and_workers" ? "tiebreak_tiles_workers" : "tiebreak_tiles";
  const totals = [...new Set(rows.map((row) => row.total))].sort((a, b) => b - a);
  const notes = [];
  for (const total of totals) {
    const level = rows.filter((row) => row.total === total);
    if (level.length < 2) continue;
    const names = namesText(level.map((row) => row.name));
    const counts = (key) => level.map((row) => `${row.name} ${row.tiebreak[key]}`).join(", ");
    const tileCounts = new Set(level.map((row) => row.tiebreak.tiles));
    const sameStones = new Set(level.map((row) => row.tiebreak.stones)).size === 1;
    if (tileCounts.size > 1) {
      const then = tileCounts.size < level.length ? ` ${t("tiebreak_then_stones", { counts: counts("stones") })}` : "";
      notes.push(t("tiebreak_by_tiles", { names, points: total, what: t(tiles), counts: counts("tiles") }) + then);
    } else if (!sameStones) {
      notes.push(t("tiebreak_by_stones", { names, points: total, what: t(tiles), n: [...tileCounts][0], counts: counts("stones") }));
    } else {
      notes.push(t("tiebreak_shared", { names, points: total }));
    }
  }
  return notes.length ? notes : [t("tiebreak_none")];
}

/** A stacked bar per player: workers, largest group, second group, majorities; the total at the end. */
export function scoreChart(game, rows) {
  const most = Math.max(1, ...rows.map((row) => row.total));
  const scale = (CHART_WIDTH - NAME_WIDTH - 60) / most;
  const height = rows.length * (BAR + GAP);
  const bars = rankOrder(rows).map((seat, line) => {
    const row = rows[seat];
    const y = line * (BAR + GAP);
    let x = NAME_WIDTH;
    const segments = PARTS.map(([part, key]) => {
      const points = row[part] || 0;
      const width = points * scale;
      const rect = points ? svg("rect", { class: `seg seg-${part}`, x: x.toFixed(1), y, width: width.toFixed(1), height: BAR,
                                          "data-part": part, "data-points": points },
        svg("title", {}, `${row.name}: ${t(key)} ${points}`)) : null;
      x += width;
      return rect;
    });
    const colour = seatColour(game, seat);
    return svg("g", { class: "bar", "data-seat": seat, "data-total": row.total },
      colour ? svg("rect", { x: 0, y: y + BAR / 2 - 6, width: 12, height: 12, rx: 6, fill: colour }) : null,
      svg("text", { x: 18, y: y + BAR / 2 + 7, class: "name" }, row.name.length > 11 ? `${row.name.slice(0, 10)}…` : row.name),
      segments,
      svg("text", { x: (x + 8).toFixed(1), y: y + BAR / 2 + 7, class: "total" }, String(row.total)));
  });
  return svg("svg", { class: "score-chart", viewBox: `0 0 ${CHART_WIDTH} ${height}`, role: "img",
                      "aria-label": t("chart_label") }, bars);
}

/** The chart's legend: a swatch and the name of each part. */
function chartLegend() {
  return h("ul", { class: "chart-legend" }, PARTS.map(([part, key]) => h("li", {},
    svg("svg", { width: 14, height: 14, "aria-hidden": "true" }, svg("rect", { class: `seg seg-${part}`, width: 14, height: 14 })),
    " ", t(key))));
}

/** The stones form: one fieldset per player with a count per crop, prefilled with `stones[seat]` if known. */
function stonesForm(game, stones, onScore) {
  const form = h("form", { id: "stones-form", class: "stones-form", novalidate: true },
    h("h3", {}, t("stones_form_heading")),
    h("p", { class: "muted" }, t("stones_form_note")),
    h("div", { class: "stones-grid" }, game.players.map((name, seat) => h("fieldset", { "data-seat": seat },
      h("legend", {}, seatDot(game, seat), name),
      CROPS.map((crop) => h("label", { class: `stone-input crop-${crop}` },
        h("span", {}, cropName(crop)),
        h("input", { type: "number", inputmode: "numeric", min: 0, max: 12, step: 1, name: `${seat}-${crop}`,
                     "data-seat": seat, "data-crop": crop, value: stones[seat] ? stones[seat][crop] ?? 0 : 0 })))))),
    h("p", { class: "actions" }, h("button", { type: "submit", class: "primary", id: "rescore" }, t("stones_form_submit"))));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const entered = game.players.map((_, seat) => Object.fromEntries(CROPS.map((crop) => {
      const raw = form.querySelector(`input[data-seat="${seat}"][data-crop="${crop}"]`).value.trim();
      return [crop, raw === "" ? 0 : Number(raw)];
    })));
    onScore(entered);
  });
  return form;
}

/**
 * The scoring screen in #final once the game is over: the breakdown, tie-breaks and chart of the
 * companion's count, or of the stones entered in the form (shown as such; the game is unchanged).
 */
export function createFinal(gameId) {
  let rescored = null; // the API's answer for entered stones, while shown
  let last = null;

  const draw = (game) => {
    const view = game.view;
    const over = view.phase === "over";
    const el = byId("final");
    el.hidden = !over;
    if (!over) return;
    const rows = rescored ? rescored.players : view.score;
    const tracked = view.players.map((p) => p.stones);
    const entered = rescored ? rescored.stones : tracked;
    const back = h("button", { type: "button", id: "score-tracked" }, t("score_back_to_tracked"));
    back.addEventListener("click", () => {
      rescored = null;
      draw(last);
    });
    fill("final",
      h("h2", {}, t("score_final_heading")),
      h("p", { class: "winner-line" }, winnerText(game, rows)),
      rescored ? h("p", { class: "note rescored", role: "status" }, t("score_rescored_note"), " ", back) : null,
      h("div", { class: "score-screen" },
        h("div", { class: "score-breakdown" },
          scoreTable(game, rows, true),
          h("h3", {}, t("tiebreak_heading")),
          h("ul", { class: "tiebreaks" }, tiebreakNotes(rows, view.options).map((note) => h("li", {}, note)))),
        h("figure", { class: "score-figure" }, scoreChart(game, rows), chartLegend(),
          h("figcaption", { class: "muted" }, t("chart_caption")))),
      h("p", { class: "seed", "data-seed": view.seed || "" }, t("final_seed", { seed: view.seed || "?" })),
      stonesForm(game, entered, async (stones) => {
        const answer = await api("POST", gamePath(gameId, "/score"), { hidden: stones });
        if (!answer.ok) return showError(answer.data);
        rescored = { ...answer.data, stones };
        byId("error").hidden = true;
        return draw(last);
      }));
  };

  return {
    render(game) {
      if (game.view.phase !== "over") rescored = null;
      const typing = document.activeElement && document.activeElement.closest("#stones-form");
      if (typing && last && last.version === game.version && byId("stones-form")) return; // keep what is being typed
      last = game;
      draw(game);
    },
  };
}
