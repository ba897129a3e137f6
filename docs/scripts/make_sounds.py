#!/usr/bin/env python3
"""Regenerates the page's sounds, crates/server/web/sounds/*.wav, made for Ludus (CC0).

Standard library only: each sound is a sum of damped sine tones (and, for a capture, a
little seeded noise), written as 16-bit mono WAV at 11,025 Hz so that each file stays a few
kilobytes. The output is the same on every run.

    python3 docs/scripts/make_sounds.py
"""

import math
import random
import struct
import wave
from pathlib import Path

RATE = 11025
OUT = Path(__file__).resolve().parents[2] / "crates" / "server" / "web" / "sounds"


def tone(freq, start, length, decay, gain=1.0):
    """A sine of `freq` Hz from `start` s for `length` s, fading out with time constant `decay` s."""
    return (freq, start, length, decay, gain)


def render(length, tones, noise=None):
    """Samples in -1..1 of `tones` (and a decaying noise burst `(start, length, decay, gain)`)."""
    count = int(length * RATE)
    samples = [0.0] * count
    for freq, start, dur, decay, gain in tones:
        first = int(start * RATE)
        for i in range(int(dur * RATE)):
            if first + i >= count:
                break
            t = i / RATE
            attack = min(1.0, t / 0.004)  # 4 ms attack: no click at the start
            samples[first + i] += gain * attack * math.exp(-t / decay) * math.sin(2 * math.pi * freq * t)
    if noise:
        start, dur, decay, gain = noise
        rng = random.Random(7)
        first = int(start * RATE)
        previous = 0.0
        for i in range(int(dur * RATE)):
            t = i / RATE
            # A one-pole low-pass keeps the noise a soft thud rather than a hiss.
            previous = 0.6 * previous + 0.4 * rng.uniform(-1, 1)
            samples[first + i] += gain * math.exp(-t / decay) * previous
    # The last 10 ms fade to silence.
    tail = int(0.01 * RATE)
    for i in range(1, tail + 1):
        samples[count - i] *= i / tail
    peak = max(abs(s) for s in samples) or 1.0
    return [0.6 * s / peak for s in samples]


def write(name, samples):
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{name}.wav"
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(b"".join(struct.pack("<h", int(s * 32767)) for s in samples))
    print(f"{path}: {path.stat().st_size} bytes")


SOUNDS = {
    # A piece put down: a short wooden tock.
    "move": render(0.07, [tone(520, 0, 0.07, 0.018), tone(1040, 0, 0.07, 0.008, 0.4)]),
    # A piece taken off: a lower knock with a thud, twice.
    "capture": render(0.15, [tone(330, 0, 0.15, 0.03), tone(220, 0.045, 0.1, 0.03, 0.8)],
                      noise=(0, 0.06, 0.015, 0.5)),
    # Little time left on this browser's clock: two short high beeps.
    "low_time": render(0.24, [tone(1320, 0, 0.08, 0.05), tone(1320, 0.13, 0.08, 0.05)]),
    # The game ended: a rising C major arpeggio.
    "end": render(0.5, [tone(523, 0, 0.5, 0.12), tone(659, 0.11, 0.39, 0.12), tone(784, 0.22, 0.28, 0.1)]),
    # Your turn: a two-note chime.
    "turn": render(0.3, [tone(659, 0, 0.3, 0.07), tone(988, 0.1, 0.2, 0.08)]),
}

if __name__ == "__main__":
    for sound, data in SOUNDS.items():
        write(sound, data)
