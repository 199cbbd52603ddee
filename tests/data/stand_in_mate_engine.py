"""A stand-in USI mate engine for tools/peer_bench.py's tests: ``python stand_in_mate_engine.py <behaviour>``.

It prints what KomoringHeights prints (``info`` lines with ``score mate``, ``string`` and ``pv``
after the fields, then one ``checkmate`` line) and answers ``checkmate notimplemented`` unless it
was set to one thread.  Behaviours: ``mate`` (the right 3-ply line of the test position),
``wrong`` (a line that does not mate), ``nomate``, ``spin`` (burns CPU, counting nodes, until
``stop``, then ``checkmate timeout``).
"""

import sys
import threading

BEHAVIOUR = sys.argv[1]
options: dict[str, str] = {}
stopped = threading.Event()


def say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def spin() -> None:
    nodes = 0
    while not stopped.is_set():
        sum(range(2000))  # a node's worth of work
        nodes += 1
        if nodes % 5000 == 0:
            say(f"info time 1 nodes {nodes} nps 1000 hashfull 3")
    say(f"info time 1 nodes {nodes} nps 1000 hashfull 3 string stopped")
    say("checkmate timeout")


for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    if words[0] == "usi":
        say("id name Stand In 1.0")
        say("id author nobody")
        say("option name Threads type spin default 4 min 1 max 127")
        say("option name USI_Hash type spin default 4096 min 1 max 33554432")
        say("option name Post Search Level type combo default MinLength var None var MinLength")
        say("usiok")
    elif words[0] == "setoption" and "value" in words:
        at = words.index("value")
        options[" ".join(words[2:at])] = " ".join(words[at + 1:])
    elif words[0] == "isready":
        say("readyok")
    elif words[0] == "go":
        if options.get("Threads") != "1":
            say("checkmate notimplemented")
        elif BEHAVIOUR == "spin":
            threading.Thread(target=spin).start()
        else:
            say("info time 5 nodes 1234 nps 246800 hashfull 1 depth 0 seldepth 4 score mate 3 "
                "string # 1st result: mate in 3 nodes 99")
            say(f"info time 7 nodes 2345 nps 335000 hashfull 2 currmove N*3c score mate 3 depth 1 pv N*3c 2a1a "
                f"S*1b hashfull 999 USI_Hash={options.get('USI_Hash')}")
            say({"mate": "checkmate N*3c 2a1a S*1b", "wrong": "checkmate S*1b 2a3a N*2c",
                 "nomate": "checkmate nomate"}[BEHAVIOUR])
    elif words[0] == "stop":
        stopped.set()
    elif words[0] == "quit":
        stopped.set()
        break
