"""The logs of old-logs-200.json.gz: run at commit e3b31c2 as ``python make_more_old_logs.py 200 out.json`` (kept for provenance)."""
import json, random, sys, tempfile
from pathlib import Path
from companion.session import Session
from companion.store import GameStore
games = []
opts = [{}, {"extra_purchase": "one_at_a_time"}, {"pig_overflow": "forbid", "lock_removal": "completions"}, {"marker_limit": "off"}, {"solo_third_space": "3"}]
with tempfile.TemporaryDirectory() as tmp:
    store = GameStore(Path(tmp) / "g.db")
    for seed in range(int(sys.argv[1])):
        players = ["A", "B", "C", "D"][: 1 + seed % 4]
        options = opts[seed % len(opts)]
        s = Session.new(store, "la-granja", players, options, seed=f"s{seed}")
        rng = random.Random(seed)
        stop = None if seed % 3 else rng.randrange(50, 500)
        while not s.is_over and (stop is None or len(s.history) < stop):
            s.play(rng.choice(s.game.legal_moves(s.state)))
        games.append({"players": players, "options": dict(s.options), "edition": s.game.edition(),
                      "moves": [[t, c] for _, t, c in store.moves(s.id)], "over": s.is_over,
                      "vp": [p.vp for p in s.state.players], "silver": [p.silver for p in s.state.players],
                      "goods": [p.goods for p in s.state.players], "stack": [[t.kind, t.player, t.n] for t in s.state.stack]})
Path(sys.argv[2]).write_text(json.dumps(games))
