# Keydom panel firmware for a Raspberry Pi Pico (MicroPython): runs at boot.
# The pins live here and in config.py; the protocol and button logic are in panel_fw.py and
# kproto.py, which the host's tests run under CPython.

import sys
import select
import time

import machine
import micropython
import neopixel

import config
from panel_fw import Firmware


def main():
    pins = [machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP) for n in config.BUTTON_PINS]
    time.sleep_ms(50)
    if not pins[0].value():
        return  # button 0 (DRAW) held at power-up: stay in the REPL for maintenance
    micropython.kbd_intr(-1)  # frames may hold 0x03: it must not stop the program
    strip = neopixel.NeoPixel(machine.Pin(config.STRIP_PIN), config.STRIP_LEDS)
    scale = config.BRIGHTNESS
    out = sys.stdout.buffer
    inp = sys.stdin.buffer
    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)
    led = machine.Pin("LED", machine.Pin.OUT)

    def show(pixels):
        for i, (r, g, b) in enumerate(pixels):
            strip[i] = (int(r * scale), int(g * scale), int(b * scale))
        strip.write()

    def write(data):
        out.write(data)

    boot_id = int.from_bytes(machine.unique_id()[-2:], "big") << 16 | (time.ticks_cpu() & 0xFFFF)
    firmware = Firmware(config.STRIP_LEDS, len(pins), write, show, boot_id,
                        debounce_ms=config.DEBOUNCE_MS, hold_ms=config.HOLD_MS)
    show(firmware.pixels)
    while True:
        now = time.ticks_ms()
        if poll.poll(1):
            data = inp.read(1)
            while poll.poll(0):
                data += inp.read(1)
            firmware.receive(data, now)
        firmware.tick([not pin.value() for pin in pins], now)
        led.value(firmware.greeted)


main()
