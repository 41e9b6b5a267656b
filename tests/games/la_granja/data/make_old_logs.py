"""Generate La Granja logs in the notation of commit e3b31c2 (before issue 10), for the upgrade_log tests.

Run once at that commit; kept for provenance (later code writes the new notation)."""
import json, random, tempfile, subprocess
from pathlib import Path
from companion.session import Session
from companion.store import GameStore

OUT = Path("tests/games/la_granja/data/old-logs.json")
commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
cases = [
    (["Ana"], {}, 11, None),
    (["Ana", "Ben"], {}, 12, None),
    (["Ana", "Ben", "Cleo"], {"extra_purchase": "one_at_a_time", "pig_overflow": "forbid"}, 13, None),
    (["Ana", "Ben", "Cleo", "Dan"], {}, 14, None),
    (["Ana", "Ben", "Cleo"], {}, 15, 200),  # a game cut short mid-play: the upgraded log must play on
]
games = []
with tempfile.TemporaryDirectory() as tmp:
    store = GameStore(Path(tmp) / "g.db")
    for players, options, seed, stop in cases:
        s = Session.new(store, "la-granja", players, options, seed=f"old-log-{seed}")
        rng = random.Random(seed)
        while not s.is_over and (stop is None or len(s.history) < stop):
            legal = s.game.legal_moves(s.state)
            # prefer not to loop on anytime moves forever
            s.play(rng.choice(legal))
        game = s.game
        games.append({
            "players": players, "options": dict(s.options), "seed": f"old-log-{seed}",
            "edition": game.edition(),
            "moves": [[text, chance] for _, text, chance in store.moves(s.id)],
            "over": s.is_over,
            "final": [{"goods": p.goods, "trade": p.trade, "fields": [list(f) for f in p.fields], "carts": [c for c, _ in p.carts], "rows": [[k, r, list(f)] for k, r, f in p.rows], "hand": list(p.hand), "roofs": [list(x) for x in p.roofs]} for p in s.state.players],
            "score": [{"name": r["name"], "vp": r["vp"], "total": r["total"], "silver": r["silver"], "ledger": r["ledger"]}
                      for r in game.score(s.state)],
        })
        print(players, len(games[-1]["moves"]), s.is_over)
OUT.write_text(json.dumps({"note": f"La Granja logs written by commit {commit} (the notation before issue 10: "
                           "sequential 'donkey N', one-good 'take', one-good 'deliver'...). Random seeded games "
                           "played through companion.session.Session; tests/games/la_granja/test_upgrade_log.py "
                           "replays them.", "games": games}, indent=None, separators=(",", ":")) + "\n")
