#!/usr/bin/env python3
"""Drives `storeclient inspect`'s page in headless Chromium, with the standard library only.

Chromium is controlled through the DevTools protocol over a pipe (--remote-debugging-pipe:
JSON messages separated by NUL bytes on file descriptors 3 and 4), so neither a WebSocket
client nor any package is needed.

    drive_inspector.py check URL             the checks the browser test makes (see below)
    drive_inspector.py check --host-restart URL
                                             … then prints `waiting for the host to restart`
                                             and checks the page comes back by itself
    drive_inspector.py screenshot URL FILE   a PNG of the page once it shows live data

URL is the one `storeclient inspect` printed (with its token). `check` verifies, as a person
would see it: the page shows the counter's state; an increment sent from the dispatch box is
acknowledged, appears in the state (the changed value flashes, and only it) and in the action
log; an action the counter does not take shows the host's error; the entry's change reads
`/count: N → N+1`; clicking an entry shows the state at its revision (read-only) while the
live state moves on; the scope list names the ids of `todos/{id}` and follows the list when a
to-do is added; the `_host` charts show live figures; a browser without the token is refused
(403); the page threw no JavaScript error. With --host-restart, whoever runs it restarts the
host once the line `waiting for the host to restart` is printed: the page must say the host
is unreachable, then show the new host's state without being reloaded.

Exit status: 0 when everything held, 1 when a check failed (the reason is printed), 2 when
Chromium could not be started (the caller decides whether that is a skip).
"""

import argparse
import base64
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse


class CheckFailed(Exception):
    pass


class ChromiumUnavailable(Exception):
    pass


def find_chromium():
    for name in [os.environ.get("CHROMIUM"), "chromium", "chromium-browser", "google-chrome"]:
        if name and shutil.which(name):
            return shutil.which(name)
    raise ChromiumUnavailable("no chromium on PATH (install Debian's `chromium`, or set CHROMIUM)")


class Browser:
    """One headless Chromium, driven over the DevTools pipe."""

    def __init__(self, width=1360, height=860):
        self.profile = tempfile.mkdtemp(prefix="inspector-chromium-")
        to_chromium_read, self.to_chromium = os.pipe()
        self.from_chromium, from_chromium_write = os.pipe()

        def descriptors():
            # Chromium reads commands on 3 and writes answers on 4. Copied out of the way
            # first (the pipes may already be 3 and 4), then into place, inheritable.
            read_end, write_end = os.dup(to_chromium_read), os.dup(from_chromium_write)
            os.dup2(read_end, 3)
            os.dup2(write_end, 4)

        arguments = [
            find_chromium(), "--headless", "--remote-debugging-pipe", "--no-first-run",
            "--no-default-browser-check", "--disable-gpu", "--disable-dev-shm-usage",
            "--disable-extensions", "--hide-scrollbars", "--mute-audio",
            # The sandbox needs user namespaces, which containers (and root) often lack; the
            # pages loaded are the inspector's own, on loopback.
            "--no-sandbox",
            f"--user-data-dir={self.profile}", f"--window-size={width},{height}", "about:blank",
        ]
        try:
            self.process = subprocess.Popen(
                arguments, preexec_fn=descriptors, close_fds=False,
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        except OSError as error:
            raise ChromiumUnavailable(f"cannot start chromium: {error}")
        os.close(to_chromium_read)
        os.close(from_chromium_write)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        try:
            self.call("Browser.getVersion", timeout=60)
        except CheckFailed as error:
            raise ChromiumUnavailable(f"chromium did not answer: {error}; {self.stderr_tail()}")

    def stderr_tail(self):
        if self.process.poll() is None:
            return "chromium is running"
        return self.process.stderr.read().decode(errors="replace")[-2000:]

    def close(self):
        try:
            self.call("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self.to_chromium)
        os.close(self.from_chromium)
        shutil.rmtree(self.profile, ignore_errors=True)

    def read_message(self, deadline):
        while b"\0" not in self.buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise CheckFailed("chromium did not answer in time")
            ready, _, _ = select.select([self.from_chromium], [], [], remaining)
            if not ready:
                continue
            chunk = os.read(self.from_chromium, 1 << 20)
            if not chunk:
                raise CheckFailed("chromium exited: " + self.stderr_tail())
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=None, timeout=60):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_chromium, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            answer = self.read_message(deadline)
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise CheckFailed(f"{method}: {answer['error']}")
                return answer.get("result", {})
            self.events.append(answer)


class Tab:
    """A page in its own browser context (its own cookies)."""

    def __init__(self, browser, url):
        self.browser = browser
        context = browser.call("Target.createBrowserContext")["browserContextId"]
        target = browser.call(
            "Target.createTarget", {"url": "about:blank", "browserContextId": context})
        self.session = browser.call(
            "Target.attachToTarget", {"targetId": target["targetId"], "flatten": True}
        )["sessionId"]
        self.call("Runtime.enable")
        self.call("Page.enable")
        self.call("Page.navigate", {"url": url})

    def call(self, method, params=None, timeout=60):
        return self.browser.call(method, params, session=self.session, timeout=timeout)

    def evaluate(self, expression):
        result = self.call(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in result:
            raise CheckFailed(f"evaluating {expression!r}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, what, expression, timeout=90):
        # Generous: a loaded 2-core CI machine runs Chromium, the host and the inspector at once.
        deadline = time.monotonic() + timeout
        value = None
        while time.monotonic() < deadline:
            try:
                value = self.evaluate(expression)
            except CheckFailed as error:  # the page may still be loading
                value = f"({error})"
            else:
                if value:
                    return value
            time.sleep(0.1)
        raise CheckFailed(f"timed out waiting until {what} (last value {value!r})\n"
                          f"page text:\n{self.evaluate('document.body.innerText')}")

    def errors(self):
        """JavaScript exceptions and console errors of this tab so far."""
        found = []
        for event in self.browser.events:
            if event.get("sessionId") != self.session:
                continue
            if event.get("method") == "Runtime.exceptionThrown":
                details = event["params"]["exceptionDetails"]
                found.append(details.get("exception", {}).get("description") or details.get("text"))
            elif event.get("method") == "Runtime.consoleAPICalled" and event["params"]["type"] == "error":
                found.append(" ".join(str(a.get("value", a.get("description"))) for a in event["params"]["args"]))
        return found


def count_expression():
    return ("(() => { const e = document.querySelector('#state [data-path=\"/count\"] .value');"
            " return e ? Number(e.textContent) : null; })()")


def dispatch_error_from_the_page(tab, action):
    """Sends an action the scope does not take from the dispatch box; returns the error shown."""
    tab.evaluate(
        "(() => { document.getElementById('action').value = " + json.dumps(json.dumps(action)) +
        "; document.getElementById('send').click(); return true; })()")
    return tab.wait_for(
        "the dispatch box shows the host's error",
        "(() => { const r = document.getElementById('dispatch-result');"
        " return r.className === 'error' ? r.textContent : null; })()")


def send_from_the_page(tab, action):
    tab.evaluate(
        "(() => { document.getElementById('action').value = " + json.dumps(json.dumps(action)) +
        "; document.getElementById('send').click(); return true; })()")
    text = tab.wait_for(
        "the dispatch is acknowledged",
        "(() => { const t = document.getElementById('dispatch-result').textContent;"
        " return t.startsWith('acknowledged') || t.includes(':') && !t.startsWith('sending') ? t : null; })()")
    if not text.startswith("acknowledged: rev "):
        raise CheckFailed(f"the dispatch was not acknowledged: {text}")
    return int(text.split("rev ")[1])


def check(browser, url, host_restart=False):
    tab = Tab(browser, url)
    tab.wait_for("the page is connected to the host",
                 "document.getElementById('connection').textContent === 'connected'")
    count = tab.wait_for("the counter's state shows",
                         f"(() => {{ const c = {count_expression()}; return c === null ? null : [c]; }})()")[0]
    print(f"ok: the page shows the counter's state (count {count})")

    rev = send_from_the_page(tab, {"incrementButtonTapped": {}})
    tab.wait_for(f"the state shows count {count + 1}", f"{count_expression()} === {count + 1}")
    print(f"ok: the increment sent from the page was acknowledged (rev {rev}) and the state shows count {count + 1}")
    # The value the patch changed is drawn highlighted (the class stays until the next patch).
    if not tab.evaluate("document.querySelector('#state [data-path=\"/count\"]').classList.contains('flash')"):
        raise CheckFailed("the changed /count did not flash")
    if tab.evaluate("document.querySelectorAll('#state .flash').length") != 1:
        raise CheckFailed("values the patch did not change flashed too")
    print("ok: the changed value flashed, and only it")
    error = dispatch_error_from_the_page(tab, {"noSuchAction": {}})
    if not error.startswith("bad_action: "):
        raise CheckFailed(f"an action the counter does not take showed {error!r}")
    print(f"ok: an action the counter does not take shows the host's error: {error}")

    entry = f"document.querySelector('#log li[data-rev=\"{rev}\"]')"
    text = tab.wait_for(f"the log lists rev {rev}", f"{entry} && {entry}.innerText")
    if "incrementButtonTapped" not in text or "counter" not in text:
        raise CheckFailed(f"the log entry of rev {rev} reads {text!r}")
    print("ok: the action log lists it: " + " ".join(text.replace("▸", "").split()))

    tab.evaluate(f"{entry}.querySelector('.expand').click()")
    change = tab.wait_for(
        "the entry's change shows",
        f"(() => {{ const c = {entry}.querySelector('.change'); return c && !c.textContent.includes('loading') ? c.textContent : null; }})()")
    if f"/count: {count} → {count + 1}" not in change:
        raise CheckFailed(f"the change of rev {rev} reads {change!r}")
    print(f"ok: its change reads /count: {count} → {count + 1}")

    later = send_from_the_page(tab, {"incrementButtonTapped": {}})
    tab.wait_for(f"the state shows count {count + 2}", f"{count_expression()} === {count + 2}")
    tab.evaluate(f"{entry}.querySelector('.line').click()")
    tab.wait_for(f"the page shows the state at rev {rev}",
                 f"!document.getElementById('travel-banner').hidden && "
                 f"document.getElementById('travel-banner').textContent.includes('rev {rev}') && "
                 f"{count_expression()} === {count + 1}")
    print(f"ok: clicking the entry shows count {count + 1} at rev {rev} (read-only) while the live state is at rev {later}")
    tab.evaluate("document.getElementById('back-to-live').click()")
    tab.wait_for("the live state is back", f"{count_expression()} === {count + 2}")

    check_dispatch_offers_actions(tab)
    check_effect_actions_named_as_log_names_them(tab)
    check_scope_list(tab)
    check_charts(tab)

    if host_restart:
        # The host may be back before a poll would see it gone: record every state the
        # connection badge shows.
        tab.evaluate(
            "(() => { window.badgeStates = []; const badge = document.getElementById('connection');"
            " new MutationObserver(() => window.badgeStates.push(badge.textContent))"
            ".observe(badge, { childList: true, characterData: true, subtree: true }); return true; })()")
        print("waiting for the host to restart", flush=True)
        tab.wait_for("the page says the host is unreachable",
                     "window.badgeStates.some((s) => s.startsWith('host unreachable'))",
                     timeout=120)
        tab.wait_for("the page is connected again",
                     "document.getElementById('connection').textContent === 'connected'", timeout=120)
        tab.wait_for("the restarted host's state shows", f"{count_expression()} !== null")
        again = send_from_the_page(tab, {"incrementButtonTapped": {}})
        now = tab.wait_for("the state moves on", f"{count_expression()}")
        tab.wait_for(f"the log lists rev {again} of the new host",
                     f"document.querySelector('#log li[data-rev=\"{again}\"]') !== null")
        print(f"ok: after the host restarted the page reconnected by itself; an increment (rev {again}) shows count {now}")

    errors = tab.errors()
    if errors:
        raise CheckFailed("the page reported JavaScript errors: " + "; ".join(errors))

    parts = urllib.parse.urlsplit(url)
    bare = urllib.parse.urlunsplit((parts.scheme, parts.netloc, "/", "", ""))
    stranger = Tab(browser, bare)
    body = stranger.wait_for("the page without the token answers",
                             "document.body && document.body.innerText")
    if "needs the token" not in body:
        raise CheckFailed(f"a browser without the token was not refused; it read: {body!r}")
    print("ok: a browser without the token is refused")


def check_dispatch_offers_actions(tab):
    """The dispatch box offers the counter's actions; choosing one fills the box with its JSON."""
    names = tab.wait_for(
        "the dispatch box offers the counter's actions",
        "(() => { const s = document.getElementById('action-forms');"
        " const n = [...s.options].map((o) => o.textContent);"
        " return !s.hidden && n.includes('incrementButtonTapped') ? n : null; })()")
    value = tab.evaluate(
        "(() => { const s = document.getElementById('action-forms');"
        " s.value = JSON.stringify({ incrementButtonTapped: {} });"
        " s.dispatchEvent(new Event('change')); return document.getElementById('action').value; })()")
    if value != '{"incrementButtonTapped":{}}':
        raise CheckFailed(f"choosing incrementButtonTapped filled the box with {value!r}")
    print(f"ok: the dispatch box offers {len(names) - 1} actions of the counter; choosing one fills in its JSON")


def check_effect_actions_named_as_log_names_them(tab):
    """An effect's action reads as `storeclient log` writes it (`shop.productList.fetchProducts`),
    not as the root action's JSON."""
    text = tab.wait_for(
        "the log lists an effect's action",
        "(() => { const e = [...document.querySelectorAll('#log li')]"
        ".find((li) => li.querySelector('.origin').textContent === 'effect');"
        " return e ? e.querySelector('.action').textContent : null; })()")
    if text.startswith("{") or "." not in text.split(" ")[0]:
        raise CheckFailed(f"an effect's action reads {text!r}, not as storeclient log names it")
    print(f"ok: an effect's action reads {text!r}, as storeclient log names it")


def check_scope_list(tab):
    """The scope list names the ids of a collection scope, and follows the collection."""
    todo_buttons = "document.querySelectorAll('#scope-list button[data-scope^=\"todos/\"]').length"
    ids = tab.wait_for("the scope list shows the ids of todos/{id}", f"{todo_buttons} || null")
    status = tab.evaluate(
        "fetch('/api/send', { method: 'POST', headers: { 'Content-Type': 'application/json' },"
        " body: JSON.stringify({ scope: 'todos', action: { addTodoButtonTapped: {} } }) })"
        ".then((response) => response.status)")
    if status != 200:
        raise CheckFailed(f"adding a to-do through the page's API answered {status}")
    tab.wait_for(f"the scope list shows {ids + 1} to-dos", f"{todo_buttons} === {ids + 1}")
    print(f"ok: the scope list names the {ids} ids of todos/{{id}}, and {ids + 1} once a to-do is added")


def check_charts(tab):
    """The `_host` charts show live figures: the inspector's own connection, and the bytes
    its once-a-second reading of `_host` makes the host send."""
    figures = tab.wait_for(
        "the charts show the host's figures",
        "(() => { const v = (id) => document.getElementById(id).textContent;"
        " return Number(v('value-connections')) >= 1 && Number(v('value-bytes-out')) > 0"
        " ? [v('value-actions'), v('value-connections'), v('value-bytes-in'), v('value-bytes-out')]"
        " : null; })()")
    print("ok: the charts show actions/s {}, connections {}, bytes/s in {} out {}".format(*figures))


def screenshot(browser, url, path):
    tab = Tab(browser, url)
    tab.wait_for("the page is connected", "document.getElementById('connection').textContent === 'connected'")
    tab.wait_for("the state shows", f"{count_expression()} !== null")
    # Some activity for a few seconds, so that the log, the charts and a flash of the changed
    # value have something to show.
    for _ in range(12):
        send_from_the_page(tab, {"incrementButtonTapped": {}})
        time.sleep(0.5)
    tab.wait_for("the log shows entries", "document.querySelectorAll('#log li').length >= 3")
    first = "document.querySelector('#log li .expand')"
    tab.evaluate(f"{first}.click()")
    tab.wait_for("the change shows", "(() => { const c = document.querySelector('#log .change');"
                 " return c && !c.textContent.includes('loading'); })()")
    send_from_the_page(tab, {"incrementButtonTapped": {}})
    time.sleep(0.3)  # the changed value mid-flash
    data = tab.call("Page.captureScreenshot", {"format": "png"})["data"]
    with open(path, "wb") as file:
        file.write(base64.b64decode(data))
    print(f"wrote {path}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mode", choices=["check", "screenshot"])
    parser.add_argument("--host-restart", action="store_true",
                        help="check that the page follows a restart of the host (see above)")
    parser.add_argument("url")
    parser.add_argument("file", nargs="?")
    arguments = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # each line reaches a piped reader at once
    try:
        browser = Browser()
    except ChromiumUnavailable as error:
        print(f"chromium unavailable: {error}", file=sys.stderr)
        return 2
    try:
        if arguments.mode == "check":
            check(browser, arguments.url, arguments.host_restart)
        else:
            screenshot(browser, arguments.url, arguments.file or "inspector.png")
        return 0
    except CheckFailed as error:
        print(f"FAILED: {error}", file=sys.stderr)
        return 1
    finally:
        browser.close()


if __name__ == "__main__":
    sys.exit(main())
