# Pins and sizes of the Pico panel (see hardware/README.md for the wiring table).
# Buttons connect a GPIO to GND (internal pull-up); their order is the index sent to the host,
# which names them through its panel config ("buttons": ["DRAW", "ROLL", ...]).

BUTTON_PINS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)  # GP2..GP13: up to 12 buttons
STRIP_PIN = 16  # GP16 -> 330 ohm -> DIN of the WS2812 strip
STRIP_LEDS = 64  # 4 seat segments of 15, the status pixel, the alert pixel and 2 indicator pixels
DEBOUNCE_MS = 20
HOLD_MS = 1000  # a long press (UNDO)
BRIGHTNESS = 0.5  # scales every colour: keeps a 64-LED strip within the USB port's 500 mA
