"""External bots as subprocesses: line I/O with deadlines, and the faults a judge charges.

:class:`LineProcess` starts a shell command in its own process group with pipes on stdin and
stdout (stderr goes to a file, each line labelled with the bot's name, or is dropped), and reads
stdout lines through a thread so a read can time out. Every live process is known to
:func:`kill_all`, which a tournament calls when it is stopped (``SIGTERM``), so no bot outlives it.
:func:`language_of` finds the language a command finally runs (through ``cd dir && ...``,
``run.sh``-style wrappers and ``#!`` lines) for Botzone's time factors (:data:`LANGUAGE_FACTORS`). A bot that exits, hangs past its deadline or prints something that is not its
protocol raises :class:`BotFault` (``kind`` = ``"crash"``, ``"timeout"`` or ``"garbage"``); the
judges charge it and go on (:mod:`majiang.protocols.judge`, :mod:`majiang.tournament`).
"""

from __future__ import annotations

import os
import queue
import re
import shlex
import shutil
import signal
import subprocess
import threading
import time
import weakref
from typing import IO

from majiang.errors import MajiangError


class BotFault(MajiangError):
    """A bot that crashed, timed out or answered outside its protocol.

    Attributes:
        kind: ``"crash"``, ``"timeout"``, ``"garbage"`` or ``"illegal"`` (a well-formed but
            illegal move, or a wrong win).
        seconds: time spent on the request that failed.
        answer: what the bot answered, if anything (one line).
    """

    def __init__(self, message: str, *, kind: str, seconds: float = 0.0, answer: str = "") -> None:
        super().__init__(message)
        self.kind = kind
        self.seconds = seconds
        self.answer = answer


_EOF = object()


class LineProcess:
    """A running command spoken to line by line.

    Args:
        command: a shell command (``python3 mybot.py``).
        stderr: a writable file for the bot's stderr (default: discarded).
        label: with ``stderr``, each stderr line is written as ``[label] line`` (several bots may
            share one file).
        cwd: the working directory.
    """

    def __init__(self, command: str, *, stderr: IO[str] | None = None, cwd: str | None = None,
                 label: str | None = None) -> None:
        self.command = command
        err = subprocess.DEVNULL if stderr is None else (subprocess.PIPE if label is not None else stderr)
        try:
            self.proc = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=err, text=True, bufsize=1, cwd=cwd, start_new_session=True)
        except OSError as e:
            raise BotFault(f"cannot start {command!r}: {e}", kind="crash") from None
        _LIVE.add(self)
        self.lines: queue.Queue = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        if stderr is not None and label is not None:
            threading.Thread(target=self._copy_stderr, args=(stderr, label), daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        try:
            for line in self.proc.stdout:
                self.lines.put(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        self.lines.put(_EOF)

    def _copy_stderr(self, out: IO[str], label: str) -> None:
        assert self.proc.stderr is not None
        try:
            for line in self.proc.stderr:
                with _ERR_LOCK:
                    out.write(f"[{label}] {line.rstrip(chr(10))}\n")
                    out.flush()
        except (OSError, ValueError):
            pass

    def write(self, text: str) -> None:
        """Send ``text`` (a newline is added); :class:`BotFault` ``crash`` if the bot is gone."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(text if text.endswith("\n") else text + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise BotFault(f"{self.command!r} exited (exit status {self.proc.poll()})", kind="crash") from None

    def close_stdin(self) -> None:
        """End the bot's input (end-of-file), as Botzone does after a one-shot bot's whole input."""
        try:
            if self.proc.stdin is not None and not self.proc.stdin.closed:
                self.proc.stdin.close()
        except (BrokenPipeError, OSError, ValueError):
            pass

    @property
    def stdin_open(self) -> bool:
        return self.proc.stdin is not None and not self.proc.stdin.closed

    def read_line(self, deadline: float) -> str | None:
        """The next output line, or ``None`` at end of output (the bot exited). :class:`BotFault`
        ``timeout`` if nothing comes before ``deadline`` (a :func:`time.monotonic` value)."""
        item = self.poll_line(deadline - time.monotonic())
        if item is _TIMEOUT:
            raise BotFault(f"{self.command!r} gave no answer in time", kind="timeout")
        return item  # type: ignore[return-value]

    def poll_line(self, wait: float) -> object:
        """The next output line, ``None`` at end of output, or :data:`_TIMEOUT` after ``wait`` s."""
        try:
            item = self.lines.get(timeout=wait) if wait > 0 else self.lines.get_nowait()
        except queue.Empty:
            return _TIMEOUT
        if item is _EOF:
            self.lines.put(_EOF)
            return None
        return item

    def waiting_for_input(self) -> bool | None:
        """Whether every process of the bot is asleep and has used no CPU since the last call (so it
        waits for input: a bot reading to end-of-file). ``None`` where ``/proc`` cannot tell."""
        snap = _session_cpu(self.proc.pid)
        if snap is None:
            return None
        running, ticks = snap
        last, self._ticks = getattr(self, "_ticks", None), ticks
        return not running and last == ticks

    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self) -> None:
        """Stop the process and its children (its own process group)."""
        _LIVE.discard(self)
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:  # pragma: no cover
            pass
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                if f is not None:
                    f.close()
            except OSError:
                pass


_TIMEOUT = object()
_ERR_LOCK = threading.Lock()
_LIVE: weakref.WeakSet[LineProcess] = weakref.WeakSet()


def kill_all() -> None:
    """Kill every bot process still running in this process (each one's whole process group)."""
    for p in list(_LIVE):
        try:
            p.close()
        except Exception:  # noqa: BLE001 - stopping, nothing to report
            pass


def _session_cpu(sid: int) -> tuple[bool, int] | None:
    """(any process of session ``sid`` runnable, CPU ticks they used), from ``/proc``; ``None``
    without ``/proc``."""
    try:
        pids = os.listdir("/proc")
    except OSError:
        return None
    running = False
    ticks = 0
    found = False
    for pid in pids:
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        rest = stat[stat.rfind(b")") + 2:].split()
        # rest[0] state, rest[3] session, rest[11] utime, rest[12] stime (proc(5), fields 3, 6, 14, 15)
        if len(rest) < 13 or int(rest[3]) != sid:
            continue
        found = True
        running = running or rest[0] in (b"R", b"D")
        ticks += int(rest[11]) + int(rest[12])
    return (running, ticks) if found else None


# ------------------------------------------------------------------------------ languages
LANGUAGE_FACTORS: dict[str, float] = {"cpp": 1.0, "pascal": 1.0, "java": 3.0, "csharp": 6.0, "js": 2.0,
                                      "python": 6.0}
"""Botzone's time factors by language (wiki *Bot*): the per-request limit is the game's limit (1 s
for Chinese Standard Mahjong) times this. A native program (``cpp``) gets 1."""

LANGUAGE_NAMES: dict[str, str] = {"c": "cpp", "c++": "cpp", "cpp": "cpp", "native": "cpp", "pascal": "pascal",
                                  "java": "java", "c#": "csharp", "cs": "csharp", "csharp": "csharp",
                                  "mono": "csharp", "js": "js", "javascript": "js", "node": "js", "nodejs": "js",
                                  "python": "python", "python3": "python", "python2": "python", "py": "python",
                                  "pypy": "python"}
"""Names accepted for a language (``--bot-time NAME=python``), to the keys of :data:`LANGUAGE_FACTORS`."""

_SHELLS = ("sh", "bash", "dash", "zsh", "ksh", "ash")
_WRAPPERS = ("exec", "env", "nice", "nohup", "time", "stdbuf", "timeout", "command", "ionice", "taskset",
             "setsid", "chrt", "xvfb-run")
_BUILTINS = ("cd", "export", "set", "source", ".", "echo", "printf", "ulimit", "umask", "trap", "true", "false",
             "exit", "if", "then", "else", "fi", "shift", "unset", "read", "wait", "[", "test", "mkdir", "chmod",
             "cp", "mv", "rm", "ln", "cat")
_ASSIGN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


def _by_name(word: str) -> str | None:
    base = os.path.basename(word).lower()
    if base.startswith(("python", "pypy")) or base.endswith(".py") or base.endswith(".pyz"):
        return "python"
    if base == "java" or base.endswith(".jar"):
        return "java"
    if base in ("node", "nodejs", "deno", "bun") or base.endswith((".js", ".mjs")):
        return "js"
    if base in ("mono", "dotnet") or base.endswith(".exe") or base.endswith(".dll"):
        return "csharp"
    return None


def _language_of_words(words: list[str], cwd: str, depth: int) -> str | None:
    while words and (os.path.basename(words[0]) in _WRAPPERS or _ASSIGN.match(words[0])):
        w = os.path.basename(words.pop(0))
        while words and (words[0].startswith("-") or _ASSIGN.match(words[0])
                         or (w in ("timeout", "nice", "taskset", "chrt") and words[0][:1].isdigit())):
            opt = words.pop(0)
            if opt in ("-n", "-s", "-k", "-c", "-p") and words and w != "env":
                words.pop(0)
    if not words:
        return None
    word = words[0]
    base = os.path.basename(word)
    if base in _SHELLS:
        args = words[1:]
        if "-c" in args and args.index("-c") + 1 < len(args):
            return language_of(args[args.index("-c") + 1], cwd, depth + 1)
        script = next((a for a in args if not a.startswith("-")), None)
        return _language_of_file(script, cwd, depth, shell=True) if script else None
    lang = _by_name(word)
    if lang is not None:
        return lang
    if base in _BUILTINS:
        return None
    return _language_of_file(word, cwd, depth)


def _language_of_file(word: str, cwd: str, depth: int, shell: bool = False) -> str | None:
    """The language of the program file ``word``: by its extension, its ``#!`` line (a shell
    script is read for the program it runs), or ``cpp`` for a native executable."""
    if os.sep in word or shell:
        path = word if os.path.isabs(word) else os.path.join(cwd, word)
    else:
        path = shutil.which(word) or ""
    if not path or not os.path.isfile(path):
        return None
    if word.endswith(".sh"):
        shell = True
    try:
        with open(path, "rb") as f:
            text = f.read(65536)
    except OSError:
        return None
    if text.startswith(b"\x7fELF") or text.startswith(b"MZ") or text.startswith((b"\xcf\xfa\xed\xfe", b"\xfe\xed")):
        return "cpp"
    first, _, rest = text.partition(b"\n")
    if first.startswith(b"#!"):
        parts = first[2:].decode("utf-8", "replace").split()
        if parts and os.path.basename(parts[0]) == "env":
            parts = [p for p in parts[1:] if not p.startswith("-") and not _ASSIGN.match(p)]
        if parts and os.path.basename(parts[0]) not in _SHELLS:
            return _by_name(parts[0]) or ("cpp" if parts else None)
        shell = True
    if shell and depth < 4:
        return language_of(text.decode("utf-8", "replace"), os.path.dirname(path) or cwd, depth + 1)
    return None


def language_of(command: str, cwd: str | None = None, depth: int = 0) -> str | None:
    """The language of the program a shell command finally runs (a key of
    :data:`LANGUAGE_FACTORS`), or ``None`` if it cannot be seen.

    The command is read as Botzone's process model would run it: the last simple command that runs
    a program wins (``cd bot && python3 main.py`` is Python), ``cd`` moves where relative paths are
    looked for, wrappers (``exec``, ``env``, ``timeout 5``, ``nice``...) and ``VAR=value`` are
    skipped, a shell script (``sh run.sh``, ``./run.sh``, a ``#!/bin/sh`` file) is read for the
    program it runs, a program file by its extension or ``#!`` line (a console script such as
    ``majiang`` is Python), a native executable is ``cpp``."""
    here = cwd or os.getcwd()
    found = None
    for seg in re.split(r"&&|\|\||;|\n|\|", command):
        try:
            words = shlex.split(seg, comments=True)
        except ValueError:
            words = seg.split()
        while words and _ASSIGN.match(words[0]):
            words.pop(0)
        if not words:
            continue
        if words[0] == "cd":
            target = os.path.expanduser(words[1]) if len(words) > 1 else os.path.expanduser("~")
            here = target if os.path.isabs(target) else os.path.join(here, target)
            continue
        lang = _language_of_words(words, here, depth)
        if lang is not None:
            found = lang
    return found


def language_factor(command: str) -> float:
    """Botzone's time factor for the language a command runs (wiki *Bot*: C/C++ 1, Java 3,
    C# 6, JavaScript 2, Python 6; :func:`language_of`); 1 when the language cannot be seen."""
    return LANGUAGE_FACTORS.get(language_of(command) or "cpp", 1.0)
