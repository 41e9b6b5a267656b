// Key Harvest's pieces on the tablet: crops, workers, events, the board's geometry, stone chips.

import { t } from "../../js/i18n.js";
import { h } from "../../js/ui.js";

export const CROPS = ["hops", "vegetables", "apples", "wine", "wheat"];
export const LABOURERS = ["A", "B", "C", "D", "E", "F"]; // the others (G-L) are townsfolk
export const TRACK_SPACES = 10;
export const OFFICE_SLOTS = 6;
export const HEX = 30; // hex radius in SVG units
export const SQRT3 = Math.sqrt(3);

export function cropName(crop) {
  return t(`crops.${crop}`);
}

export function workerName(letter) {
  return t("worker_name", { letter, name: t(`workers.${letter}`) });
}

export function workerKind(letter) {
  return LABOURERS.includes(letter) ? "labourer" : "townsfolk";
}

export function eventName(letter) {
  return t("event_title", { letter, name: t(`events.${letter}`) });
}

/** A coloured chip for a crop (a tile label, or a stone count). */
export function cropChip(crop, text, extra = {}) {
  return h("li", { class: `chip crop-${crop}`, "data-crop": crop, ...extra }, text);
}

/** Stones {crop: n} as small coloured counts, zero counts left out unless `all`. */
export function stoneChips(stones, all = false) {
  return CROPS.filter((c) => all || stones[c])
    .map((c) => cropChip(c, t("stone_count", { n: stones[c] || 0, crop: cropName(c) }),
                         { class: `chip stone crop-${c}${stones[c] ? "" : " zero"}` }));
}
