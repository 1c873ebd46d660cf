"""Headless Chromium driven over the DevTools protocol, for tests that look at pages as a
person does. No package beyond the standard library: Chromium's `--remote-debugging-pipe`
speaks the protocol as NUL-terminated JSON on its file descriptors 3 (in) and 4 (out).

`Browser.open(url)` loads a page and records what went wrong on the way: console errors,
uncaught exceptions, failed requests and every request that is not to a local file.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FLAGS = (
    "--headless",
    "--no-sandbox",  # root in a container: Chromium's sandbox needs user namespaces
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
    "--window-size=1280,900",
    "--remote-debugging-pipe",
)
LOCAL = ("file:", "data:", "about:")


def executable() -> str | None:
    """Chromium as the distribution installs it (`apt-get install chromium`), if present."""
    override = os.environ.get("SPECGEN_CHROMIUM")
    if override:
        return override if os.access(override, os.X_OK) else None
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def _high(*fds: int) -> tuple[int, ...]:
    """The descriptors moved to 10 or above, so that putting one at 3 or 4 never overwrites another."""
    moved = tuple(fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in fds)
    for fd in fds:
        os.close(fd)
    return moved


class BrowserError(Exception):
    pass


@dataclass
class Problems:
    console: list[str] = field(default_factory=list)  # console errors and uncaught exceptions
    failed: list[str] = field(default_factory=list)  # requests that failed
    external: list[str] = field(default_factory=list)  # requests that left the machine's files

    def any(self) -> bool:
        return bool(self.console or self.failed or self.external)


class Browser:
    def __init__(self, path: str, timeout: float = 30.0) -> None:
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="specgen-chromium-")
        to_browser, self._write = _high(*os.pipe())
        self._read, from_browser = _high(*os.pipe())
        command = [path, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"]

        def give_pipes() -> None:  # in the child, before exec: the pipe ends as fds 3 and 4
            os.dup2(to_browser, 3)
            os.dup2(from_browser, 4)

        self.process = subprocess.Popen(
            command,
            pass_fds=(3, 4),
            preexec_fn=give_pipes,  # noqa: PLW1509 - the test process starts no threads that fork
            stdout=subprocess.DEVNULL,
            stderr=None if os.environ.get("SPECGEN_BROWSER_LOG") else subprocess.DEVNULL,
        )
        os.close(to_browser)
        os.close(from_browser)
        self._buffer = b""
        self._next = 0
        self._events: list[dict[str, Any]] = []
        self.problems = Problems()
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Network", "Log"):
            self.call(f"{domain}.enable", session=True)

    # ------------------------------------------------------------ the protocol

    def call(self, method: str, session: bool = False, **params: Any) -> dict[str, Any]:
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        os.write(self._write, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._receive()
            if reply.get("id") == self._next:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def _receive(self) -> dict[str, Any]:
        deadline = time.monotonic() + self.timeout
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._read], [], [], left)[0]:
                raise BrowserError("Chromium did not answer in time")
            chunk = os.read(self._read, 1 << 20)
            if not chunk:
                raise BrowserError("Chromium closed the connection")
            self._buffer += chunk
        raw, _, self._buffer = self._buffer.partition(b"\0")
        message = json.loads(raw)
        if "method" in message:
            self._note(message)
        return message

    def _note(self, event: dict[str, Any]) -> None:
        self._events.append(event)
        method, params = event["method"], event.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            self.problems.console.append(" ".join(str(a.get("value", a.get("description"))) for a in params["args"]))
        elif method == "Runtime.exceptionThrown":
            self.problems.console.append(params["exceptionDetails"].get("text", "exception"))
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            self.problems.console.append(params["entry"].get("text", ""))
        elif method == "Network.loadingFailed":
            self.problems.failed.append(params.get("errorText", "failed"))
        elif method == "Network.requestWillBeSent":
            url = params["request"]["url"]
            if not url.startswith(LOCAL):
                self.problems.external.append(url)

    def _wait_for(self, method: str) -> None:
        while True:
            if any(e["method"] == method for e in self._events):
                return
            self._receive()

    # ------------------------------------------------------------ what a test does

    def open(self, url: str) -> Problems:
        """Load `url` and wait for its load event; the problems met on the way."""
        self._events.clear()
        self.problems = Problems()
        self.call("Page.navigate", session=True, url=url)
        self._wait_for("Page.loadEventFired")
        self.evaluate("0")  # let the events of the load arrive
        return self.problems

    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", session=True, expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression}: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def press(self, key: str, code: str, key_code: int, shift: bool = False) -> None:
        for kind in ("rawKeyDown", "keyUp"):
            self.call(
                "Input.dispatchKeyEvent",
                session=True,
                type=kind,
                key=key,
                code=code,
                windowsVirtualKeyCode=key_code,
                modifiers=8 if shift else 0,
            )

    def type(self, text: str) -> None:
        self.call("Input.insertText", session=True, text=text)

    def screenshot(self, path: Path, full_page: bool = True) -> Path:
        shot = self.call("Page.captureScreenshot", session=True, format="png", captureBeyondViewport=full_page)
        path.write_bytes(base64.b64decode(shot["data"]))
        return path

    def close(self) -> None:
        with contextlib.suppress(BrowserError):
            self.call("Browser.close")
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._write)
        os.close(self._read)
        shutil.rmtree(self.profile, ignore_errors=True)
