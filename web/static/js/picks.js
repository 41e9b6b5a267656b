// Decisions as picks (companion/core/picks.py, docs/api.md): a decision is made by a few taps, the piece or action
// first, then where, then how to pay. The service answers the options of the next pick only (POST .../picks with
// the ids picked so far and the version on screen); the device assembles the picks and sends the whole decision
// as one move with that version. The options are buttons in words and, where the page draws the component an
// option names (an element with `data-component="<id>"`), that component lit on the picture: a tap on it is the
// same pick. Shared by every game's table and seat pages; no game's name here.

import { say, t } from "./i18n.js";
import { api, fill, h, showError } from "./ui.js";

/** Elements of the page lit as options of the current pick (class `lit`). */
const LIT = "lit";

/**
 * A picker drawn into `box`: `show(root, version)` with the first pick (the game's `pick`, or a seat's) whenever
 * the page draws a version; `send(picks)` sends the assembled decision (resolves when the page has the answer).
 * `apiPath` is the game's (or the seat's private) API path; `heading` an optional element to fill with the
 * question.
 */
export function createPicker({ box, apiPath, send }) {
  let version = -1;
  let root = null;
  let node = null;
  let chosen = [];
  let busy = false;

  const options = () => (node ? node.groups.flatMap((group) => group.options.map((option) => option.id)) : []);

  const light = () => {
    const ids = new Set(options());
    for (const el of document.querySelectorAll(`[data-component].${LIT}`)) {
      if (!ids.has(el.dataset.component)) unlight(el);
    }
    if (busy) return;
    for (const el of document.querySelectorAll("[data-component]")) {
      if (ids.has(el.dataset.component) && !box.contains(el)) {
        el.classList.add(LIT);
        el.setAttribute("role", "button");
        el.setAttribute("tabindex", "0");
      }
    }
  };

  const draw = () => {
    box.hidden = !node || (!node.groups.length && !node.done);
    box.dataset.version = String(version);
    box.dataset.busy = String(busy);
    if (!node) {
      fill(box.id);
      light();
      return;
    }
    const head = chosen.length ? h("div", { class: "pick-head" },
      h("p", { class: "pick-path" }, node.chosen.map((choice) => say(choice.words)).join(" · ")),
      h("button", { type: "button", class: "pick-back", "data-pick-back": "" }, t("flow_back"))) : null;
    const groups = node.groups.map((group) => h("div", { class: "pick-group" },
      h("h3", { class: "pick-ask" }, say(group.ask)),
      h("div", { class: "pick-options" }, group.options.map((option) => h("button", {
        type: "button", class: "pick", "data-pick": option.id, disabled: busy,
      }, say(option.words))))));
    const done = node.done ? h("div", { class: "pick-done" },
      h("p", { class: "pick-words" }, say(node.done.words)),
      h("button", { type: "button", class: "primary", "data-pick-send": "", disabled: busy }, t("pick_send"))) : null;
    fill(box.id, head, done, groups);
    light();
  };

  const ask = async (picks) => {
    busy = true;
    draw();
    const answer = await api("POST", `${apiPath}/picks`, { picks, version });
    busy = false;
    if (!answer.ok) {
      // the table moved on (409): say so and start over; the page's live update draws the new decision
      showError(answer.status === 409 ? { error: { reason: t("moved_on") } } : answer.data);
      if (answer.status === 409) {
        chosen = [];
        node = root;
      }
      draw();
      return;
    }
    chosen = picks;
    node = answer.data;
    if (node.done && !node.done.confirm && !node.groups.length) return submit();
    draw();
  };

  const submit = async () => {
    if (busy) return;
    busy = true;
    draw();
    try {
      await send(chosen);
    } finally {
      busy = false;
      chosen = [];
      node = root;
      draw();
    }
  };

  const picker = {
    /** Draw the first pick of `version` (a new version drops the picks made on the old one). */
    show(first, shownVersion) {
      if (shownVersion !== version || !chosen.length) {
        version = shownVersion;
        chosen = [];
        node = root = first;
      }
      if (!busy) draw();
    },
    pick(id) {
      if (!busy && options().includes(id)) ask([...chosen, id]);
    },
    back() {
      if (busy || !chosen.length) return;
      if (chosen.length === 1) {
        chosen = [];
        node = root;
        draw();
      } else ask(chosen.slice(0, -1));
    },
    send: submit,
    /** Go on from the picks `picks` of `shownVersion` (a piece scanned at the station names where it leads). */
    start(picks, shownVersion) {
      version = shownVersion;
      root = null;
      ask(picks);
    },
    get chosen() { return chosen; },
    get version() { return version; },
    get options() { return options(); },
  };

  box.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button || button.disabled) return;
    if (button.dataset.pick !== undefined) picker.pick(button.dataset.pick);
    else if (button.dataset.pickBack !== undefined) picker.back();
    else if (button.dataset.pickSend !== undefined) picker.send();
  });
  const tapped = (event) => {
    const el = event.target.closest && event.target.closest(`[data-component].${LIT}`);
    if (!el || box.contains(el)) return;
    if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    picker.pick(el.dataset.component);
  };
  document.addEventListener("click", tapped);
  document.addEventListener("keydown", tapped);
  return picker;
}

function unlight(el) {
  el.classList.remove(LIT);
  el.removeAttribute("role");
  el.removeAttribute("tabindex");
}

/** The shared table's flow on picks, for ``runTablePage``: who decides in #flow-who, the picker in #flow-options. */
export function pickFlow(play, who = defaultWho) {
  const gameId = document.body.dataset.gameId;
  const picker = createPicker({
    box: document.getElementById("flow-options"),
    apiPath: `/api/games/${encodeURIComponent(gameId)}`,
    send: (picks) => play({ picks }),
  });
  return {
    picker,
    render(game) {
      const section = document.getElementById("flow");
      const first = game.pick && (game.pick.groups.length || game.pick.done) ? game.pick : null;
      section.hidden = !first;
      fill("flow-who", first ? who(game) : null);
      picker.show(first, game.version);
    },
  };
}

function defaultWho(game) {
  const seat = typeof game.to_move === "number" ? game.to_move : null;
  return seat == null ? "" : t("flow_decides", { name: game.players[seat] ?? "?" });
}
