#!/usr/bin/env python3
"""Times a command in a tmux pane, from launch to a screen matching every REGEX.

Used by scripts/bench-browse.sh for its timed waits (the browser's first screen, VisiData's).
It watches the pane through one tmux control-mode client (`tmux -C`): tmux reports each burst
of the pane's output (`%output`), and only then is the pane captured (`capture-pane`, sent down
the same client) and matched. A poll loop that starts a new tmux client for each capture (about
5 ms each) and sleeps between them sees a screen 5-15 ms late on average; this sees it within
about a millisecond of the output that drew it, the same for every program timed.

    tmux-first-screen.py --socket NAME --target SESSION [--timeout S] [--keys TEXT]... REGEX...

Each --keys TEXT is typed into the pane, in order, right after the clock starts (`{Enter}` is
the Enter key); without any, only the wait is timed. A REGEX matches any line of the screen, or
only line N when written `@N:REGEX`. Prints the seconds elapsed; exits 1 with the last screen
on stderr after --timeout seconds.
"""

import argparse
import re
import subprocess
import sys
import threading
import time


class ControlClient:
    """One `tmux -C attach` client: commands in on stdin, replies and notifications out."""

    def __init__(self, socket, target):
        self.process = subprocess.Popen(
            ["tmux", "-L", socket, "-C", "attach-session", "-t", target],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        self.pending = b""
        self.output_seen = False
        # The attach's own reply block comes first: read replies until this marker's.
        self.process.stdin.write(b"display-message -p tmux-first-screen-ready\n")
        while self.read_block() != [b"tmux-first-screen-ready"]:
            pass

    def readline(self):
        """The client's next line; notes a %output notification (see wait_output)."""
        while b"\n" not in self.pending:
            chunk = self.process.stdout.read(65536)  # unbuffered: whatever has arrived
            if not chunk:
                raise RuntimeError("tmux control client ended")
            self.pending += chunk
        line, _, self.pending = self.pending.partition(b"\n")
        if line.startswith(b"%output"):
            self.output_seen = True
        return line

    def command(self, text):
        """Sends one command and returns its reply lines; notes any %output seen meanwhile."""
        self.process.stdin.write(text.encode() + b"\n")
        return self.read_block()

    def read_block(self):
        """The next reply block's lines (between %begin and %end); raises on %error."""
        while not self.readline().startswith(b"%begin"):
            pass
        reply = []
        while True:
            line = self.readline()
            if line.startswith(b"%end") or line.startswith(b"%error"):
                if line.startswith(b"%error"):
                    raise RuntimeError("tmux: " + b"\n".join(reply).decode(errors="replace"))
                return reply
            reply.append(line)

    def wait_output(self):
        """Blocks until the pane outputs something (at once if it already did)."""
        while not self.output_seen:
            self.readline()
        self.output_seen = False

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=10)


def quoted(text):
    return "'" + text.replace("'", "'\\''") + "'"


def matches(screen, line, pattern):
    """Whether `pattern` matches line `line` of `screen` (from 1), or any line when None."""
    if line is None:
        return any(pattern.search(text) for text in screen)
    return line <= len(screen) and pattern.search(screen[line - 1]) is not None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--socket", required=True)
    parser.add_argument("--target", required=True)
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--keys", action="append", default=[])
    parser.add_argument("patterns", nargs="+")
    arguments = parser.parse_args()
    patterns = []  # (line number from 1, or None for any line; compiled pattern)
    for pattern in arguments.patterns:
        line = re.match(r"@([0-9]+):", pattern)
        if line:
            patterns.append((int(line.group(1)), re.compile(pattern[line.end():].encode())))
        else:
            patterns.append((None, re.compile(pattern.encode())))
    client = ControlClient(arguments.socket, arguments.target)
    capture = "capture-pane -p -t " + quoted(arguments.target)
    started = time.monotonic()
    for keys in arguments.keys:
        if keys == "{Enter}":
            client.command("send-keys -t %s Enter" % quoted(arguments.target))
        else:
            client.command("send-keys -t %s -l %s" % (quoted(arguments.target), quoted(keys)))
    deadline = started + arguments.timeout
    screen = []
    # A watchdog: tmux reports output, so a silent pane is only waited on until the deadline.
    timed_out = threading.Event()

    def expire():
        timed_out.set()
        client.process.kill()

    timer = threading.Timer(arguments.timeout, expire)
    timer.daemon = True
    timer.start()
    try:
        while True:
            screen = client.command(capture)
            if all(matches(screen, line, pattern) for line, pattern in patterns):
                elapsed = time.monotonic() - started
                break
            if time.monotonic() > deadline:  # output keeps coming, never the screen
                timed_out.set()
                raise RuntimeError("timeout")
            client.wait_output()
    except (RuntimeError, OSError) as error:  # OSError: the watchdog killed the client mid-write
        reason = "timeout after %g s" % arguments.timeout if timed_out.is_set() else str(error)
        sys.stderr.write("tmux-first-screen: %s waiting for: %s\n" % (reason, " ".join(arguments.patterns)))
        sys.stderr.write(b"\n".join(screen).decode(errors="replace") + "\n")
        sys.exit(1)
    timer.cancel()
    client.close()
    print("%.4f" % elapsed)


if __name__ == "__main__":
    main()
