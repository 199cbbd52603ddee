"""A misbehaving USI mate engine for tests: ``python fake_usi_engine.py <behaviour>``.

Behaviours: ``silent`` (never answers ``usi``), ``noready`` (never answers
``isready``), ``hang`` (never answers ``go mate``, ignores ``stop`` and
``quit``), ``garbage`` (prints garbage, then ``checkmate timeout`` on ``stop``),
``exit`` (exits on ``go mate``), ``illegal``, ``nocheck``, ``notmate``,
``even`` (wrong mate lines), ``bestmove``, ``notimplemented``, ``nomate``,
``mate`` (the right 3-ply line of the test position), ``stopmate`` (the
right line only after ``stop``).
"""

import sys
import time

BEHAVIOUR = sys.argv[1]
LINES = {
    "illegal": "checkmate N*3c 2a1a 9i9h",
    "nocheck": "checkmate 5b5c 2a1a S*1b",
    "notmate": "checkmate S*1b 2a3a N*2c",
    "even": "checkmate N*3c 2a1a",
    "bestmove": "bestmove resign",
    "notimplemented": "checkmate notimplemented",
    "nomate": "checkmate nomate",
    "mate": "checkmate N*3c 2a1a S*1b",
}


def say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    command = words[0]
    if command == "usi" and BEHAVIOUR != "silent":
        say("id name Fake Engine")
        say("option name USI_Hash type spin default 16 min 1 max 1024")
        say("option name Style type combo default a var a var b c")
        say("usiok")
    elif command == "isready" and BEHAVIOUR != "noready":
        say("readyok")
    elif command == "go":
        if BEHAVIOUR == "exit":
            sys.exit(3)
        if BEHAVIOUR == "garbage":
            say("info nodes xx nps")
            say("\x00\x01 garbage ☃ 詰み")
            sys.stdout.buffer.write(b"\xff\xfe not utf-8\n")
            sys.stdout.flush()
            say("info nodes 1234 nps 99 hashfull 5 string hello")
        elif BEHAVIOUR in LINES:
            say("info nodes 10 nps 100 time 1")
            say(LINES[BEHAVIOUR])
    elif command == "stop":
        if BEHAVIOUR == "garbage":
            say("checkmate timeout")
        elif BEHAVIOUR == "stopmate":
            say(LINES["mate"])
    elif command == "quit":
        if BEHAVIOUR == "hang":
            time.sleep(3600)
        break
if BEHAVIOUR == "hang":
    time.sleep(3600)
