"""A Botzone Chinese Standard Mahjong bot in 30 lines: passes every claim, discards at random.

Runs on Botzone (JSON input, keep-running) and under `majiang tournament --protocol botzone`.
"""
import json
import random
import sys


def turn(hand, request):
    """Update the hand for one request and return the response."""
    r = request.split()
    if r[0] == "0" or r[0] == "1":
        if r[0] == "1":
            hand.extend(r[5:18])  # the 13 dealt tiles (flowers after them are not ours)
        return "PASS"
    if r[0] == "2":  # we drew r[1]: discard a random tile
        hand.append(r[1])
        t = random.choice(hand)
        hand.remove(t)
        return "PLAY " + t
    return "PASS"  # another seat's draw, discard, claim or kong: never claim


hand = []
first = json.loads(sys.stdin.readline())  # turn 1: the whole history (one request)
for req in first["requests"]:
    answer = turn(hand, req)
print(json.dumps({"response": answer}))
print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)
for line in sys.stdin:  # keep-running: one request per line
    print(json.dumps({"response": turn(hand, line.strip())}))
    print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)
