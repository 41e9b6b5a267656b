// Touch flows on the shared table: every move as a few taps, built from the game's `choices`
// (the moves of whoever decides now, as the whole table may know them; the core decides legality
// and refuses the rest with its rule and reason). A move is a verb and tokens ("play C D4",
// "harvest B3/wine" -> harvest, B3, /wine); a flow picks the verb, then one token at a time
// among the choices that start with what was picked, and sends the move once it is complete.

import { has, t } from "../../js/i18n.js";
import { byId, fill, h, moveText, paintSeat, playerName, seatColour, seatDot, withoutEach } from "../../js/ui.js";
import { CROPS, cropName, workerName } from "./pieces.js";

/** Tokens that name a space of the decider's own board (a worker's space), by verb and position. */
const SPACE_TOKENS = { play: [2], bonus: [1], remove: [1], move: [1, 2], reuse: [1] };
/**
 * Stepper patterns (docs/key-harvest-notation.md): the choices hold "bid L" per land-office tile and "pay";
 * the stones behind a screen are counted with the stepper and the whole decision is sent as one move
 * ("bid L wheat wheat wine", "pay hops wine wine"). The key is the verb, the value the pattern's length.
 */
const STEPPER_PATTERNS = { bid: 2, pay: 1 };
/** Verbs whose arguments are one unordered pick (two crops, tiles or stones): picked in any order. */
const UNORDERED_VERBS = ["gain", "take", "flip"];
/** The order of the verb buttons: these first, then the others as the game gives them, then LAST_VERBS. */
const VERB_ORDER = ["harvest", "play", "remove", "buy", "bid", "pay"];
const LAST_VERBS = ["done", "end", "decline"];
/** The action (spec 3) a verb starts on a turn, shown on its button then (not in the decisions that follow). */
const ACTIONS = { harvest: "A", play: "B", remove: "B", buy: "C", bid: "D" };
const TILE_PLACES = "#boards .hex, #land-office [data-label], .warehouse-tile, #fallow [data-label]";

/** "harvest B3/wine" -> ["harvest", "B3", "/wine"]. */
export function tokensOf(move) {
  return move.split(" ").flatMap((part, i) => {
    const cut = part.indexOf("/");
    return i && cut > 0 ? [part.slice(0, cut), part.slice(cut)] : [part];
  });
}

/** The move text of tokens (the inverse of tokensOf). */
export function moveOf(tokens) {
  return tokens.reduce((text, token, i) => (i === 0 ? token : token.startsWith("/") ? text + token : `${text} ${token}`), "");
}

function startsWith(tokens, prefix) {
  return prefix.every((token, i) => tokens[i] === token);
}

/** Whether `tokens` is a stepper pattern ("bid L", "pay"): its stones are still to be counted. */
export function isStepperPattern(tokens) {
  return STEPPER_PATTERNS[tokens[0]] === tokens.length;
}

/** What may follow `prefix`: the distinct next tokens, and whether `prefix` is itself a whole move. */
export function nextTokens(choices, prefix) {
  const next = [];
  let complete = false;
  const unordered = UNORDERED_VERBS.includes(prefix[0]);
  for (const move of choices) {
    if (unordered) { // the picks so far, in any order, among the move's arguments
      const [verb, ...args] = move.split(" ");
      const rest = verb === prefix[0] ? withoutEach(args, prefix.slice(1)) : null;
      if (rest === null) continue;
      if (!rest.length) complete = true;
      for (const token of rest) if (!next.includes(token)) next.push(token);
      continue;
    }
    const tokens = tokensOf(move);
    if (!startsWith(tokens, prefix)) continue;
    if (tokens.length === prefix.length) complete = true;
    else if (!next.includes(tokens[prefix.length])) next.push(tokens[prefix.length]);
  }
  return { next, complete };
}

function tokenKind(verb, index, token) {
  if (token.startsWith("/")) return "substitute";
  if (CROPS.includes(token)) return "crop";
  if (verb === "play" && index === 1) return "worker";
  return (SPACE_TOKENS[verb] || []).includes(index) ? "space" : "tile";
}

function verbs(choices) {
  const found = [...new Set(choices.map((move) => move.split(" ")[0]))];
  const rank = (verb) => (VERB_ORDER.includes(verb) ? VERB_ORDER.indexOf(verb)
    : LAST_VERBS.includes(verb) ? VERB_ORDER.length + 1 + LAST_VERBS.indexOf(verb) : VERB_ORDER.length);
  return found.sort((a, b) => rank(a) - rank(b));
}

/** The elements of the page that show `label`: a field tile wherever it lies, or a space of `seat`'s board. */
function labelTargets(label, kind, seat) {
  const board = `#boards .board[data-seat="${seat}"]`;
  if (kind === "space") return [...document.querySelectorAll(`${board} .space[data-label="${CSS.escape(label)}"]`)];
  return [...document.querySelectorAll(TILE_PLACES)].filter((el) => el.dataset.label === label);
}

/**
 * The flow panel of the table page. `play(text)` sends one move (resolving to the API's answer, or
 * null once refused, after showing the refusal); the panel is drawn again with every new game.
 */
export function createFlows(play) {
  let game = null;
  let shownVersion = -1;
  let picked = []; // the tokens picked so far (verb first)
  let counts = {}; // the stepper's stones by crop
  let busy = false;

  const reset = () => {
    picked = [];
    counts = {};
  };

  const sendAll = async (moves) => {
    busy = true;
    try {
      for (const move of moves) {
        if (!(await play(move))) return false; // refused: the core's reason is shown, nothing more is sent
      }
      return true;
    } finally {
      busy = false;
      reset();
      if (game) render(game);
    }
  };

  const pick = (token) => {
    if (busy || !game) return;
    const tokens = [...picked, token];
    const { next, complete } = nextTokens(game.choices, tokens);
    if (complete && !next.length && !isStepperPattern(tokens)) {
      sendAll([moveOf(tokens)]);
      return;
    }
    picked = tokens;
    render(game);
  };

  // A tap on a highlighted tile or space of the page picks its label.
  document.addEventListener("click", (event) => {
    const target = event.target.closest(".choice[data-label]");
    if (!target || !game) return;
    event.preventDefault();
    pick(target.dataset.label);
  });

  function render(newGame) {
    if (newGame.version !== shownVersion) {
      shownVersion = newGame.version;
      if (!busy) reset();
    }
    game = newGame;
    for (const el of document.querySelectorAll(".choice")) el.classList.remove("choice");
    const panel = byId("flow");
    const seat = game.to_move;
    const choices = game.choices || [];
    if (typeof seat !== "number" || !choices.length) {
      panel.hidden = true;
      return;
    }
    panel.hidden = false;
    paintSeat(panel, seatColour(game, seat));
    panel.dataset.seat = String(seat);
    const list = verbs(choices);
    if (!picked.length && list.length === 1 && !nextTokens(choices, list).complete) picked = [list[0]]; // one verb: skip its button
    fill("flow-who", seatDot(game, seat), t("flow_decides", { name: playerName(game, seat) }));
    fill("flow-path", picked.length ? pathText(picked) : null);
    byId("flow-back").hidden = !picked.length || (list.length === 1 && picked.length === 1);
    fill("flow-options", picked.length ? tokenStep(seat) : verbStep(list));
  }

  function pathText(tokens) {
    const [verb, ...rest] = tokens;
    return [h("strong", {}, verbLabel(verb)), ...rest.flatMap((token, i) => [" → ", tokenLabel(verb, i + 1, token)])];
  }

  function verbLabel(verb) {
    const key = `flow_verbs.${verb}`;
    const text = has(key) ? t(key) : verb;
    return ACTIONS[verb] && !game.view.pending ? t("flow_action", { verb: text, action: ACTIONS[verb] }) : text;
  }

  function tokenLabel(verb, index, token) {
    const kind = tokenKind(verb, index, token);
    if (kind === "crop") return cropName(token);
    if (kind === "substitute") return t("flow_instead", { crop: cropName(token.slice(1)) });
    if (kind === "worker") return workerName(token);
    return token;
  }

  function harvesting() {
    return Boolean(game.view.pending && game.view.pending.kind === "harvest");
  }

  function verbStep(list) {
    return [h("p", { class: "flow-prompt" }, t("flow_choose_action")),
      harvesting() && list.includes("harvest") ? harvestAll() : null,
      h("div", { class: "flow-verbs" }, list.map((verb) => {
        const whole = nextTokens(game.choices, [verb]);
        const button = h("button", { type: "button", class: `flow-verb${whole.complete && !whole.next.length ? " direct" : ""}`,
                                     "data-verb": verb }, verbLabel(verb));
        button.addEventListener("click", () => pick(verb));
        return button;
      }))];
  }

  function tokenStep(seat) {
    const verb = picked[0];
    const index = picked.length;
    const { next, complete } = nextTokens(game.choices, picked);
    const kinds = new Set(next.map((token) => tokenKind(verb, index, token)));
    const parts = [];
    if (isStepperPattern(picked)) {
      return stepper(CROPS);
    } else {
      const kind = [...kinds][0] || "tile";
      parts.push(h("p", { class: "flow-prompt" }, t(`flow_choose_${kind}`, { name: playerName(game, seat) })));
      const of = UNORDERED_VERBS.includes(verb) ? pickCount(verb) : 0;
      if (of > 1) parts.push(h("p", { class: "flow-pick-of" }, t("flow_pick_of", { i: picked.length, n: of })));
      parts.push(h("div", { class: `flow-tokens kind-${kind}` }, next.map((token) => tokenButton(verb, index, token, seat))));
      if (verb === "harvest" && harvesting()) parts.push(harvestAll());
    }
    if (complete) {
      const finish = h("button", { type: "button", class: "primary flow-finish", "data-move": moveOf(picked) },
        t("flow_finish", { move: moveText(game.words, moveOf(picked)) }));
      finish.title = moveOf(picked);
      finish.addEventListener("click", () => sendAll([moveOf(picked)]));
      parts.push(h("p", {}, finish));
    }
    return parts;
  }

  /** How many picks the longest choice of an unordered verb has (2 for two crops, tiles or stones). */
  function pickCount(verb) {
    return Math.max(0, ...game.choices.filter((m) => m.split(" ")[0] === verb).map((m) => m.split(" ").length - 1));
  }

  function tokenButton(verb, index, token, seat) {
    const kind = tokenKind(verb, index, token);
    const crop = kind === "crop" ? token : kind === "substitute" ? token.slice(1) : kind === "tile" ? cropOfLabel(token) : null;
    const where = kind === "tile" ? placeOf(token) : null;
    const button = h("button", { type: "button", class: `flow-token${crop ? ` crop-${crop}` : ""}`, "data-token": token },
      tokenLabel(verb, index, token), where ? h("small", { class: "where" }, where) : null);
    button.addEventListener("click", () => pick(token));
    if (kind === "tile" || kind === "space") {
      for (const el of labelTargets(token, kind, seat)) el.classList.add("choice");
    }
    return button;
  }

  /** Where field tile `label` lies now, in words (a board, a warehouse, the land office, the fallow area). */
  function placeOf(label) {
    const view = game.view;
    if (view.land_office.includes(label)) return t("place_office");
    if (view.fallow.includes(label)) return t("place_fallow");
    for (const player of view.players) {
      if (player.warehouse.some((entry) => entry.label === label)) return t("place_warehouse", { name: player.name });
      if (player.tiles.some((tile) => tile.label === label)) return t("place_board", { name: player.name });
    }
    return null;
  }

  function cropOfLabel(label) {
    const space = game.view.layout.spaces.find((s) => s.label === label);
    return space ? space.crop : null;
  }

  /** The stones of a bid or a payment: + and - per crop, then one tap sends the whole decision as one move. */
  function stepper(crops) {
    const verb = picked[0];
    const owed = verb === "pay" && game.view.pending ? game.view.pending.n || 0 : 0;
    const total = () => Object.values(counts).reduce((a, b) => a + b, 0);
    const rows = crops.map((crop) => {
      const count = h("output", { class: "count", "data-crop": crop }, String(counts[crop] || 0));
      const change = (by) => {
        counts[crop] = Math.max(0, (counts[crop] || 0) + by);
        render(game);
      };
      const less = h("button", { type: "button", class: "less", "aria-label": t("flow_less", { crop: cropName(crop) }) }, "−");
      const more = h("button", { type: "button", class: "more", "aria-label": t("flow_more", { crop: cropName(crop) }) }, "+");
      less.disabled = !counts[crop];
      less.addEventListener("click", () => change(-1));
      more.addEventListener("click", () => change(1));
      return h("li", { class: `stepper-row crop-${crop}`, "data-crop": crop },
        h("span", { class: "chip" }, cropName(crop)), less, count, more);
    });
    const n = total();
    const key = `${verb === "bid" ? "flow_place_bid" : "flow_pay_stones"}${n === 1 ? "_one" : ""}`;
    const label = t(key, { n, label: picked[1], owed });
    const send = h("button", { type: "button", class: "primary flow-send" }, label);
    send.disabled = n === 0 || (owed > 0 && n !== owed);
    send.addEventListener("click", () => {
      const stones = crops.flatMap((crop) => Array(counts[crop] || 0).fill(crop));
      sendAll([moveOf([...picked, ...stones])]); // one decision, one move
    });
    return [h("p", { class: "flow-prompt" }, t(verb === "bid" ? "flow_bid_prompt" : "flow_pay_prompt", { owed })),
      h("ul", { class: "stepper" }, rows), h("p", {}, send)];
  }

  /** While a group is being harvested: harvest each tile still offered, one after the other. */
  function harvestAll() {
    const button = h("button", { type: "button", class: "flow-harvest-all" }, t("flow_harvest_all"));
    button.addEventListener("click", async () => {
      busy = true;
      try {
        for (let guard = 0; guard < 60; guard += 1) {
          const move = (game.choices || []).find((m) => /^harvest [^/ ]+$/.test(m));
          if (!move || !(await play(move))) break;
        }
      } finally {
        busy = false;
        reset();
        render(game);
      }
    });
    return h("p", {}, button);
  }

  byId("flow-back").addEventListener("click", () => {
    picked = picked.slice(0, -1);
    counts = {};
    render(game);
  });

  return { render };
}
