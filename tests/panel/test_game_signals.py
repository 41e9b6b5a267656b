"""The panel finds each game's own lights through ``Game.panel_signals`` (issues 14 and 15): Keyper's followers blink,
Key Market's weather goods light the indicators, DRAW makes the draws a season starts with, and a secret choice made
at once never reaches a shared panel."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from companion.core.game import CHANCE, SIMULTANEOUS, TERMINAL
from companion.core.messages import json_default
from companion.games.key_market import rules as km_rules
from companion.games.key_market.panel import GOOD_COLOURS
from companion.session import Session
from companion.store import GameStore
from firmware_bridge.commands import Button, CommandRefused, chance_kind, press
from firmware_bridge.config import PanelConfig
from firmware_bridge.controller import PanelController
from firmware_bridge.lights import DIM, Lights, lights_for, parse_colour, scale
from firmware_bridge.panel import GpioPanel, SimulatedPanel
from tests.panel.test_gpio import rgb, wait_for

COLOURS = ["#ff0000", "#00ff00", "#0000ff"]
RED, GREEN, BLUE = (255, 0, 0), (0, 255, 0), (0, 0, 255)
PLAYERS = ["Alice", "Bob", "Cara"]


def new(store: GameStore, game: str, seed: str = "signals") -> Session:
    """A 3-player game that waits for DRAW (auto_chance off)."""
    return Session.new(store, game, PLAYERS, auto_chance=False, seed=seed, colours=COLOURS)


def drive(session: Session, until: Callable[[Session], bool], seed: int = 1) -> None:
    """Random legal moves, DRAW or ROLL at each chance step, until ``until(session)``."""
    rng = random.Random(seed)
    for _ in range(5000):
        if until(session):
            return
        game, state = session.game, session.state
        who = game.current_player(state)
        assert who != TERMINAL, "the game ended first"
        if who == CHANCE:
            press(session, chance_kind(game, state), rng=rng)
        else:
            session.play(rng.choice(game.legal_moves(state)))
    raise AssertionError("never reached")


def twin(store: GameStore, session: Session) -> Session:
    """A second session with the same log so far."""
    other = new(store, session.game.name)
    for move in session.history:
        other.play(str(move))
    return other


def shared(control: PanelController) -> str:
    """Everything a shared panel shows (its lights, message and OK's move), as the stream sends it."""
    state = control.state()
    state.pop("game")
    return json.dumps(state, default=json_default, sort_keys=True)


def samples(read: Callable[[], Any], seconds: float = 1.3) -> set[Any]:
    """What ``read()`` gives over ``seconds`` (a blink shows both of its colours)."""
    seen = set()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        seen.add(read())
        time.sleep(0.02)
    return seen


# ------------------------------------------------------------------ Keyper


def following(session: Session) -> bool:
    return bool(session.game.panel_signals(session.state).waiting)


def test_keyper_followers_light_up_and_next_passes_the_offer(store: GameStore, mock_factory: MockFactory,
                                                             config: PanelConfig) -> None:
    """Spec 4.3: the follower asked now is bright, those who may be asked after them blink, the others are dim;
    NEXT passes the offer and the next follower is asked."""
    session = new(store, "keyper")
    drive(session, following)
    state = session.state
    asked = session.game.current_player(state)
    waiting = session.game.panel_signals(state).waiting
    placer = next(t.seat for t in state.tasks if t.kind == "resolve")
    assert state.top.kind == "follow" and asked not in waiting and placer not in (asked, *waiting)
    colours = [parse_colour(c) for c in COLOURS]
    lights = lights_for(session)
    assert lights.waiting == waiting and lights.seats[asked] == colours[asked]
    assert lights.seats[placer] == scale(colours[placer], DIM)
    with GpioPanel(config.gpio, hold_seconds=0.5) as gpio:
        control = PanelController([gpio])
        control.follow(session)
        seats = config.gpio.seats
        assert rgb(mock_factory, seats[asked]) == colours[asked]  # bright, steady
        blink = samples(lambda: rgb(mock_factory, seats[waiting[0]]))
        assert {colours[waiting[0]], scale(colours[waiting[0]], DIM)} <= blink  # both halves of the blink
        assert samples(lambda: rgb(mock_factory, seats[placer]), 0.3) == {scale(colours[placer], DIM)}
        assert control.state()["lights"]["waiting"] == list(waiting)
        result = control.press("NEXT")
        assert result["ok"], result
        assert str(session.history[-1]) == "pass"
        now = session.game.current_player(session.state)
        assert now == waiting[0]  # the next follower is asked: bright, no longer blinking
        assert wait_for(lambda: samples(lambda: rgb(mock_factory, seats[now]), 0.6) == {colours[now]})
        control.close()


def test_keyper_draw_refills_the_display_at_season_start(store: GameStore) -> None:
    """Spec 3.2: DRAW at the start of summer draws the 8 country tiles of the display (and the season's boats) in
    one press, naming each; then every seat folds its board in secret, which the panel cannot choose or show."""
    session = new(store, "keyper")
    drive(session, lambda s: s.state.season == 1 and s.game.current_player(s.state) == CHANCE)
    assert session.state.top.kind == "draw"
    panel = SimulatedPanel()
    control = PanelController([panel])
    control.follow(session)
    assert panel.lights.status == "draw"
    before, display = len(session.history), len(session.state.display)
    result = control.press("DRAW")
    made = [str(m) for m in session.history[before:]]
    draws = [m for m in made if m.startswith("draw ")]
    assert result["ok"] and len(draws) == 8 - display and made[-1].startswith("boats ")
    assert len(session.state.display) == 8
    assert result["text"].count("Draw ") == len(draws)  # each tile named, in words
    assert session.game.current_player(session.state) == SIMULTANEOUS and panel.lights.status == "ready"
    assert set(panel.lights.seats) == {parse_colour(c) for c in COLOURS}  # all three fold: all bright
    fold = next(m for m in session.game.legal_moves(session.state) if str(m).startswith("fold 1 "))
    with pytest.raises(CommandRefused, match="secret"):
        control.choose(str(fold))
    assert control.state()["choice"] is None
    control.choose(None)  # the DRAW's message cleared: the twin's panel pressed nothing
    other = twin(store, session)
    control_twin = PanelController([SimulatedPanel()])
    control_twin.follow(other)
    folds = [m for m in session.game.legal_moves(session.state) if str(m).startswith("fold 1 ")]
    assert len(folds) >= 2
    session.play(folds[0], seat=0)
    other.play(folds[1], seat=0)
    assert shared(control) == shared(control_twin)  # the panel shows that Alice folded, not how
    assert control.state()["lights"]["seats"][0] == "#" + "%02x%02x%02x" % scale(RED, DIM)
    control.close()
    control_twin.close()


# ------------------------------------------------------------------ Key Market


def test_key_market_draw_makes_the_setup_and_the_year_two_weather(store: GameStore) -> None:
    """Spec 2.3 and S2: one DRAW makes the setup's chance steps up to the first decision (weather markers, turn
    order, farmhouse tiles, the first board dealt); at the end of a season of year 1 DRAW turns up year 2's pair."""
    session = new(store, "key-market")
    control = PanelController([SimulatedPanel()])
    control.follow(session)
    result = control.press("DRAW")
    assert result["ok"]
    assert [str(m).split()[0] for m in session.history] == ["weather", "order", "farmhouses", "deal"]
    assert session.state.stage == "place"
    drive(session, lambda s: s.state.stage == "reveal")
    pairs = len(session.state.weather)
    assert control.lights.status == "draw"
    result = control.press("DRAW")
    assert result["ok"] and str(session.history[-1]).startswith("reveal ")
    assert len(session.state.weather) == pairs + 1
    control.close()


def test_key_market_indicators_show_the_goods_the_weather_favours_and_spoils(
        store: GameStore, mock_factory: MockFactory, config: PanelConfig) -> None:
    """Spec 3.4 (L301-L311): in Spring the round marker's good is favoured (3 on round fields), the square marker's
    spoiled (0 on square fields); the two indicator LEDs show them in the good's colour; Winter shows none."""
    session = new(store, "key-market")
    with GpioPanel(config.gpio, hold_seconds=0.5) as gpio:
        control = PanelController([gpio])
        control.follow(session)
        drive(session, lambda s: s.state.stage == "farming")
        assert session.state.season == "winter"
        assert control.lights.indicators == ()
        assert [rgb(mock_factory, pins) for pins in config.gpio.indicators] == [(0, 0, 0), (0, 0, 0)]
        drive(session, lambda s: s.state.stage == "farming" and s.state.season == "spring")
        weather = km_rules.weather_now(session.state)
        assert weather.round is not None and weather.square is not None
        lights = control.lights
        assert [i.key for i in lights.indicators] == ["favoured", "spoiled"]
        favoured, spoiled = parse_colour(GOOD_COLOURS[weather.round]), parse_colour(GOOD_COLOURS[weather.square])
        assert [rgb(mock_factory, pins) for pins in config.gpio.indicators] == [favoured, spoiled]
        said = control.state()["lights"]["indicators"]
        assert said[0]["label"] == {"id": "km.panel.favoured", "params": {"good": {"id": f"km.good.{weather.round}",
                                                                                 "params": {}}}}
        assert said[1]["colour"] == GOOD_COLOURS[weather.square]
        control.close()


@pytest.mark.parametrize("stage", ["pay", "commit"])
def test_key_market_secret_choices_are_made_on_own_pages_and_never_reach_the_panel(store: GameStore,
                                                                                   stage: str) -> None:
    """Spec 2.2 and 4.4-M1: the farmhouse payment and the Market Day commitment are chosen at once in secret. The
    panel lights who is still to choose; OK cannot carry a choice (the tablet's private page makes it: one press
    cannot name one of many goods combinations, nor whose it is); what a panel shows is the same whatever was
    chosen; DRAW then reveals them together."""
    session = new(store, "key-market")
    drive(session, lambda s: s.state.stage == stage and len(s.game.deciders(s.state)) >= 2)
    control = PanelController([SimulatedPanel()])
    control.follow(session)
    deciders = session.game.deciders(session.state)
    assert {i for i, c in enumerate(control.lights.seats) if c in {RED, GREEN, BLUE}} == set(deciders)
    seat = deciders[0]
    choices = [m for m in session.game.legal_moves(session.state) if session.game.seat_of(session.state, m) == seat]
    with pytest.raises(CommandRefused, match="secret"):
        control.choose(str(choices[0]))
    assert control.state()["choice"] is None
    other = twin(store, session)
    control_twin = PanelController([SimulatedPanel()])
    control_twin.follow(other)
    session.play(choices[0], seat=seat)
    other.play(choices[-1], seat=seat)
    if choices[0] != choices[-1]:
        assert session.state != other.state
    assert shared(control) == shared(control_twin)
    result = control.press("OK")  # nothing chosen on the panel: nothing played
    assert not result["ok"] and result["text"] == "choose a move on the tablet first, then press OK"
    drive(session, lambda s: s.game.current_player(s.state) == CHANCE)
    result = control.press("DRAW")
    revealed = str(session.history[-1])
    assert result["ok"] and revealed.startswith("revealed " if stage == "pay" else "committed ")
    control.close()
    control_twin.close()


def test_a_game_without_signals_shows_no_waiting_seats_or_indicators(session: Session) -> None:
    """Key Harvest names none: its lights are as before (``Game.panel_signals``' default)."""
    lights = lights_for(session)
    assert lights.waiting == () and lights.indicators == ()
    assert lights == Lights(lights.seats, lights.status, lights.alert)
