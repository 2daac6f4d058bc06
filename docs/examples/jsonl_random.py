"""A JSON-lines bot for any majiang rule set in 20 lines: wins when it can, else a random action.

Runs under `majiang tournament --protocol jsonl --rules <any>`.
"""
import json
import random
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "end_game":
        break
    if msg["type"] != "request":
        continue  # an event: start_kyoku, tsumo, dahai, pon, hora, ...
    actions = msg["possible_actions"]
    wins = [a for a in actions if a["type"] == "hora"]
    passes = [a for a in actions if a["type"] == "none"]
    choice = wins[0] if wins else (passes[0] if passes else random.choice(actions))
    print(json.dumps(choice), flush=True)
