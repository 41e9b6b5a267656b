"""The ``companion`` command: score a table snapshot, run seeded random playouts.

Errors the user can fix (a malformed file, a bad option, an unknown game) end with exit
status 2 and one line ``companion: error: <reason>`` on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.core.boards import BoardReader
from companion.core.datapack import parse_json
from companion.core.errors import CompanionError, IllegalMoveError, MalformedInputError, UnknownGameError, UnsupportedError
from companion.core.game import Game
from companion.core.messages import LANGUAGES, Text, language_of, render
from companion.core.options import Options
from companion.core.rng import new_seed
from companion.paths import install_json

if TYPE_CHECKING:
    from companion.codes.registry import CodeRegistry
    from companion.vision.detection import Detection
    from companion.vision.printed import PrintedBoardReader

PROG = "companion"
EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2


Extension = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], None]
"""Adds subcommands to the parser (the core knows nothing of the web service)."""


def build_parser(*extensions: Extension) -> argparse.ArgumentParser:
    """The argument parser with every subcommand, plus those the ``extensions`` add."""
    parser = argparse.ArgumentParser(prog=PROG, description="Keydom Companion: rules, randomness and scoring.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    score = commands.add_parser("score", help="score a table snapshot (JSON)", description="Score a table snapshot.")
    score.add_argument("game", help="the game, e.g. key-harvest")
    score.add_argument("file", help="the snapshot JSON file, or - for standard input")
    score.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="a variant flag (repeatable)"
    )
    _add_data_file(score, "the game's data pack (e.g. a transcribed board layout) instead of the one installed")
    score.set_defaults(handler=_cmd_score)

    sim = commands.add_parser(
        "simulate", help="seeded random playouts with every check", description="Play and check random games."
    )
    sim.add_argument("game", help="the game, e.g. key-harvest")
    sim.add_argument("--players", type=int, metavar="N", help="seats per game (default: the game's minimum)")
    sim.add_argument("--games", type=int, default=10, metavar="K", help="how many games (default 10)")
    sim.add_argument("--seed", metavar="S", help="the run's seed (default: a fresh one, shown in the summary)")
    sim.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a variant flag (repeatable)")
    sim.add_argument("--max-moves", type=int, default=None, metavar="M", help="give up on a game after M moves")
    sim.add_argument("--json", action="store_true", help="print the summary as JSON")
    sim.set_defaults(handler=_cmd_simulate)

    play = commands.add_parser(
        "play", help="play at a terminal table (games are saved as you go)", description="Play a stored game."
    )
    play.add_argument("game", nargs="?", help="the game, e.g. la-granja (default: the registry's first game)")
    play.add_argument("--players", metavar="NAMES", help="comma-separated names in seat order, e.g. Alice,Bob,Cara")
    play.add_argument("--resume", metavar="ID", help="continue a stored game")
    play.add_argument("--list", action="store_true", help="list the stored games and exit")
    play.add_argument("--delete", metavar="ID", help="delete a stored game and exit")
    play.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a variant flag (repeatable)")
    play.add_argument("--data", metavar="DIR", help="where games are stored (default: your user data folder)")
    play.add_argument("--lang", choices=LANGUAGES, help="the language of the table's text (default: from LANG)")
    play.set_defaults(handler=_cmd_play)

    data = commands.add_parser(
        "data", help="show, check, export or install a game's printed data (its data pack)",
        description="Without FILE: which data pack is in use and what is provisional. With FILE: check it; "
                    "with --install, new games use it. --template prints the pack (in use, or FILE's) to edit.",
    )
    data.add_argument("game", help="the game, e.g. la-granja or key-harvest")
    data.add_argument("file", nargs="?", help="a data pack JSON file (docs/la-granja-data.md, docs/key-harvest-layout.md)")
    data.add_argument("--install", action="store_true", help="check FILE and install it in the user data folder")
    data.add_argument("--template", action="store_true", help="print the data pack as JSON")
    data.set_defaults(handler=_cmd_data)
    _add_camera_commands(commands)

    stickers = commands.add_parser(
        "stickers", help="print a game's code stickers at true size (PDF, or PNG files)",
        description="Write printable code stickers: a PDF of A4/Letter pages, or one PNG per code plus stickers.json.",
    )
    stickers.add_argument("game", help="the game, e.g. key-harvest")
    stickers.add_argument("--out", required=True, metavar="PATH", help="the PDF file, or the folder for --format png")
    stickers.add_argument("--paper", choices=("a4", "letter"), default="a4", help="PDF paper size (default a4)")
    stickers.add_argument("--format", choices=("pdf", "png"), default="pdf", help="pdf (default) or png")
    stickers.set_defaults(handler=_cmd_stickers)

    for extend in extensions:  # commands of outer layers, e.g. web.cli adds "serve"
        extend(commands)
    return parser


def main(argv: Sequence[str] | None = None, *extensions: Extension) -> int:
    """Run the command line; return the exit status."""
    parser = build_parser(*extensions)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, or a usage error argparse has already reported
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    try:
        return int(args.handler(args))
    except CompanionError as exc:
        _error(_error_text(exc, _language(args)))
        return EXIT_USAGE


def _language(args: argparse.Namespace) -> str:
    """``--lang``, else the environment's language (``LC_ALL``, ``LANG``), else English."""
    chosen = getattr(args, "lang", None)
    return language_of(chosen or os.environ.get("LC_ALL") or os.environ.get("LANG"))


def _error_text(error: CompanionError, language: str) -> str:
    """What an error line says, in ``language`` (a refusal with its move and rule, as the terminal shows it)."""
    if isinstance(error, IllegalMoveError):
        from companion.console import refusal_text

        return refusal_text(error, language)
    return render(error.text, language)


def _cmd_score(args: argparse.Namespace) -> int:
    game = _game(args.game, "score", args)
    result = game.score_snapshot(_read_json(args.file), Options.parse_pairs(args.option))
    language = _language(args)
    if "warnings" in result:  # in the reader's language, in the JSON as on stderr
        result["warnings"] = [render(warning, language) for warning in result["warnings"]]
    print(json.dumps(result, indent=2, default=lambda text: render(text, language)))  # messages (a harvest's reasons)
    for warning in result.get("warnings", []):
        _warn(warning)
    return EXIT_OK


def _add_data_file(command: argparse.ArgumentParser, help_text: str) -> None:
    """``--data FILE``, and ``--layout FILE``, its older spelling."""
    given = command.add_mutually_exclusive_group()
    given.add_argument("--data", metavar="FILE", help=help_text)
    given.add_argument("--layout", metavar="FILE", help="the same as --data")


def _game(name: str, command: str, args: argparse.Namespace) -> Game[Any, Any]:
    """The game ``name`` on the data file given (``--data``/``--layout``), else on the data new games use."""
    from companion.games import find_game, games
    from companion.paths import default_data_dir

    try:
        game = find_game(name)
    except UnknownGameError:
        known = ", ".join(g.name for g in games())
        raise UnknownGameError(f"unknown game {name!r} for {command}; known: {known}") from None
    if args.data is not None:
        return game.with_data(_read_json(args.data, "data pack "))
    if args.layout is not None:
        return game.with_data(_read_json(args.layout, "layout "))
    return game.with_installed_data(default_data_dir())


def _boards(game: Game[Any, Any], command: str) -> BoardReader:
    """The game's board reader; ``UnsupportedError`` naming the games that have one."""
    from companion.games import games

    boards = game.board_reader()
    if boards is None:
        readable = ", ".join(g.name for g in games() if g.board_reader() is not None)
        raise UnsupportedError(f"{command}: {game.title} boards are not read from code stickers "
                               f"(games whose boards are: {readable or 'none'})")
    return boards


def _first_readable() -> Game[Any, Any]:
    """The first registered game whose boards are read from code stickers (``scan``'s default)."""
    from companion.games import games

    for game in games():
        if game.board_reader() is not None:
            return game
    raise UnsupportedError("no game's boards are read from code stickers")


def _cmd_simulate(args: argparse.Namespace) -> int:
    from companion.games import find_game
    from companion.simulate import DEFAULT_MAX_MOVES, simulate

    try:
        game = find_game(args.game)
    except ImportError as exc:  # a game module that is not written yet
        raise UnknownGameError(f"cannot load the games: {exc}") from None
    result = simulate(
        game,
        players=args.players if args.players is not None else game.min_players,
        games=args.games,
        seed=args.seed if args.seed is not None else new_seed(),
        options=Options.parse_pairs(args.option),
        max_moves=args.max_moves if args.max_moves is not None else DEFAULT_MAX_MOVES,
    )
    print(json.dumps(result.to_dict(), indent=2) if args.json else result.summary())
    for warning in game.data_warnings():
        _warn(warning)
    return EXIT_OK if result.ok else EXIT_FAILED


def _cmd_play(args: argparse.Namespace) -> int:
    from companion.console import console
    from companion.games import default_game
    from companion.paths import default_db_path
    from companion.session import Session
    from companion.salvage import open_store

    db = Path(args.data) / "games.sqlite3" if args.data else default_db_path()
    db.parent.mkdir(parents=True, exist_ok=True)
    opened, health = open_store(db)  # a damaged store says so and keeps the rest (docs/store.md)
    if not health.ok:
        _warn(f"the game store needs attention: {health.reason}")
    with opened as store:
        if args.list:
            for record in store.list():
                print(f"{record.id}  {record.game}  {record.status:8}  {', '.join(record.players)}  {record.updated}")
            for damaged in (*health.damaged, *store.damaged()):
                print(f"{damaged.id}  damaged: {damaged.reason}")
            return EXIT_OK
        if args.delete:
            store.get(args.delete)
            store.delete(args.delete)
            print(f"deleted {args.delete}")
            return EXIT_OK
        if args.resume:
            session = Session.open(store, args.resume)
        else:
            names = args.players
            if names is None:
                print("Players in seat order, comma-separated (e.g. Alice,Bob,Cara): ", end="", flush=True)
                names = sys.stdin.readline()
            players = [name.strip() for name in names.split(",") if name.strip()]
            game = args.game if args.game is not None else default_game().name
            session = Session.new(store, game, players, Options.parse_pairs(args.option))
            print(f"New game {session.id} stored in {db}")
        console(store, session, iter(sys.stdin.readline, ""), sys.stdout, _language(args))
    return EXIT_OK


def _cmd_data(args: argparse.Namespace) -> int:
    from companion.games import find_game
    from companion.paths import default_data_dir

    game = find_game(args.game)
    pack = game.data_pack()
    if pack is None:
        raise UnknownGameError(f"{game.title} has no printed data (no data pack)")
    if args.file is not None:
        raw, where = pack.read(_read_json(args.file)), args.file
        pack.load(raw)
    elif args.install:
        raise MalformedInputError("--install needs a data pack FILE")
    else:
        use = pack.in_use(default_data_dir())
        if use.converted:
            _warn(use.converted)
        if use.damaged:
            _warn(f"the installed data cannot be used, new games are refused until it is fixed or replaced: "
                  f"{use.damaged}")
        raw, where = use.raw, str(use.path or "the shipped default")
    if args.template:
        print(json.dumps(raw, indent=1, ensure_ascii=False))
        return EXIT_OK
    provisional = pack.provisional(raw)
    state = f"PROVISIONAL: {', '.join(provisional)}" if provisional else "transcribed"
    print(f"{pack.title} data {raw.get('name', 'unnamed')!r} from {where}: {state}")
    if raw.get("note"):
        print(raw["note"])
    if args.install:
        print(f"installed as {pack.install(raw, default_data_dir())}; new games use it")
    return EXIT_OK


def _add_camera_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``scan`` and ``calibrate``: read stickers, a board or a game's data off photos (docs/camera.md)."""
    scan = commands.add_parser(
        "scan", help="read the code stickers on photos, or each photo's board as a snapshot",
        description="List the stickers on photos, or (--board) read one player's board per photo as a snapshot.")
    scan.add_argument("images", nargs="+", metavar="IMAGE", help="a photo (with --board: one per player, in seat order)")
    scan.add_argument("--game", help="the game, e.g. key-harvest (default: the first game whose boards are read)")
    scan.add_argument("--board", action="store_true", help="print the snapshot that `companion score` scores")
    scan.add_argument("--players", metavar="NAMES", help="comma-separated names in seat order (default Player 1, ...)")
    scan.add_argument("--hidden", "--stones", action="append", default=[], metavar="NAME:...",
                      help="what a camera cannot see on a player's board, e.g. Key Harvest's stones behind the "
                           "screen: Alice:wheat=3,wine=2 (repeatable)")
    scan.add_argument("--given", metavar="KEY=VALUE,...", help="what a camera cannot see that belongs to the whole "
                                                              "table, e.g. Key Market's season=spring,square=fish,round=veg")
    _add_data_file(scan, "the game's data pack, e.g. the layout giving each label's crop (default: yours)")
    scan.add_argument("--table", action="store_true",
                      help="one photo of the whole table: every board (given to its player), the land office and "
                           "the event track, as the snapshot that `companion score` scores")
    scan.add_argument("--json", action="store_true", help="print the stickers as JSON")
    scan.set_defaults(handler=_cmd_scan)

    calibrate = commands.add_parser(
        "calibrate", help="record a game's board data (e.g. the layout) from a photo of a full board",
        description="Measure a game's data pack (Key Harvest: where every labelled space is) from one photo of a "
                    "board with all its tiles on it.")
    calibrate.add_argument("game", help="the game, e.g. key-harvest")
    calibrate.add_argument("image", metavar="IMAGE", help="the photo")
    calibrate.add_argument("--install", action="store_true", help="new games use the recorded data from now on")
    calibrate.set_defaults(handler=_cmd_calibrate, data=None, layout=None)


def _cmd_scan(args: argparse.Namespace) -> int:
    from companion.codes import load_registry
    from companion.games import games
    from companion.vision.board import second_look
    from companion.vision.printed import PrintedBoardReader
    from companion.vision.reader import read_codes
    from companion.vision.sources import read_image

    game = _game(args.game if args.game is not None else _first_readable().name, "scan", args)
    boards = _boards(game, "scan --board") if args.board else None
    registry = load_registry(game, *(g for g in games() if g.name != game.name))  # other games' stickers: named
    if not registry.for_game(game.name):
        raise UnknownGameError(f"unknown game {args.game!r} for scan: {game.title} has no code stickers")
    if args.table:
        return _scan_table(args, game, registry)
    images = [(path, read_image(path)) for path in args.images]
    photos = [(path, read_codes(image, registry)) for path, image in images]
    if boards is None:
        listing = [{"image": path, "codes": [{"code": d.code, "center": [round(c, 1) for c in d.center]}
                                             for d in found]} for path, found in photos]
        if args.json:
            print(json.dumps(listing, indent=2))
        for photo in listing:
            if not args.json:
                print(f"{photo['image']}: {len(photo['codes'])} stickers")
                for code in photo["codes"]:
                    print(f"  {code['code']:<14} at ({code['center'][0]:.0f}, {code['center'][1]:.0f})")
        return EXIT_OK
    if isinstance(boards, PrintedBoardReader) and boards.whole_table:
        return _scan_territory(args, boards, images, photos, registry)
    if args.given:
        raise MalformedInputError(f"scan --given: {game.title} takes nothing for the whole table")
    names = [n.strip() for n in args.players.split(",")] if args.players else [f"Player {i + 1}" for i in range(len(photos))]
    if len(names) != len(photos):
        raise MalformedInputError(f"--players names {len(names)} players for {len(photos)} photos (one photo per board)")
    hidden = _hidden(boards, args.hidden, names)
    players = []
    for (path, image), (_, found), name in zip(images, photos, names):
        read, _ = second_look(image, found, registry, boards, read_codes)
        if read.conflicts:
            raise MalformedInputError(f"{path}: " + "; ".join(render(c.message) for c in read.conflicts))
        for detection, reason in read.others:
            _warn(f"{path}: {detection.code} not placed: {reason}")
        players.append(boards.player(name, read, hidden.get(name)))
    print(json.dumps(boards.snapshot(players), indent=2))
    if len(players) == 1:
        _warn("one board alone: give one photo per player (--players A,B,...) to score the whole table")
    unknown = [name for name in names if name not in hidden]
    if unknown:
        _warn(f"no {boards.hidden_name} given for {', '.join(unknown)}: {boards.hidden_note}")
    return EXIT_OK


def _scan_territory(args: argparse.Namespace, boards: PrintedBoardReader, images: Sequence[tuple[str, Any]],
                    photos: Sequence[tuple[str, list[Detection]]], registry: CodeRegistry) -> int:
    """``scan --board`` of a game whose one photo shows the whole table (Key Market's territory)."""
    from companion.vision.board import second_look
    from companion.vision.reader import read_codes

    if len(photos) != 1:
        raise MalformedInputError(f"scan --board: {boards.game} is read from one photo of the whole table, "
                                  f"not {len(photos)}")
    if not args.players:
        raise MalformedInputError(f"scan --board: name the players in seat order (--players A,B,...): seat n plays "
                                  f"{boards.game}'s sticker set n")
    names = [n.strip() for n in args.players.split(",")]
    hidden = _hidden(boards, args.hidden, names)
    given = boards.parse_table(args.given) if args.given else {}
    (path, image), (_, found) = images[0], photos[0]
    read, _ = second_look(image, found, registry, boards, read_codes)
    if read.conflicts:
        raise MalformedInputError(f"{path}: " + "; ".join(render(c.message) for c in read.conflicts))
    for detection, reason in read.others:
        _warn(f"{path}: {detection.code} not placed: {reason}")
    print(json.dumps(boards.table(names, read, hidden, given), indent=2))
    unknown = [name for name in names if name not in hidden]
    if unknown:
        _warn(f"no {boards.hidden_name} given for {', '.join(unknown)}: {boards.hidden_note}")
    return EXIT_OK


def _scan_table(args: argparse.Namespace, game: Game[Any, Any], registry: Any) -> int:
    """``scan PHOTO --table``: the whole table in one photo as a snapshot (docs/camera.md, "The whole table")."""
    from companion.vision.reader import CodeReader
    from companion.vision.sources import read_image
    from companion.vision.table import table_reader

    table = table_reader(_boards(game, "scan --table"))
    if len(args.images) != 1 or args.board:
        raise MalformedInputError("scan --table reads one photo of the whole table (not with --board)")
    path = args.images[0]
    image = read_image(path)
    reader = CodeReader(registry)
    detections = reader.read(image).detections
    read = table.read(image, detections, registry, reader,
                      len(args.players.split(",")) if args.players else None)
    count = max(len(read.boards), 1)
    names = [n.strip() for n in args.players.split(",")] if args.players else [f"Player {i + 1}" for i in range(count)]
    hidden = _hidden(table.boards, args.hidden, names)
    conflicts = [c for board in read.boards for c in board.read.conflicts]
    if conflicts:
        raise MalformedInputError(f"{path}: " + "; ".join(render(c.message) for c in conflicts))
    for seen in read.boards:
        if seen.seat is None:
            _warn(f"{path}: a board of {len(seen.read.pieces)} pieces has no player (more boards than players)")
        for detection, reason in seen.read.others:
            _warn(f"{path}: {detection.code} not placed: {reason}")
    for detection, reason in read.others:
        _warn(f"{path}: {detection.code} not placed: {reason}")
    print(json.dumps(table.snapshot(read, registry, names, hidden), indent=2))
    for seat, name in enumerate(names):
        board = read.board_of(seat)
        if board is None:
            _warn(f"no board seen for {name}: left empty")
        else:
            _warn(f"{name}: board of {len(board.read.tiles)} tiles and {len(board.read.workers)} workers, "
                  f"given by {'the workers on it' if board.by == 'workers' else 'where it lies'}")
    unknown = [name for name in names if name not in hidden]
    if unknown:
        _warn(f"no {table.boards.hidden_name} given for {', '.join(unknown)}: {table.boards.hidden_note}")
    return EXIT_OK


def _hidden(boards: BoardReader, given: Sequence[str], names: Sequence[str]) -> dict[str, dict[str, Any]]:
    """``--hidden Alice:wheat=3,wine=2`` as ``{"Alice": {"wheat": 3, "wine": 2}}`` (the game reads the counts)."""
    hidden: dict[str, dict[str, Any]] = {}
    for text in given:
        name, _, counts = text.partition(":")
        if name.strip() not in names:
            raise MalformedInputError(f"--hidden {text!r}: {name.strip()!r} is not one of {', '.join(names)}")
        try:
            hidden[name.strip()] = boards.parse_hidden(counts)
        except MalformedInputError as exc:
            raise MalformedInputError(f"--hidden {text!r}: {exc}") from None
    return hidden


def _cmd_calibrate(args: argparse.Namespace) -> int:
    from companion.codes import load_registry
    from companion.paths import default_data_dir
    from companion.vision.board import read_board_photo
    from companion.vision.sources import read_image

    game = _game(args.game, "calibrate", args)
    boards = _boards(game, "calibrate")
    read, _ = read_board_photo(read_image(args.image), load_registry(game), boards)
    calibration = boards.calibrate(read, source=args.image)
    print(calibration.summary, file=sys.stderr)
    for warning in calibration.warnings:
        _warn(warning)
    if args.install:
        path = game.install_data(calibration.data, default_data_dir())
        print(f"installed as {path}; new games use it")
    else:
        print(json.dumps(calibration.data, indent=1))
    return EXIT_OK


def _cmd_stickers(args: argparse.Namespace) -> int:
    from companion.codes import load_registry
    from companion.codes.stickers import sheet, write_pdf, write_pngs

    registry = load_registry()
    components = registry.for_game(args.game.strip().lower())
    if not components:
        games = sorted({c.game for c in registry})
        raise UnknownGameError(f"no stickers for game {args.game!r}; known: {', '.join(games)}")
    out = Path(args.out)
    try:
        if args.format == "png":
            index = write_pngs(registry, components, out)
            print(f"{len(components)} stickers written to {out}/ (index {index.name})")
        else:
            printed = sheet(registry, components, args.paper)
            write_pdf(printed, out)
            print(f"{len(components)} stickers on {len(printed.pages)} {args.paper} pages written to {out}")
    except OSError as exc:
        raise MalformedInputError(f"cannot write {out}: {exc.strerror or exc}") from None
    if any(c.provisional for c in components):
        _warn(f"sticker sizes for {args.game} are provisional ({components[0].sticker_mm:g} mm); "
              "measure your tiles first (docs/stickers.md)")
    return EXIT_OK


def _read_json(path: str, what: str = "") -> Any:
    """Parse the JSON in file ``path`` (``-``: standard input); ``what`` names the file in errors."""
    name = "standard input" if path == "-" else what + path
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as exc:
        raise MalformedInputError(f"cannot read {name}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise MalformedInputError(f"{name} is not UTF-8 text") from None
    return parse_json(text, name)


def _error(reason: str) -> None:
    print(f"{PROG}: error: {_one_line(reason)}", file=sys.stderr)


def _warn(reason: Text) -> None:
    print(f"{PROG}: warning: {_one_line(render(reason))}", file=sys.stderr)


def _one_line(text: str) -> str:
    return " ".join(text.split())


if __name__ == "__main__":
    sys.exit(main())
