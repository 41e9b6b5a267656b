// La Granja's codes in words (the table, the seat pages and the setup guide share them).

import { has, say, t } from "../../js/i18n.js";

/** A known key's text, else the raw value (a code the catalogs do not name yet). */
export function known(key, fallback, vars = {}) {
  return has(key) ? t(key, vars) : fallback;
}

/** A roof marker's effect: a code in the catalog's words, a message from the core rendered. */
export function roofEffect(effect) {
  return typeof effect === "string" ? known(`lg_roof_effects.${effect}`, effect) : say(effect);
}
