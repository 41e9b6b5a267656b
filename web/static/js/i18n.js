// Every string the pages show, in one dictionary per language (`en`, `de`; both have the same
// keys, tests/web/test_i18n_qr.py checks). The language is ?lang=xx (then remembered), else the
// one remembered in localStorage, else the browser's (de* -> de, otherwise en); chooseLanguage()
// sets <html lang>. Templates carry only keys (data-i18n, data-i18n-placeholder,
// data-i18n-aria-label); {name} placeholders are filled by t(key, {name}).
// Text that comes from the API (log lines, warnings, refusal reasons, variant help) is the
// core's English, and so are the typed move commands (bid, done, end...); `variants` below
// can override the variant help.

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
  colour_label: "Colour of seat {n}",
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
  seats_note: "Each player scans their QR code or opens their link (their stones stay private).",
  seat_qr_alt: "QR code of {name}'s private page",
  log_heading: "Game log",
  my_log_heading: "My log",
  log_empty: "nothing yet",

  // seat page
  seat_title: "{name}'s private page",
  stones_heading: "My stones",
  legal_heading: "My moves",
  no_legal: "Nothing to decide now. Moves appear here when it is your turn or your decision.",
  open_table: "Open the table",
  lang_switch: "Language",

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


export const de = {
  app_title: "Keydom Companion",
  back_to_games: "Zurück zu den Spielen",
  not_found_title: "Nicht gefunden",
  not_found_text: "Dieses Spiel oder diese private Seite gibt es nicht. Vielleicht wurde es gelöscht.",
  broken_title: "Dieses Spiel lässt sich nicht öffnen",
  broken_text: "Das gespeicherte Spiel konnte nicht nachgespielt werden. Näheres steht im Protokoll des Dienstes.",

  loading: "Lädt…",

  // connection
  live: "verbunden",
  reconnecting: "verbinde neu…",
  offline_note: "Verbindung verloren, neuer Versuch läuft. Die Anzeige ist vielleicht nicht aktuell.",
  deleted: "Dieses Spiel wurde gelöscht.",

  // index
  games_heading: "Spiele",
  no_games: "Noch keine gespeicherten Spiele.",
  game_line: "{title}: {players}",
  status_playing: "läuft",
  status_over: "beendet",
  updated_at: "letzter Zug {when}",
  resume: "Fortsetzen",
  delete: "Löschen",
  confirm_delete: "Das Spiel von {players} löschen? Das lässt sich nicht rückgängig machen.",
  new_game_heading: "Neues Spiel",
  game_label: "Spiel",
  "game_key-harvest": "Key Harvest",
  players_legend: "Spieler in Sitzreihenfolge",
  seat_n: "Platz {n}",
  seat_optional: "Platz {n} (optional)",
  colour_label: "Farbe von Platz {n}",
  player_placeholder: "Name",
  variants_legend: "Varianten (Hausregeln)",
  variants_note: "Die Voreinstellungen folgen der deutschen Spielregel.",
  variant_ref: "({ref})",
  default_marker: "{choice} (Standard)",
  start_game: "Spiel starten",
  starting: "Startet…",
  error_refused: "„{move}“ abgelehnt: {reason}",
  error_rule: "Regel {rule}",
  error_network: "Der Companion antwortet nicht. Läuft der Dienst?",

  // table: status
  turn_of: "{name} ist am Zug",
  actions_taken: "Bisherige Aktionen: {actions}",
  no_actions: "noch keine Aktionen",
  final_rounds: "Schlussrunde: noch {n} Züge",
  final_rounds_started: "Schlussrunde",
  companion_draws: "Der Companion zieht…",
  game_over: "Das Spiel ist zu Ende.",
  nothing_pending: "Nichts offen: {name} führt eine Aktion aus oder beendet den Zug („end“).",
  move_label: "Zug",
  move_placeholder: "z. B. bid F6 wheat",
  play: "Ausführen",
  undo: "Rückgängig",
  undone: "Der letzte Zug wurde zurückgenommen.",

  // table: pending decisions (spec 9.7)
  pending_harvest: "{name} erntet eine Gruppe: ein weiteres Feldplättchen davon ernten oder „done“.",
  pending_bid: "{name} gibt ein Gebot ab{on}: Erntesteine von hinter dem Sichtschirm dazulegen oder „done“.",
  pending_bid_more: "{name} darf auf ein zweites Plättchen im Grundbuchamt bieten oder „done“.",
  pending_buy_more: "{name} darf ein zweites Plättchen aus einem Lager kaufen oder „done“.",
  pending_pay: "{name} zahlt Erntesteine nach Wahl{for}: ein „pay“ je Stein.",
  pending_bonus: "{worker} von {name} wurde verdrängt: mit Bonus neu einsetzen oder verzichten.",
  pending_ability: "{name} nutzt die Fähigkeit von {worker}{on} oder verzichtet.",
  pending_trader_choice: "{name} behält das Plättchen{tile} des Händlers auf dem eigenen Gebiet oder legt es auf die Brachfelder.",
  pending_replacement_choice: "Ersatz: {name} legt ein eigenes Feldplättchen auf die Brachfelder, um das gezogene Plättchen{tile} zu behalten, oder wirft es ab.",
  pending_event: "{name} nimmt an Ereignis {event} teil oder verzichtet.",
  pending_gift: "Geschenk: {name} setzt die Kette fort (give, forward, keep oder discard).",
  pending_windfall: "Glücksfall: {name} wählt einen Erntestein aus dem Vorrat (gain …).",
  pending_draw: "Der Companion zieht ein Feldplättchen.",
  pending_other: "{name} entscheidet: {kind}.",
  on_label: " auf {label}",
  tile_label: " {label}",
  for_worker: " für {worker}",
  for_event: " für Ereignis {event}",
  details: "({details})",
  detail_separator: " · ",
  detail_worker: "Arbeiter {worker}",
  detail_event: "Ereignis {event}",
  detail_label: "Plättchen {label}",

  // table: boards
  boards_heading: "Gebiete",
  board_tiles: "{n} Plättchen auf dem Gebiet (Felder + Arbeiter, für die „?“-Prüfung)",
  active_badge: "am Zug",
  to_move_badge: "entscheidet jetzt",
  harvested_mark: "✓",
  tile_title: "{label}: {crop}",
  tile_title_harvested: "{label}: {crop}, abgeerntet",
  space_title: "{label}: freier Platz",
  workers_heading: "Arbeiter",
  worker_at: "{worker} auf {label}",
  no_workers: "keine Arbeiter auf dem Gebiet",
  beside_heading: "Neben dem Gebiet",
  warehouse_heading: "Lager",
  empty_warehouse: "leer",
  bid_label: "Gebot:",
  stone_count: "{n} {crop}",
  screen_heading: "Erntesteine",
  screen_hidden: "hinter dem Sichtschirm",
  no_tiles: "noch keine Feldplättchen",

  // table: shared areas
  land_office_heading: "Grundbuchamt",
  empty_slot: "—",
  event_track_heading: "Ereignisleiste",
  question_slot: "?",
  set_aside: "Angekündigt und beiseitegelegt: {events}",
  event_title: "{letter} ({name})",
  worker_name: "{letter} {name}",
  town_heading: "Stadt",
  no_townsfolk: "keine Städter mehr",
  fallow_heading: "Brachfelder",
  fallow_empty: "leer",
  bag_heading: "Der Beutel",
  bag_fields: "{n} Feldplättchen",
  bag_events: "{n} Ereignisse",
  bag_events_exact: "Ereignisse im Beutel: {events}",
  bag_events_maybe: "Vielleicht im Beutel: {events}",
  bag_removed_note: "Beim Aufbau wurden 2 Ereignisse ungesehen entfernt, also sind nicht alle davon im Beutel.",
  bag_trader_note: "Der Händler hat heimlich ein Plättchen gezogen; bis er es behält oder abwirft, zählt es als noch im Beutel.",
  bag_removed_events: "Beim Aufbau entfernt: {events}",
  none: "keine",

  // score
  score_heading: "Wertung",
  score_projection_note: "Laufende Hochrechnung: Die Mehrheiten bei den Erntesteinen werden erst am Ende gewertet.",
  score_final_heading: "Schlusswertung",
  col_rank: "Platz",
  col_player: "Spieler",
  col_workers: "Arbeiter",
  col_largest: "Größte Gruppe",
  col_second: "Zweitgrößte Gruppe",
  col_majority: "Mehrheiten",
  col_total: "Summe",
  at_the_end: "am Ende",
  winner: "{names} gewinnt mit {points} Punkten!",
  winners: "{names} teilen sich den Sieg mit {points} Punkten!",
  and: " und ",

  // seats and log
  seats_heading: "Private Seiten",
  seat_link: "{n}. {name}",
  seats_note: "Jeder scannt den eigenen QR-Code oder öffnet den eigenen Link (die Erntesteine bleiben geheim).",
  seat_qr_alt: "QR-Code der privaten Seite von {name}",
  log_heading: "Spielprotokoll",
  my_log_heading: "Mein Protokoll",
  log_empty: "noch nichts",

  // seat page
  seat_title: "Private Seite von {name}",
  stones_heading: "Meine Erntesteine",
  legal_heading: "Meine Züge",
  no_legal: "Gerade gibt es nichts zu entscheiden. Deine Züge erscheinen hier, sobald du am Zug bist oder entscheiden musst.",
  open_table: "Zum Spieltisch",
  lang_switch: "Sprache",

  crops: {
    hops: "Hopfen",
    vegetables: "Gemüse",
    apples: "Äpfel",
    wine: "Wein",
    wheat: "Weizen",
  },
  // Working names, like the English ones: check against the German box.
  workers: {
    A: "Lehrling", B: "Aushilfe", C: "Tagelöhner", D: "Hilfsarbeiter",
    E: "Facharbeiter", F: "Vorarbeiter", G: "Kaufmann", H: "Lagerverwalter", I: "Vogt",
    J: "Anwalt", K: "Händler", L: "Gönner",
  },
  events: {
    M: "Umtausch", N: "Tausch", O: "Geschenk", P: "Gute Ernte", Q: "Glücksgriff", R: "Neue Ernte",
    S: "Neuvermessung", T: "Schnellverkauf", U: "Flurbereinigung", V: "Sonderernte", W: "Ersatz",
    X: "Wanderarbeiter", Y: "Feiertag", Z: "Glücksfall",
  },
  variants: {},
  verbs: {
    harvest: "Ernten", play: "Arbeiter einsetzen", remove: "Arbeiter zurücknehmen", buy: "Kaufen", bid: "Bieten",
    add: "Stein dazulegen", pay: "Zahlen", gain: "Erhalten", take: "Nehmen", flip: "Umdrehen", fallow: "Brachlegen",
    seize: "Beschlagnahmen", reuse: "Wiederverwenden", bonus: "Bonus", give: "Geben", swap: "Tauschen", move: "Versetzen",
    trade: "Handeln", dip: "Ziehen", keep: "Behalten", discard: "Abwerfen", forward: "Weitergeben",
    done: "Fertig", decline: "Verzichten", end: "Zug beenden",
  },
};

const dictionaries = { en, de };
const LANGUAGE_KEY = "keydom-language";

function known(lang) {
  return typeof lang === "string" && Object.hasOwn(dictionaries, lang);
}

/** Pick the page's language (?lang=, then localStorage, then the browser's) and set <html lang> to it. */
export function chooseLanguage() {
  const asked = new URLSearchParams(window.location.search).get("lang");
  let lang = null;
  try {
    if (known(asked)) window.localStorage.setItem(LANGUAGE_KEY, asked);
    lang = window.localStorage.getItem(LANGUAGE_KEY);
  } catch {
    // storage may be off (private mode): the choice is then not remembered
  }
  if (known(asked)) lang = asked;
  if (!known(lang)) lang = (navigator.language || "").toLowerCase().startsWith("de") ? "de" : "en";
  document.documentElement.lang = lang;
  return lang;
}

/** The dictionary of the page's language (<html lang>), English when there is none. */
export function dictionary() {
  return dictionaries[document.documentElement.lang] || en;
}

function lookup(key, dict) {
  return key.split(".").reduce((node, part) => (node == null ? undefined : node[part]), dict);
}

/** The string `key` (a dotted path such as "crops.wine"), its {placeholders} filled from `vars`. */
export function t(key, vars = {}) {
  const found = lookup(key, dictionary()) ?? lookup(key, en);
  const text = typeof found === "string" ? found : key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}

/** Fill every element of `root` that names a string key; mark the current language in the switch. */
export function applyStrings(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
  for (const el of root.querySelectorAll("[data-i18n-aria-label]")) el.setAttribute("aria-label", t(el.dataset.i18nAriaLabel));
  for (const el of root.querySelectorAll("[data-lang]")) {
    if (el.dataset.lang === document.documentElement.lang) el.setAttribute("aria-current", "true");
    else el.removeAttribute("aria-current");
  }
}
