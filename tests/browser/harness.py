"""A tiny test harness for Arena's browser tests: it needs nothing but Playwright (no pytest).

    from harness import test, run, Server, add_user, browser, shot

    @test
    def home_page_lists_tournaments():
        with Server() as srv, browser() as b:
            page = b.new_page()
            page.goto(srv.url + "/")
            shot(page, "home")
            assert "Tournaments" in page.title()

    if __name__ == "__main__":
        run()

The arena binary comes from the environment variable ARENA. `run` prints one line per test and ends with
cargo's summary line (`test result: ok. N passed; M failed; 0 ignored`); it exits non-zero on failure.
Playwright drives the system chromium (/usr/bin/chromium, see scripts/setup-browser.sh).
"""

import contextlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.error
import urllib.request

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TEST_TIMEOUT = float(os.environ.get("BROWSER_TEST_TIMEOUT", "120"))  # seconds per test
SERVER_START_TIMEOUT = 30.0

_tests = []
_live_servers = set()  # servers between __enter__ and __exit__, killed when their test times out
_server_logs = {}  # test thread -> stderr of its servers that stopped during a failure, for the report
# Set while a test fails, so the servers it started print their stderr as they stop.
_state = threading.local()


def test(fn):
    """Registers a test; `run()` without arguments runs every registered test, in order."""
    _tests.append(fn)
    return fn


def arena_binary():
    arena = os.environ.get("ARENA")
    if not arena:
        raise RuntimeError("set ARENA to the path of the arena binary")
    return arena


def add_user(arena, data, name, admin=False):
    """Runs `arena user add --data DATA NAME [--admin]` and returns the token it prints."""
    cmd = [arena, "user", "add", "--data", str(data), name] + (["--admin"] if admin else [])
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({out.returncode}):\n{out.stdout}{out.stderr}")
    for line in out.stdout.splitlines():
        if "token" in line.lower() and line.split():
            return line.split()[-1]
    raise RuntimeError(f"no token in the output of {' '.join(cmd)}:\n{out.stdout}{out.stderr}")


class Server:
    """`arena serve` on a free loopback port, for the duration of a `with` block.

    `data` is the data directory (a fresh temporary one, removed at the end, when not given); `url` is
    `http://127.0.0.1:PORT`. The process is killed at the end; its stderr is printed when the block
    ends with an exception or the current test fails.
    """

    def __init__(self, data=None, arena=None, extra_args=()):
        self.arena = arena or arena_binary()
        self._own_data = data is None
        self.data = data or tempfile.mkdtemp(prefix="arena-browser-")
        self.extra_args = list(extra_args)
        self.port = None
        self.url = None
        self.proc = None
        self._stderr = None
        self._stopped = False

    def add_user(self, name, admin=False):
        return add_user(self.arena, self.data, name, admin)

    def __enter__(self):
        # The server binds port 0 and says where it listens on its first line: no other server can
        # take the port between its choice and its use.
        self._stderr = tempfile.TemporaryFile()
        cmd = [self.arena, "serve", "--data", str(self.data), "--listen", "127.0.0.1:0"]
        self.proc = subprocess.Popen(cmd + self.extra_args, stdout=subprocess.DEVNULL, stderr=self._stderr)
        self._thread = threading.current_thread()
        _live_servers.add(self)
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        while True:
            if self.proc.poll() is not None:
                self._stop(failed=True)
                raise RuntimeError(f"arena serve exited with {self.proc.returncode} before answering")
            if self.url is None:
                found = re.search(r"http://127\.0\.0\.1:(\d+)/", self.stderr())
                if found:
                    self.port = int(found.group(1))
                    self.url = f"http://127.0.0.1:{self.port}"
            if self.url is not None:
                try:
                    with urllib.request.urlopen(self.url + "/", timeout=2):
                        break
                except urllib.error.HTTPError:
                    break  # it answers, even if with an error status
                except (urllib.error.URLError, OSError):
                    pass
            if time.monotonic() > deadline:
                self._stop(failed=True)
                raise RuntimeError(f"arena serve did not answer GET / within {SERVER_START_TIMEOUT:.0f} s")
            time.sleep(0.1)
        return self

    def stderr(self):
        """What the server wrote to stderr so far (safe while it runs: read with pread, because the
        server writes through the same file offset, which a seek would move)."""
        if self._stderr is None:
            return ""
        fd = self._stderr.fileno()
        return os.pread(fd, os.fstat(fd).st_size, 0).decode("utf-8", "replace")

    def _stop(self, failed):
        if self._stopped:
            return
        self._stopped = True
        _live_servers.discard(self)
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        if failed:
            text = f"---- arena serve stderr ({self.url}) ----\n{self.stderr()}---- end of stderr ----\n"
            logs = _server_logs.get(self._thread)
            if logs is None:  # not inside run(): print it now
                print(text, end="", file=sys.stderr)
            else:
                logs.append(text)
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None
        if self._own_data:
            shutil.rmtree(self.data, ignore_errors=True)

    def __exit__(self, exc_type, exc, tb):
        self._stop(failed=exc_type is not None or getattr(_state, "failed", False))
        return False


@contextlib.contextmanager
def browser():
    """A headless system chromium driven by Playwright; yields the Browser and closes it at the end."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def shot(page, name, full_page=True):
    """Saves a screenshot to $SCREENSHOT_DIR/NAME.png when SCREENSHOT_DIR is set; returns its path.

    full_page=False keeps only the viewport (for pages too long to capture whole, e.g. a big live tournament)."""
    directory = os.environ.get("SCREENSHOT_DIR")
    if not directory:
        return None
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"{name}.png")
    page.screenshot(path=path, full_page=full_page)
    return path


def _run_one(fn, timeout):
    """Runs fn in a thread; returns None on success or the failure's text."""
    outcome = {}

    def body():
        _state.failed = False
        try:
            fn()
        except BaseException:  # noqa: BLE001 - every failure is reported
            _state.failed = True
            outcome["error"] = traceback.format_exc()

    thread = threading.Thread(target=body, name=fn.__name__, daemon=True)
    _server_logs[thread] = logs = []
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        for server in [s for s in list(_live_servers) if s._thread is thread]:
            server._stop(failed=True)
        outcome["error"] = f"timed out after {timeout:.0f} s\n"
    del _server_logs[thread]
    if "error" not in outcome:
        return None
    return outcome["error"] + "".join(logs)


def run(tests=None, timeout=TEST_TIMEOUT):
    """Runs the tests (every registered test when None), prints cargo-style results, exits 1 on failure.

    Command-line arguments filter the tests by substring of their names, as cargo test does.
    """
    tests = list(_tests if tests is None else tests)
    filters = [a for a in sys.argv[1:] if not a.startswith("-")]
    if filters:
        tests = [t for t in tests if any(f in t.__name__ for f in filters)]
    print(f"\nrunning {len(tests)} test{'' if len(tests) == 1 else 's'}", flush=True)
    passed, failures = 0, []
    for fn in tests:
        started = time.monotonic()
        error = _run_one(fn, timeout)
        took = time.monotonic() - started
        if error is None:
            passed += 1
            print(f"test {fn.__name__} ... ok ({took:.1f} s)", flush=True)
        else:
            failures.append(fn.__name__)
            print(f"test {fn.__name__} ... FAILED ({took:.1f} s)\n{error}", flush=True)
    if failures:
        print("\nfailures:\n" + "".join(f"    {name}\n" for name in failures))
    status = "FAILED" if failures else "ok"
    print(f"\ntest result: {status}. {passed} passed; {len(failures)} failed; 0 ignored", flush=True)
    sys.exit(1 if failures else 0)
