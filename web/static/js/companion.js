// The tablet's shared script, on every page: the language, and the games list with the new-game form.
// A game's table and seat pages add the game's own script (web/games/<game>/); everything comes from the
// JSON API (docs/api.md). Data is always inserted as text (never as HTML): player names are typed by players.

import { applyStrings, chooseLanguage, has, say, t } from "./i18n.js";
import { api, byId, fill, gamePath, h, showError } from "./ui.js";

// Each seat's colour when the table picks none (as the API's defaults); extras only if a game ever seats more.
const SEAT_COLOURS = ["#c0392b", "#2471a3", "#d4ac0d", "#239b56", "#7d3c98", "#ca6f1e"];

// ------------------------------------------------------------------ the games list and the new-game form

async function renderGameList() {
  const answer = await api("GET", "/api/games");
  if (!answer.ok) return showError(answer.data);
  const games = answer.data.games;
  byId("games-empty").hidden = games.length > 0;
  return fill("game-list", games.map((game) => {
    const players = game.players.join(", ");
    const remove = h("button", { type: "button", class: "danger delete", "data-id": game.id }, t("delete"));
    remove.addEventListener("click", () => deleteGame(game.id, players));
    return h("li", { class: "game", "data-id": game.id, "data-status": game.status },
      h("div", { class: "game-text" },
        h("strong", {}, t("game_line", { title: t(`game_${game.game}`), players })),
        h("span", { class: `badge status-${game.status}` }, t(`status_${game.status}`)),
        h("span", { class: "muted" }, t("updated_at", { when: new Date(game.updated).toLocaleString() }))),
      h("div", { class: "game-actions" },
        openLink(game), remove));
  }));
}

/** A game in progress is resumed; a finished one shows its result. */
function openLink(game) {
  const over = game.status === "over";
  return h("a", { class: `button ${over ? "result" : "primary resume"}`, href: `/games/${encodeURIComponent(game.id)}` },
    t(over ? "see_result" : "resume"));
}

async function deleteGame(gameId, players) {
  if (!window.confirm(t("confirm_delete", { players }))) return;
  const answer = await api("DELETE", gamePath(gameId));
  if (!answer.ok) showError(answer.data);
  renderGameList();
}

/** One line per seat: its number, the name, the colour (the seats beyond the game's minimum are optional). */
function playerFields(spec) {
  const fields = [];
  for (let n = 1; n <= spec.max_players; n += 1) {
    const required = n <= spec.min_players;
    const colour = SEAT_COLOURS[(n - 1) % SEAT_COLOURS.length];
    const label = t(required ? "seat_n" : "seat_optional", { n });
    const name = h("input", { type: "text", name: "player", required, autocomplete: "off", maxlength: 40,
                              placeholder: label, "aria-label": label, "data-seat": n - 1 });
    fields.push(h("div", { class: "player-field" },
      h("span", { class: "seat-number", "aria-hidden": "true" }, String(n)), name,
      h("input", { type: "color", name: "colour", value: colour, "data-seat": n - 1,
                   "aria-label": t("colour_label", { n }), title: t("colour_label", { n }) })));
  }
  return fields;
}

/** A house rule's field in plain words from the game's web catalog (ui.variants.<flag>.label, .help, .choice.<value>;
 * tests/web/test_start.py checks every option has them), the default marked, the rule it changes shown small. */
function variantField(option) {
  const text = (part, fallback) => (has(`variants.${option.name}.${part}`) ? t(`variants.${option.name}.${part}`) : fallback);
  const select = h("select", { name: option.name, id: `option-${option.name}`, "data-default": option.default },
    option.choices.map((choice) => {
      const label = text(`choice.${choice}`, choice);
      return h("option", { value: choice, selected: choice === option.default },
        choice === option.default ? t("default_marker", { choice: label }) : label);
    }));
  select.addEventListener("change", countChanged);
  return h("div", { class: "field variant", "data-option": option.name },
    h("label", { for: select.id }, text("label", option.name.replaceAll("_", " "))),
    select,
    h("p", { class: "help" }, text("help", say(option.help)),
      option.ref ? h("small", { class: "ref" }, " ", t("variant_rule", { ref: option.ref })) : null));
}

/** The folded house rules say how many differ from the defaults. */
function countChanged() {
  const changed = [...byId("variants").querySelectorAll("select")].filter((s) => s.value !== s.dataset.default).length;
  fill("house-rules-changed", changed ? t("house_rules_changed", { n: changed }) : t("house_rules_defaults"));
}

let formGame = ""; // the game whose form is drawn, or on its way

async function renderNewGameForm() {
  const game = byId("game-select").value;
  if (game === formGame) return null; // the same game chosen again: its form (and the choices made in it) stays
  formGame = game;
  const answer = await api("GET", `/api/games/options/${encodeURIComponent(game)}`);
  if (formGame !== game) return null; // another game was chosen meanwhile: its answer draws the form
  if (!answer.ok) {
    formGame = "";
    return showError(answer.data);
  }
  const spec = answer.data;
  const players = byId("players");
  players.replaceChildren(players.querySelector("legend"), ...playerFields(spec));
  const variants = byId("variants");
  variants.replaceChildren(variants.querySelector("p"), ...spec.options.map(variantField));
  countChanged();
  return spec;
}

async function startGame(event) {
  event.preventDefault();
  const form = event.target;
  const colourOf = (seat) => form.querySelector(`input[name=colour][data-seat="${seat}"]`);
  const players = [...form.querySelectorAll("input[name=player]")]
    .map((input) => ({ name: input.value.trim(), colour: (colourOf(input.dataset.seat) || {}).value }))
    .filter((player) => player.name)
    .map((player) => (player.colour ? player : { name: player.name }));
  const options = Object.fromEntries([...byId("variants").querySelectorAll("select")].map((s) => [s.name, s.value]));
  const start = byId("start");
  start.disabled = true;
  start.textContent = t("starting");
  const answer = await api("POST", "/api/games", { game: byId("game-select").value, players, options });
  if (answer.ok) {
    window.location.assign(`/games/${encodeURIComponent(answer.data.id)}/setup`); // the setup guide first
    return;
  }
  start.disabled = false;
  start.textContent = t("start_game");
  showError(answer.data);
}

function initIndex() {
  renderGameList();
  renderNewGameForm();
  byId("game-select").addEventListener("change", renderNewGameForm);
  byId("new-game").addEventListener("submit", startGame);
}

// ------------------------------------------------------------------ start

chooseLanguage();
applyStrings();
if (document.body.dataset.page === "index") initIndex();
