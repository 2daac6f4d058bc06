"""Botzone protocol (issue 14): the 16 recorded rounds of sample16.txt fed turn by turn, and
`majiang bot --protocol botzone` in both input forms and keep-running mode."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter

import pytest

from majiang.protocols.botzone import (
    KEEP_RUNNING,
    BotzoneProtocolError,
    SeatState,
    parse_json_input,
    parse_simple_input,
    requests_from_log,
    tile_code,
)
from majiang.protocols.judge import play_game
from majiang.records.botzone import read_log, sample_path
from majiang.tiles import NUM_KINDS

ROUNDS = read_log(sample_path())


def _legal(resp: str, legal: list[str]) -> bool:
    if resp in legal:
        return True
    # an ignored PENG/CHI in the log does not record the discard that would have followed
    return len(resp.split()) < 3 and resp.split()[0] in ("PENG", "CHI") and any(x.startswith(resp + " ") for x in legal)


def test_sample16_every_recorded_answer_is_legal():
    """Every answer the log shows (the winner's and everyone's) is among our legal responses."""
    checked = 0
    for rnd in ROUNDS:
        winner = next((a.seat for a in rnd.actions if a.verb == "Hu"), None)
        for seat in range(4):
            st = SeatState()
            for req, resp in requests_from_log(rnd, seat):
                st.feed(req)
                legal = st.legal_responses()
                if resp is None:
                    continue
                assert _legal(resp, legal), (rnd.match, seat, req, resp, legal)
                if seat == winner and resp == "HU":
                    checked += 1
                st.note_response(resp if resp in legal else "PASS")
    assert checked == 14  # the 14 recorded wins (2 rounds are drawn)


class _Script:
    """Answers a seat's requests as the log shows, checking the judge sends the logged requests."""

    time_limit = None

    def __init__(self, rnd, seat):
        self.name = f"log{seat}"
        self.items = list(requests_from_log(rnd, seat))
        self.i = 0
        self.st = SeatState()

    def start(self, seat):
        pass

    def close(self):
        pass

    def ask(self, req):
        want, resp = self.items[self.i] if self.i < len(self.items) else (req, "PASS")
        assert req == want
        self.i += 1
        self.st.feed(req)
        legal = self.st.legal_responses()
        if resp is None or resp not in legal:
            resp = next((x for x in legal if resp and x.startswith(resp)), "PASS")
        self.st.note_response(resp)
        return resp


def _wall(rnd):
    """The four quarters: each seat's deal, then its draws in order, then unseen tiles."""
    qs = [list(d) for d in rnd.deals]
    for a in rnd.actions:
        if a.verb == "Draw":
            qs[a.seat].append(a.tile)
    used = Counter(t for q in qs for t in q)
    rest = [t for t in range(NUM_KINDS) for _ in range(4 - used[t])]
    for q in qs:
        assert len(q) <= 34
        while len(q) < 34:
            q.append(rest.pop())
    return [t for q in qs for t in q]


@pytest.mark.parametrize("rnd", ROUNDS, ids=[r.match[-4:] for r in ROUNDS])
def test_judge_replays_sample16_to_recorded_fans_and_scores(rnd):
    r = play_game([_Script(rnd, s) for s in range(4)], _wall(rnd), rnd.wind, match_id=rnd.match, on_fault="end")
    assert not r.faults
    assert r.scores == rnd.scores
    if rnd.drawn:
        assert r.winner is None and r.log[-2] == "Huang"  # the drawn hand ends where the log's does
    else:
        assert r.fan == rnd.fan_total
        assert dict(r.fans) == dict(rnd.fans)


# ------------------------------------------------------------------ majiang bot, both forms
ROUND0 = ROUNDS[0]


def _first_draw(seat):
    reqs = []
    for req, _ in requests_from_log(ROUND0, seat):
        reqs.append(req)
        if req.startswith("2 "):
            return reqs
    raise AssertionError


def _pungable(seat):
    """Requests up to the first discard by another seat that `seat` could pung, and its responses."""
    st = SeatState()
    reqs, resps = [], []
    for req, resp in requests_from_log(ROUND0, seat):
        st.feed(req)
        reqs.append(req)
        parts = req.split()
        if parts[0] == "3" and parts[2] == "PLAY" and int(parts[1]) != seat:
            t = st.last_discard[1]
            if st.hand[t] >= 2:
                return reqs, resps, st
        legal = st.legal_responses()
        r = resp if resp in legal else ("PASS" if "PASS" in legal else legal[0])
        st.note_response(r)
        resps.append(r)
    raise AssertionError("no pungable discard")


def _seat_with_pung():
    for seat in range(4):
        try:
            return seat, _pungable(seat)
        except AssertionError:
            continue
    raise AssertionError


def _run(args, text):
    return subprocess.run([sys.executable, "-m", "majiang.cli", "bot", *args], input=text, capture_output=True,
                          text=True, timeout=60)


def _history_json(reqs, resps):
    return json.dumps({"requests": reqs, "responses": resps})


def _history_simple(reqs, resps):
    lines = [str(len(reqs))]
    for i, r in enumerate(reqs):
        lines.append(r)
        if i < len(resps):
            lines.append(resps[i])
    return "\n".join(lines + ["", ""]) + "\n"


def _draw_history(seat):
    reqs = _first_draw(seat)
    st = SeatState()
    resps = []
    for r in reqs[:-1]:
        st.feed(r)
        legal = st.legal_responses()
        resps.append("PASS" if "PASS" in legal else legal[0])
    st.feed(reqs[-1])
    return reqs, resps, st


@pytest.mark.parametrize("simple", [False, True], ids=["json", "simple"])
def test_bot_answers_deal_and_draw_with_a_legal_play(simple):
    seat = 1
    reqs, resps, st = _draw_history(seat)
    text = _history_simple(reqs, resps) if simple else _history_json(reqs, resps) + "\n"
    out = _run(["--no-keep-running"] + (["--simple"] if simple else []), text)
    assert out.returncode == 0, out.stderr
    first = out.stdout.splitlines()[0]
    answer = first if simple else json.loads(first)["response"]
    assert answer.startswith("PLAY ") and answer in st.legal_responses()


@pytest.mark.parametrize("simple", [False, True], ids=["json", "simple"])
def test_bot_answers_a_pungable_discard_with_pass_or_a_legal_peng(simple):
    seat, (reqs, resps, st) = _seat_with_pung()
    text = _history_simple(reqs, resps) if simple else _history_json(reqs, resps) + "\n"
    out = _run(["--no-keep-running"] + (["--simple"] if simple else []), text)
    assert out.returncode == 0, out.stderr
    first = out.stdout.splitlines()[0]
    answer = first if simple else json.loads(first)["response"]
    legal = st.legal_responses()
    assert any(x.startswith("PENG") for x in legal)
    assert answer == "PASS" or (answer.startswith("PENG ") and answer in legal)


def test_keep_running_answers_one_request_per_line():
    """Turn 1 in JSON, then the rest of seat 0's requests one per line, each answered legally."""
    items = list(requests_from_log(ROUND0, 0))
    reqs = [r for r, _ in items]
    proc = subprocess.Popen([sys.executable, "-m", "majiang.cli", "bot"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    st = SeatState()
    try:
        proc.stdin.write(json.dumps({"requests": reqs[:1], "responses": []}) + "\n")
        proc.stdin.flush()
        answers = []
        for i, req in enumerate(reqs):
            if i:
                proc.stdin.write(req + "\n")
                proc.stdin.flush()
            line = proc.stdout.readline()
            assert proc.stdout.readline().strip() == KEEP_RUNNING
            ans = json.loads(line)["response"]
            st.feed(req)
            assert ans in st.legal_responses(), (req, ans)
            st.note_response(ans)
            answers.append(ans)
            if not (i + 1 < len(reqs) and _consistent(items, i, ans)):
                break  # our bot departed from the log: the later requests no longer apply
        assert len(answers) >= 3
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
    assert proc.returncode == 0


def _consistent(items, i, ans):
    resp = items[i][1]
    return resp is None or resp == ans or (resp == "PASS" and ans == "PASS")


@pytest.mark.parametrize("text, needle", [
    ("not json\n", "not JSON"),
    ('{"requests": ["0 1 0", "1 0 0 0 0 W1"], "responses": ["PASS"]}\n', "request 1"),
    ('{"requests": ["2 W1"], "responses": []}\n', "first request must be"),
    ('{"requests": ["0 1 0"], "responses": ["PASS"]}\n', "need 0 responses"),
    ('{"requests": ["0 1 0", "1 0 0 0 0 W1 W1 W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9"], "responses": ["PASS"]}\n',
     "more than four"),
])
def test_bad_input_is_a_clear_error_and_no_move(text, needle):
    out = _run([], text)
    assert out.returncode == 2
    assert out.stdout == ""
    assert needle in out.stderr


def test_input_forms_parse_the_same_turn():
    reqs, resps = ["0 2 1", "1 0 0 0 0 " + " ".join(tile_code(t) for t in range(13))], ["PASS"]
    a = parse_json_input(_history_json(reqs, resps))
    b = parse_simple_input(_history_simple(reqs, resps).splitlines(keepends=True))
    assert (a.requests, a.responses) == (b.requests, b.responses) == (reqs, resps)
    with pytest.raises(BotzoneProtocolError):
        parse_simple_input(["3", "0 1 0"])


class _OpenPipe:
    """stdin whose further reads would block (a judge keeping the pipe open): only readline of the given lines."""

    def __init__(self, text):
        self.lines = text.splitlines(keepends=True)

    def readline(self):
        if not self.lines:
            raise AssertionError("the bot waited for more input than one turn")
        return self.lines.pop(0)

    def readlines(self):
        raise AssertionError("the bot waited for end of input")

    def __iter__(self):
        raise AssertionError("the bot waited for end of input")


@pytest.mark.parametrize("simple", [False, True], ids=["json", "simple"])
def test_one_turn_bot_does_not_wait_for_end_of_input(simple):
    import io

    from majiang.players import make_bot
    from majiang.protocols.botzone import run_bot
    from majiang.engine.ruleset import RuleSet

    reqs, resps, st = _draw_history(2)
    text = _history_simple(reqs, resps) if simple else _history_json(reqs, resps) + "\n"
    if simple:
        text = text.rstrip("\n") + "\n"  # the turn's lines, without data/globaldata
    out = io.StringIO()
    run_bot(make_bot("efficiency", RuleSet.preset("mcr")), _OpenPipe(text), out, simple=simple, keep_running=False)
    first = out.getvalue().splitlines()[0]
    answer = first if simple else json.loads(first)["response"]
    assert answer in st.legal_responses() and answer.startswith("PLAY ")
