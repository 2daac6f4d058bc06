"""External bots as subprocesses: line I/O with deadlines, and the faults a judge charges.

:class:`LineProcess` starts a shell command in its own process group with pipes on stdin and
stdout (stderr goes to a file or is dropped), and reads stdout lines through a thread so a read
can time out. A bot that exits, hangs past its deadline or prints something that is not its
protocol raises :class:`BotFault` (``kind`` = ``"crash"``, ``"timeout"`` or ``"garbage"``); the
judges charge it and go on (:mod:`majiang.protocols.judge`, :mod:`majiang.tournament`).
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import threading
import time
from typing import IO

from majiang.errors import MajiangError


class BotFault(MajiangError):
    """A bot that crashed, timed out or answered outside its protocol.

    Attributes:
        kind: ``"crash"``, ``"timeout"``, ``"garbage"`` or ``"illegal"`` (a well-formed but
            illegal move, or a wrong win).
        seconds: time spent on the request that failed.
    """

    def __init__(self, message: str, *, kind: str, seconds: float = 0.0) -> None:
        super().__init__(message)
        self.kind = kind
        self.seconds = seconds


_EOF = object()


class LineProcess:
    """A running command spoken to line by line.

    Args:
        command: a shell command (``python3 mybot.py``).
        stderr: a writable file for the bot's stderr (default: discarded).
        cwd: the working directory.
    """

    def __init__(self, command: str, *, stderr: IO[str] | None = None, cwd: str | None = None) -> None:
        self.command = command
        try:
            self.proc = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=stderr if stderr is not None else subprocess.DEVNULL, text=True,
                                         bufsize=1, cwd=cwd, start_new_session=True)
        except OSError as e:
            raise BotFault(f"cannot start {command!r}: {e}", kind="crash") from None
        self.lines: queue.Queue = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        try:
            for line in self.proc.stdout:
                self.lines.put(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        self.lines.put(_EOF)

    def write(self, text: str) -> None:
        """Send ``text`` (a newline is added); :class:`BotFault` ``crash`` if the bot is gone."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(text if text.endswith("\n") else text + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise BotFault(f"{self.command!r} exited (exit status {self.proc.poll()})", kind="crash") from None

    def read_line(self, deadline: float) -> str | None:
        """The next output line, or ``None`` at end of output (the bot exited). :class:`BotFault`
        ``timeout`` if nothing comes before ``deadline`` (a :func:`time.monotonic` value)."""
        left = deadline - time.monotonic()
        try:
            item = self.lines.get(timeout=max(left, 0.0)) if left > 0 else self.lines.get_nowait()
        except queue.Empty:
            raise BotFault(f"{self.command!r} gave no answer in time", kind="timeout") from None
        if item is _EOF:
            self.lines.put(_EOF)
            return None
        return item

    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self) -> None:
        """Stop the process and its children (its own process group)."""
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


def _interpreter(word: str) -> str:
    """The interpreter named by the ``#!`` line of the program ``word`` (found on ``PATH`` if it
    has no directory), e.g. ``python3.11`` for a console script such as ``majiang``; "" if none."""
    import shutil

    path = shutil.which(word) if os.sep not in word else word
    if not path:
        return ""
    try:
        with open(path, "rb") as f:
            line = f.readline(256)
    except OSError:
        return ""
    if not line.startswith(b"#!"):
        return ""
    parts = line[2:].decode("utf-8", "replace").split()
    if parts and os.path.basename(parts[0]) == "env":
        parts = [p for p in parts[1:] if not p.startswith("-")]
    return os.path.basename(parts[0]) if parts else ""


def language_factor(command: str) -> float:
    """Botzone's time factor for the language a command runs (wiki *Bot*: C/C++ 1, Java 3,
    C# 6, JavaScript 2, Python 6): guessed from the command's first word, or from the ``#!`` line
    of the program it names (so ``majiang bot ...`` or ``./mybot`` with a Python ``#!`` get
    Python's allowance)."""
    word = command.strip().split()[0] if command.strip() else ""
    first = os.path.basename(word)
    if word and not first.startswith(("python", "pypy", "java", "node", "mono", "dotnet")):
        first = _interpreter(word) or first
    if first.startswith(("python", "pypy")) or first.endswith(".py"):
        return 6.0
    if first in ("java",) or first.endswith(".jar"):
        return 3.0
    if first in ("node", "nodejs", "deno", "bun") or first.endswith(".js"):
        return 2.0
    if first in ("mono", "dotnet"):
        return 6.0
    return 1.0
