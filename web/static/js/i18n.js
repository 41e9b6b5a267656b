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

  // table: touch flows
  flow_decides: "{name} decides",
  flow_action: "{verb} ({action})",
  flow_choose_action: "Tap what to do:",
  flow_choose_tile: "Tap a highlighted tile (on a board, in the land office or a warehouse) or a button below.",
  flow_choose_space: "Tap a highlighted space on {name}'s board, or a button below.",
  flow_choose_worker: "Which worker?",
  flow_choose_crop: "Which crop?",
  flow_choose_substitute: "That crop's stones are all gone: which crop instead?",
  flow_instead: "{crop} instead",
  flow_finish: "Send “{move}”",
  flow_back: "Back",
  flow_less: "One {crop} less",
  flow_more: "One {crop} more",
  flow_bid_prompt: "Stones from behind your screen for this bid:",
  flow_add_prompt: "Add more stones to the bid, or tap Done: the bid is then fixed and the land office is refilled.",
  flow_place_bid: "Bid {n} stones for {label}",
  flow_add_stones: "Add {n} stones",
  flow_place_bid_one: "Bid 1 stone for {label}",
  flow_add_stones_one: "Add 1 stone",
  flow_harvest_all: "Harvest every tile of this group",
  place_office: "land office",
  place_fallow: "fallow area",
  place_warehouse: "{name}'s warehouse",
  place_board: "{name}'s board",
  expert_summary: "Type a move (notation, for experts)",
  setup_link: "Setup guide",

  // setup guide
  setup_heading: "Setup guide",
  setup_title: "Set up the box: {players}",
  setup_intro: "Lay out the box step by step. The companion has made the draws: take each tile it names from the box, sorted by label.",
  setup_back: "Back",
  setup_next: "Next",
  setup_to_table: "Go to the table",
  setup_step_of: "Step {n} of {of}",
  setup_step_box: "The pieces",
  setup_box_intro: "For {n} players:",
  setup_table_heading: "In the middle of the table",
  setup_each_heading: "Each player takes",
  setup_sort_note: "Sort the field tiles by label and the event tiles by letter, so you can find the piece the companion names. The cloth bag stays in the box: the companion is the bag.",
  setup_step_seats: "Seats and the start player",
  setup_first: "{name} starts (drawn by the companion). Play goes round in this order.",
  setup_step_start_tiles: "Start tiles",
  setup_start_intro: "Each player takes their start tile and its twin and lays both on the spaces with the same labels of their board, unharvested side up.",
  setup_step_stones: "Starting stones",
  setup_stones_intro: "Put the harvest stones in the general supply. Each player takes {n} stones behind their screen: which ones, their private page shows (scan your QR code; keep it to yourself).",
  setup_supply: "Afterwards the supply holds {n} stones.",
  setup_step_office: "The land office",
  setup_office_intro: "Lay these six tiles, drawn from the digital bag, unharvested side up on the six land-office spaces:",
  setup_step_events: "Events and the bag",
  setup_events_removed: "Put {n} event tiles back in the box face down, without looking: the companion has taken {n} events out at random and shows which only at the end. The other {left} are in the bag.",
  setup_events_all: "All {n} event tiles are in the bag: keep them sorted beside the town board.",
  setup_bag_now: "The bag now holds {fields} field tiles and {events} events.",
  setup_bag_note: "When the companion draws, it names the tile: take that piece from the box.",
  setup_step_ready: "Ready",
  setup_ready: "Everything is laid out. {name} begins: go to the table and tap the first action.",
  pieces: {
    town_board: "the town board ({n})",
    townsfolk: "the {n} townsfolk G–L on the town board",
    field_tiles: "the {n} field tiles, sorted by label",
    event_tiles: "the {n} event tiles M–Z, sorted by letter",
    stones: "the {n} harvest stones (12 of each crop) as the general supply",
    estate_board: "an estate board",
    screen: "a screen",
    warehouse_card: "a warehouse card (above the board)",
    summary_card: "a summary card",
    labourers: "the {n} labourers A–F of their colour, beside the board",
  },

  // bag
  bag_labels_summary: "Which field tiles are still in the bag",
  bag_out_heading: "Out of the bag",
  bag_out_fields: "{n} field tiles (start tiles included):",
  bag_out_events: "Events drawn: {events}",
  bag_order_note: "The companion never shows the order of the bag.",

  // scoring screen
  tiebreak_heading: "Tie-breaks",
  tiebreak_tiles: "tiles on the board",
  tiebreak_tiles_workers: "tiles and workers on the board",
  tiebreak_by_tiles: "{names} tie on {points} points: more {what} decide ({counts}).",
  tiebreak_then_stones: "Then more stones left decide ({counts}).",
  tiebreak_by_stones: "{names} tie on {points} points and {n} {what}: more stones left decide ({counts}).",
  tiebreak_shared: "{names} tie on {points} points, tiles and stones: they share the place.",
  tiebreak_none: "No tie: no tie-break was needed.",
  chart_label: "Bar chart of the scores",
  chart_caption: "Each bar: workers, largest group, second group ×2, crop majorities.",
  stones_form_heading: "Stones behind the screens",
  stones_form_note: "If the companion did not track your stones (a stone taken or paid by mistake), enter what each screen really holds: the score is counted again. The stored game does not change.",
  stones_form_submit: "Score with these stones",
  score_rescored_note: "Scored with the stones you entered.",
  score_back_to_tracked: "Back to the companion's count",

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
  flow_verbs: {
    harvest: "Harvest", play: "Place a worker", remove: "Take a worker back",
    buy: "Buy from a warehouse", bid: "Buy from the land office: bid", end: "End the turn",
    add: "Add stones to the bid", pay: "Pay a stone", gain: "Take a stone from the supply", take: "Take",
    flip: "Flip back", fallow: "To the fallow area", seize: "Seize a tile", reuse: "Use a worker again",
    bonus: "Re-place the worker", give: "Give a tile", swap: "Swap tiles", move: "Move a worker",
    trade: "Trade", dip: "Lucky dip", keep: "Keep", discard: "Discard", forward: "Pass it on",
    done: "Done", decline: "Decline",
  },
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

  // table: touch flows
  flow_decides: "{name} entscheidet",
  flow_action: "{verb} ({action})",
  flow_choose_action: "Tippe, was du tust:",
  flow_choose_tile: "Tippe ein hervorgehobenes Plättchen (auf einem Tableau, im Grundbuchamt oder einem Lager) oder einen Knopf unten.",
  flow_choose_space: "Tippe ein hervorgehobenes Feld auf dem Tableau von {name} oder einen Knopf unten.",
  flow_choose_worker: "Welcher Arbeiter?",
  flow_choose_crop: "Welche Sorte?",
  flow_choose_substitute: "Von dieser Sorte sind keine Steine mehr da: welche stattdessen?",
  flow_instead: "stattdessen {crop}",
  flow_finish: "„{move}“ senden",
  flow_back: "Zurück",
  flow_less: "Ein {crop} weniger",
  flow_more: "Ein {crop} mehr",
  flow_bid_prompt: "Steine hinter deinem Sichtschirm für dieses Gebot:",
  flow_add_prompt: "Lege weitere Steine zum Gebot oder tippe Fertig: dann steht das Gebot fest und das Grundbuchamt wird aufgefüllt.",
  flow_place_bid: "{n} Steine für {label} bieten",
  flow_add_stones: "{n} Steine dazulegen",
  flow_place_bid_one: "1 Stein für {label} bieten",
  flow_add_stones_one: "1 Stein dazulegen",
  flow_harvest_all: "Alle Plättchen dieser Gruppe ernten",
  place_office: "Grundbuchamt",
  place_fallow: "Brachfelder",
  place_warehouse: "Lager von {name}",
  place_board: "Tableau von {name}",
  expert_summary: "Zug eintippen (Notation, für Erfahrene)",
  setup_link: "Aufbauhilfe",

  // setup guide
  setup_heading: "Aufbauhilfe",
  setup_title: "Spiel aufbauen: {players}",
  setup_intro: "Baut Schritt für Schritt auf. Der Companion hat schon gezogen: nehmt jedes Plättchen, das er nennt, aus der nach Beschriftung sortierten Schachtel.",
  setup_back: "Zurück",
  setup_next: "Weiter",
  setup_to_table: "Zum Spieltisch",
  setup_step_of: "Schritt {n} von {of}",
  setup_step_box: "Das Material",
  setup_box_intro: "Für {n} Spieler:",
  setup_table_heading: "In die Tischmitte",
  setup_each_heading: "Jeder Spieler nimmt",
  setup_sort_note: "Sortiert die Feldplättchen nach Beschriftung und die Ereignisplättchen nach Buchstaben, damit ihr das genannte Teil findet. Der Stoffbeutel bleibt in der Schachtel: der Companion ist der Beutel.",
  setup_step_seats: "Sitzordnung und Startspieler",
  setup_first: "{name} beginnt (vom Companion gezogen). Gespielt wird in dieser Reihenfolge.",
  setup_step_start_tiles: "Startplättchen",
  setup_start_intro: "Jeder Spieler nimmt sein Startplättchen und dessen Zwilling und legt beide mit der unabgeernteten Seite nach oben auf die gleich beschrifteten Felder seines Tableaus.",
  setup_step_stones: "Startsteine",
  setup_stones_intro: "Legt die Erntesteine als allgemeinen Vorrat bereit. Jeder Spieler nimmt {n} Steine hinter seinen Sichtschirm: welche, zeigt seine private Seite (QR-Code scannen, für sich behalten).",
  setup_supply: "Danach liegen {n} Steine im Vorrat.",
  setup_step_office: "Das Grundbuchamt",
  setup_office_intro: "Legt diese sechs Plättchen aus dem digitalen Beutel mit der unabgeernteten Seite nach oben auf die sechs Felder des Grundbuchamts:",
  setup_step_events: "Ereignisse und Beutel",
  setup_events_removed: "Legt {n} Ereignisplättchen verdeckt und ungesehen zurück in die Schachtel: der Companion hat {n} Ereignisse zufällig entfernt und zeigt erst am Ende, welche. Die anderen {left} sind im Beutel.",
  setup_events_all: "Alle {n} Ereignisplättchen sind im Beutel: legt sie sortiert neben das Stadttableau.",
  setup_bag_now: "Im Beutel sind jetzt {fields} Feldplättchen und {events} Ereignisse.",
  setup_bag_note: "Wenn der Companion zieht, nennt er das Plättchen: nehmt dieses Teil aus der Schachtel.",
  setup_step_ready: "Fertig",
  setup_ready: "Alles liegt bereit. {name} beginnt: geht zum Spieltisch und tippt die erste Aktion.",
  pieces: {
    town_board: "das Stadttableau ({n})",
    townsfolk: "die {n} Städter G–L auf dem Stadttableau",
    field_tiles: "die {n} Feldplättchen, nach Beschriftung sortiert",
    event_tiles: "die {n} Ereignisplättchen M–Z, nach Buchstaben sortiert",
    stones: "die {n} Erntesteine (12 je Sorte) als allgemeiner Vorrat",
    estate_board: "ein Gebietstableau",
    screen: "einen Sichtschirm",
    warehouse_card: "eine Lagerkarte (über das Tableau)",
    summary_card: "eine Übersichtskarte",
    labourers: "die {n} Landarbeiter A–F seiner Farbe, neben das Tableau",
  },

  // bag
  bag_labels_summary: "Welche Feldplättchen noch im Beutel sind",
  bag_out_heading: "Aus dem Beutel",
  bag_out_fields: "{n} Feldplättchen (mit Startplättchen):",
  bag_out_events: "Gezogene Ereignisse: {events}",
  bag_order_note: "Die Reihenfolge im Beutel zeigt der Companion nie.",

  // scoring screen
  tiebreak_heading: "Gleichstände",
  tiebreak_tiles: "Plättchen auf dem Tableau",
  tiebreak_tiles_workers: "Plättchen und Arbeiter auf dem Tableau",
  tiebreak_by_tiles: "{names} haben gleich viele Punkte ({points}): mehr {what} entscheiden ({counts}).",
  tiebreak_then_stones: "Danach entscheiden mehr übrige Steine ({counts}).",
  tiebreak_by_stones: "{names} haben {points} Punkte und {n} {what}: mehr übrige Steine entscheiden ({counts}).",
  tiebreak_shared: "{names} sind bei {points} Punkten, Plättchen und Steinen gleich: sie teilen sich den Platz.",
  tiebreak_none: "Kein Gleichstand: keine Entscheidung nötig.",
  chart_label: "Balkendiagramm der Punkte",
  chart_caption: "Jeder Balken: Arbeiter, größte Gruppe, zweite Gruppe ×2, Mehrheiten.",
  stones_form_heading: "Steine hinter den Sichtschirmen",
  stones_form_note: "Falls der Companion eure Steine nicht mitgezählt hat (ein Stein aus Versehen genommen oder gezahlt), tragt ein, was wirklich hinter jedem Schirm liegt: die Wertung wird neu gezählt. Das gespeicherte Spiel ändert sich nicht.",
  stones_form_submit: "Mit diesen Steinen werten",
  score_rescored_note: "Gewertet mit den eingetragenen Steinen.",
  score_back_to_tracked: "Zurück zur Zählung des Companions",

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
  flow_verbs: {
    harvest: "Ernten", play: "Arbeiter einsetzen", remove: "Arbeiter zurücknehmen",
    buy: "Aus einem Lager kaufen", bid: "Vom Grundbuchamt: bieten", end: "Zug beenden",
    add: "Steine zum Gebot legen", pay: "Einen Stein zahlen", gain: "Stein aus dem Vorrat nehmen", take: "Nehmen",
    flip: "Zurückdrehen", fallow: "Auf die Brache", seize: "Plättchen beschlagnahmen", reuse: "Arbeiter erneut nutzen",
    bonus: "Arbeiter neu einsetzen", give: "Plättchen schenken", swap: "Plättchen tauschen", move: "Arbeiter versetzen",
    trade: "Handeln", dip: "Glücksgriff", keep: "Behalten", discard: "Abwerfen", forward: "Weitergeben",
    done: "Fertig", decline: "Verzichten",
  },
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
