"""The frame format: the bridge's parser and the firmware's agree, and no byte sequence crashes either."""

from __future__ import annotations

import serial
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from firmware_bridge import protocol as P
from firmware_bridge.sim import load_firmware

kproto = load_firmware().P  # the firmware's own protocol module (hardware/firmware/kproto.py)

frames = st.builds(P.Frame, st.integers(0, 255), st.integers(0, 255), st.binary(max_size=P.MAX_PAYLOAD))


def test_crc_is_crc16_ccitt_false() -> None:
    assert P.crc16(b"123456789") == 0x29B1
    assert kproto.crc16(b"123456789") == 0x29B1


@given(frames)
def test_bridge_and_firmware_encode_the_same_bytes(frame: P.Frame) -> None:
    assert frame.encode() == kproto.encode(frame.seq, frame.type, frame.payload)


@given(st.lists(frames, max_size=5), st.lists(st.binary(max_size=30), min_size=6, max_size=6))
def test_frames_between_noise_are_all_recovered(sent: list[P.Frame], noise: list[bytes]) -> None:
    """Garbage between frames costs nothing but the garbage (noise without a frame start)."""
    noise = [n.replace(b"\xaa", b"") for n in noise]
    stream = b"".join(n + f.encode() for n, f in zip(noise, sent)) + noise[-1]
    parser = P.Parser()
    assert parser.feed(stream) == sent
    firmware = kproto.Parser()
    assert [P.Frame(*f) for f in firmware.feed(stream)] == sent


@settings(max_examples=300)
@given(st.binary(max_size=600), st.lists(st.integers(1, 50), max_size=20))
def test_arbitrary_bytes_never_crash_the_parser(data: bytes, cuts: list[int]) -> None:
    """Any bytes, fed in any pieces: the parser returns well-formed frames and counts the rest."""
    parser = P.Parser()
    out: list[P.Frame] = []
    position = 0
    for cut in cuts:
        out += parser.feed(data[position:position + cut])
        position += cut
    out += parser.feed(data[position:])
    for frame in out:
        assert 0 <= len(frame.payload) <= P.MAX_PAYLOAD
        assert frame.encode() in data  # a frame is only ever what was really sent
    assert parser.pending <= len(data)
    for frame in parser.drop_partial():
        assert frame.encode() in data
    assert parser.pending == 0
    kproto.Parser().feed(data)  # the firmware's copy survives it too


@given(frames, st.integers(1, 6))
def test_a_cut_frame_is_dropped_and_the_next_one_read(frame: P.Frame, cut: int) -> None:
    """A frame cut short: the frame after it is read at once, or when the line goes quiet.

    Not when the lost bytes happen to equal the next frame's first bytes (a CRC ending in AA):
    then the cut frame is whole again and read as sent, the next one is lost to the scan and
    comes again by the link's retry (hardware/PROTOCOL.md, "Receiving").
    """
    after = P.Frame(9, P.PING)
    assume(frame.encode()[-cut:] != after.encode()[:cut])
    stream = frame.encode()[:-cut] + after.encode()
    parser = P.Parser()
    assert parser.feed(stream) + parser.drop_partial() == [after]
    assert parser.dropped + parser.noise >= 1  # counted, as a damaged frame or as noise
    firmware = kproto.Parser()
    assert firmware.feed(stream) + firmware.drop_partial() == [(9, P.PING, b"")]


def test_a_flipped_bit_is_dropped_and_counted() -> None:
    good = P.Frame(1, P.LIGHTS, P.lights_payload([(0, 15, (255, 0, 0))]))
    damaged = bytearray(good.encode())
    damaged[8] ^= 0x04
    parser = P.Parser()
    assert parser.feed(bytes(damaged) + good.encode()) == [good]
    assert parser.dropped == 1


def test_frames_over_a_loop_port() -> None:
    """pyserial's loop:// carries frames and noise through a real port object."""
    port = serial.serial_for_url("loop://", timeout=0.1)
    sent = [P.Frame(i, P.LIGHTS, P.lights_payload([(i, 3, (i, 2 * i, 3 * i))])) for i in range(1, 20)]
    for frame in sent:
        port.write(b"\x00\xaa\x13" + frame.encode())
    parser = P.Parser()
    received: list[P.Frame] = []
    while len(received) < len(sent):
        chunk = port.read(max(1, port.in_waiting))
        assert chunk, "the loop port ran dry"
        received += parser.feed(chunk)
    port.close()
    assert received == sent
    assert parser.noise == 3 * len(sent)


def test_lights_payload_round_trip_and_limits() -> None:
    runs = [(0, 15, (1, 2, 3)), (300, 1, (255, 255, 255))]
    assert P.parse_lights(P.lights_payload(runs)) == runs
    try:
        P.lights_payload([(0, 1, (0, 0, 0))] * (P.MAX_RUNS + 1))
    except ValueError as error:
        assert "at most 40 runs" in str(error)
    else:
        raise AssertionError("an oversized LIGHTS message was accepted")


def test_a_frame_cut_where_the_next_frame_restores_the_lost_byte_is_read_as_sent() -> None:
    """The one case framing without byte stuffing cannot tell: never a wrong frame, one lost frame."""
    frame = next(P.Frame(1, P.LIGHTS, bytes([n])) for n in range(256)
                 if P.Frame(1, P.LIGHTS, bytes([n])).encode()[-1] == P.SYNC[0])
    after = P.Frame(9, P.PING)
    parser = P.Parser()
    assert parser.feed(frame.encode()[:-1] + after.encode()) + parser.drop_partial() == [frame]
