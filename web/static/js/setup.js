// The setup guide (/games/<id>/setup): the box laid out step by step for this table, from the
// game's setup draws (GET /api/games/<id>/setup). The steps are the game's own (web/games/<game>/setup.js,
// which calls runSetup); this is the page around them. Nobody's secrets: each private page shows its own.

import { t } from "./i18n.js";
import { showJoinAddress } from "./reach.js";
import { api, byId, fill, gamePath, h, renderSeatLinks, renderWarnings, showError } from "./ui.js";

/** The guide's page: ``steps(game, guide)`` (the game's own, each {key, body}; ``game`` has players and colours)
 * shown one at a time, with the seats' links where a step has #seats. */
export async function runSetup(steps) {
  const gameId = document.body.dataset.gameId;
  const table = `/games/${encodeURIComponent(gameId)}`;
  for (const link of document.querySelectorAll(".to-table")) link.href = table;
  const [answer, game] = await Promise.all([api("GET", gamePath(gameId, "/setup")), api("GET", gamePath(gameId))]);
  if (!answer.ok) return showError(answer.data);
  const data = { players: answer.data.players, colours: answer.data.colours };
  fill("setup-title", t("setup_title", { players: data.players.join(", ") }));
  if (game.ok) renderWarnings(game.data.warnings); // the same one quiet notice as the table's
  const all = steps(data, answer.data.guide);
  const sections = all.map((step, i) => h("section", { class: "card setup-step", "data-step": i + 1, "data-key": step.key, hidden: i > 0 },
    h("h2", {}, t("setup_step_of", { n: i + 1, of: all.length }), " · ", t(step.key)), step.body));
  fill("setup-steps", sections);
  renderSeatLinks(gameId);
  showJoinAddress(byId("seats")); // whether the phones can open the codes, and how to let them
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
