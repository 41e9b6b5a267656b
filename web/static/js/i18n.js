// Every string the pages show, in one dictionary per language. To translate, add `de` next
// to `en`, list it in `dictionaries`, and set <html lang="de"> (base.html). Templates carry
// only keys (data-i18n, data-i18n-placeholder); {name} placeholders are filled by t(key, {name}).
// Text that comes from the API (log lines, warnings, refusal reasons, variant help) is the
// core's English; `variants` below can override the variant help.

export const en = {
  app_title: "Keydom Companion",
  back_to_games: "Back to the games",
  not_found_title: "Not found",
  not_found_text: "There is no such game or private page. It may have been deleted.",
  broken_title: "This game cannot be opened",
  broken_text: "The stored game could not be replayed. See the service's log.",

  loading: "Loading…",

  // connection
  live: "live",
  reconnecting: "reconnecting…",
  offline_note: "Connection lost; retrying. What you see may be out of date.",
  deleted: "This game was deleted.",

  // index
  games_heading: "Games",
  no_games: "No stored games yet.",
  game_line: "{title}: {players}",
  status_playing: "playing",
  status_over: "over",
  updated_at: "last move {when}",
  resume: "Resume",
  delete: "Delete",
  confirm_delete: "Delete the game of {players}? This cannot be undone.",
  new_game_heading: "New game",
  game_label: "Game",
  "game_key-harvest": "Key Harvest",
  players_legend: "Players in seat order",
  seat_n: "Seat {n}",
  seat_optional: "Seat {n} (optional)",
  player_placeholder: "Name",
  variants_legend: "Variants (house rules)",
  variants_note: "The defaults follow the German rulebook.",
  variant_ref: "({ref})",
  default_marker: "{choice} (default)",
  start_game: "Start the game",
  starting: "Starting…",
  error_refused: "Refused '{move}': {reason}",
  error_rule: "rule {rule}",
  error_network: "The companion does not answer. Is the service running?",

  // table: status
  turn_of: "{name}'s turn",
  actions_taken: "Actions taken: {actions}",
  no_actions: "no actions yet",
  final_rounds: "Final rounds: {n} turns left",
  final_rounds_started: "Final rounds",
  companion_draws: "The companion is drawing…",
  game_over: "The game is over.",
  nothing_pending: "Nothing pending: {name} plays an action or says end.",
  move_label: "Move",
  move_placeholder: "e.g. bid F6 wheat",
  play: "Play",
  undo: "Undo",
  undone: "The last move was taken back.",

  // table: pending decisions (spec 9.7)
  pending_harvest: "{name} is harvesting a group: harvest another tile of it, or say done.",
  pending_bid: "{name} is placing a bid{on}: add stones from behind the screen, or say done.",
  pending_bid_more: "{name} may bid for a second land-office tile, or say done.",
  pending_buy_more: "{name} may buy a second tile from a warehouse, or say done.",
  pending_pay: "{name} pays stones of their choice{for}: one pay move per stone.",
  pending_bonus: "{name}'s {worker} was displaced: re-place it with bonus, or decline.",
  pending_ability: "{name} uses the ability of {worker}{on}, or declines.",
  pending_trader_choice: "{name} keeps the Trader's tile{tile} on their board, or discards it to the fallow area.",
  pending_replacement_choice: "Replacement: {name} sends one of their field tiles to the fallow area to keep the drawn tile{tile}, or discards it.",
  pending_event: "{name} takes part in event {event}, or declines.",
  pending_gift: "Gift: {name} continues the chain (give, forward, keep or discard).",
  pending_windfall: "Windfall: {name} chooses a stone from the supply (gain crop).",
  pending_draw: "The companion is drawing a tile.",
  pending_other: "{name} decides: {kind}.",
  on_label: " on {label}",
  tile_label: " {label}",
  for_worker: " for {worker}",
  for_event: " for event {event}",
  details: "({details})",
  detail_separator: " · ",
  detail_worker: "worker {worker}",
  detail_event: "event {event}",
  detail_label: "tile {label}",

  // table: boards
  boards_heading: "Boards",
  board_tiles: "{n} board tiles (fields + workers, for the \"?\" check)",
  active_badge: "their turn",
  to_move_badge: "decides now",
  harvested_mark: "✓",
  tile_title: "{label}: {crop}",
  tile_title_harvested: "{label}: {crop}, harvested",
  space_title: "{label}: empty space",
  workers_heading: "Workers",
  worker_at: "{worker} on {label}",
  no_workers: "no workers on the board",
  beside_heading: "Beside the board",
  warehouse_heading: "Warehouse",
  empty_warehouse: "empty",
  bid_label: "bid:",
  stone_count: "{n} {crop}",
  screen_heading: "Stones",
  screen_hidden: "behind the screen",
  no_tiles: "no field tiles yet",

  // table: shared areas
  land_office_heading: "Land office",
  empty_slot: "—",
  event_track_heading: "Event track",
  question_slot: "?",
  set_aside: "Announced and set aside: {events}",
  event_title: "{letter} ({name})",
  worker_name: "{letter} {name}",
  town_heading: "Town board",
  no_townsfolk: "no townsfolk left",
  fallow_heading: "Fallow area",
  fallow_empty: "empty",
  bag_heading: "The bag",
  bag_fields: "{n} field tiles",
  bag_events: "{n} events",
  bag_events_exact: "Events in the bag: {events}",
  bag_events_maybe: "Events maybe in the bag: {events}",
  bag_removed_note: "2 events were removed unseen at setup, so not all of these are in the bag.",
  bag_trader_note: "The Trader has drawn a tile in secret; until it is kept or discarded it is counted as still in the bag.",
  bag_removed_events: "Removed at setup: {events}",
  none: "none",

  // score
  score_heading: "Score",
  score_projection_note: "Live projection: crop majorities are scored at the end.",
  score_final_heading: "Final score",
  col_rank: "Rank",
  col_player: "Player",
  col_workers: "Workers",
  col_largest: "Largest group",
  col_second: "Second group",
  col_majority: "Majorities",
  col_total: "Total",
  at_the_end: "at the end",
  winner: "{names} wins with {points} points!",
  winners: "{names} share the win with {points} points!",
  and: " and ",

  // seats and log
  seats_heading: "Private pages",
  seat_link: "{n}. {name}",
  seats_note: "Each player opens their own link (their stones stay private).",
  log_heading: "Game log",
  my_log_heading: "My log",
  log_empty: "nothing yet",

  // seat page
  seat_title: "{name}'s private page",
  stones_heading: "My stones",
  legal_heading: "My moves",
  no_legal: "Nothing to decide now. Moves appear here when it is your turn or your decision.",
  open_table: "Open the table",

  crops: {
    hops: "hops",
    vegetables: "vegetables",
    apples: "apples",
    wine: "wine",
    wheat: "wheat",
  },
  // Working names (companion/games/key_harvest/moves.py): check against the box.
  workers: {
    A: "Apprentice", B: "Casual Labourer", C: "Day Labourer", D: "Unskilled Labourer",
    E: "Skilled Labourer", F: "Overseer", G: "Merchant", H: "Storekeeper", I: "Bailiff",
    J: "Lawyer", K: "Trader", L: "Benefactor",
  },
  events: {
    M: "Exchange", N: "Swap", O: "Gift", P: "Good Harvest", Q: "Lucky Dip", R: "New Harvest",
    S: "Resurvey", T: "Quick Sale", U: "Land Consolidation", V: "Extra Harvest", W: "Replacement",
    X: "Migrant Worker", Y: "Holiday", Z: "Windfall",
  },
  // Variant flags: {name: {label, help}} overrides the API's English text (empty: use the API's).
  variants: {},
  verbs: {
    harvest: "Harvest", play: "Play a worker", remove: "Take a worker back", buy: "Buy", bid: "Bid",
    add: "Add a stone", pay: "Pay", gain: "Gain", take: "Take", flip: "Flip", fallow: "Fallow",
    seize: "Seize", reuse: "Reuse", bonus: "Bonus", give: "Give", swap: "Swap", move: "Move",
    trade: "Trade", dip: "Dip", keep: "Keep", discard: "Discard", forward: "Forward",
    done: "Done", decline: "Decline", end: "End the turn",
  },
};

const dictionaries = { en };

/** The dictionary of the page's language (<html lang>), English when there is none. */
export function dictionary() {
  return dictionaries[document.documentElement.lang] || en;
}

/** The string `key` (a dotted path such as "crops.wine"), its {placeholders} filled from `vars`. */
export function t(key, vars = {}) {
  const found = key.split(".").reduce((node, part) => (node == null ? undefined : node[part]), dictionary());
  const text = typeof found === "string" ? found : key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}

/** Fill every element of `root` that names a string key. */
export function applyStrings(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
}
