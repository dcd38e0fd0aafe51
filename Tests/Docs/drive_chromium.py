#!/usr/bin/env python3
"""Opens an HTML page in a real headless Chromium and reports, as JSON, what a reader would see.

Chromium is driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`: requests on file
descriptor 3, answers and events on 4, each message JSON ended by a NUL byte), as Puppeteer does: no
port, no WebSocket library, nothing but the standard library. The page is loaded from its file; every
console error, uncaught exception and error log entry (a Content Security Policy violation is one) is
collected; text is typed into the search box as a user would (`Input.insertText` fires the input
event); the rows left visible are read back; a screenshot is taken.

usage: drive_chromium.py PAGE.html [--search TEXT] [--screenshot OUT.png] [--width 1280 --height 900]
"""
import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

CHROMIUM_NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]


def find_chromium():
    for name in CHROMIUM_NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    def __init__(self, executable, profile):
        to_child_read, self.to_child = os.pipe()
        self.from_child, from_child_write = os.pipe()

        def wire():
            # Move both ends above 4 first, so that placing them at 3 and 4 never overwrites the other.
            a = os.dup(to_child_read)
            b = os.dup(from_child_write)
            os.dup2(a, 3)
            os.dup2(b, 4)

        arguments = [
            executable, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
            "--user-data-dir=" + profile, "--no-first-run", "--no-default-browser-check", "--disable-extensions",
            "--disable-background-networking", "--disable-sync", "--disable-component-update",
            "--disable-dev-shm-usage", "--mute-audio", "--hide-scrollbars", "about:blank",
        ]
        self.process = subprocess.Popen(
            arguments, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=wire, pass_fds=(3, 4), close_fds=True)
        os.close(to_child_read)
        os.close(from_child_write)
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_child, json.dumps(message).encode() + b"\0")
        return self.wait_for(lambda m: m.get("id") == self.next_id)

    def receive(self, deadline):
        while b"\0" not in self.buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("Chromium did not answer in time")
            chunk = os.read(self.from_child, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed the pipe (exit status %s)" % self.process.poll())
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def wait_for(self, predicate, timeout=30):
        deadline = time.monotonic() + timeout
        for index, message in enumerate(self.events):
            if predicate(message):
                return self.events.pop(index)
        while True:
            message = self.receive(deadline)
            if predicate(message):
                if "error" in message:
                    raise RuntimeError("DevTools error: %s" % message["error"])
                return message
            self.events.append(message)

    def close(self):
        try:
            self.send("Browser.close")
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("page")
    parser.add_argument("--search")
    parser.add_argument("--screenshot")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=900)
    options = parser.parse_args()

    executable = find_chromium()
    if not executable:
        print("drive_chromium.py: no Chromium found (apt-get install chromium; .ci/run installs it)", file=sys.stderr)
        return 2
    profile = tempfile.mkdtemp(prefix="trackc-chromium-")
    browser = Browser(executable, profile)
    report = {"chromium": executable}
    try:
        target = browser.send("Target.createTarget", {"url": "about:blank"})["result"]["targetId"]
        session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["result"]["sessionId"]
        for domain in ("Runtime.enable", "Log.enable", "Page.enable"):
            browser.send(domain, session=session)
        browser.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": options.width, "height": options.height, "deviceScaleFactor": 1, "mobile": False}, session=session)
        url = "file://" + os.path.abspath(options.page)
        navigation = browser.send("Page.navigate", {"url": url}, session=session)["result"]
        if navigation.get("errorText"):
            raise RuntimeError("navigation failed: " + navigation["errorText"])
        browser.wait_for(lambda m: m.get("method") == "Page.loadEventFired" and m.get("sessionId") == session)

        def evaluate(expression):
            answer = browser.send("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session=session)
            result = answer["result"]
            if "exceptionDetails" in result:
                raise RuntimeError("script failed: %s" % result["exceptionDetails"])
            return result["result"].get("value")

        def await_promise(expression):
            answer = browser.send(
                "Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True}, session=session)
            result = answer["result"]
            if "exceptionDetails" in result:
                raise RuntimeError("script failed: %s" % result["exceptionDetails"])
            return result["result"].get("value")

        page_state = """JSON.stringify({
          title: document.title,
          scripts: document.scripts.length,
          images: document.images.length,
          injected: typeof window.__pwned !== "undefined",
          rows: document.querySelectorAll("tr[data-search]").length,
          visible: Array.from(document.querySelectorAll("tr[data-search]")).filter(r => r.offsetParent !== null)
            .map(r => r.querySelector(".event-id").textContent),
          visibleScreens: Array.from(document.querySelectorAll("section.screen")).filter(s => s.offsetParent !== null)
            .map(s => s.querySelector("h2").firstChild.textContent),
          status: document.getElementById("search-status").textContent,
          texts: Array.from(document.querySelectorAll("code, dt, td, h2, p")).map(e => e.textContent)
        })"""
        report["loaded"] = json.loads(evaluate(page_state))

        if options.search is not None:
            evaluate('document.getElementById("search").focus()')
            before = report["loaded"]["status"]
            browser.send("Input.insertText", {"text": options.search}, session=session)
            # The page filters shortly after the last keystroke: wait, in the page, for its status line to
            # change (a MutationObserver resolves the promise), and fail rather than read an unfiltered page.
            changed = await_promise("""new Promise((resolve, reject) => {
              const status = document.getElementById("search-status");
              if (status.textContent !== %s) { resolve(true); return; }
              const timer = setTimeout(() => reject(new Error("the search did not filter within 10 s")), 10000);
              new MutationObserver(() => { if (status.textContent !== %s) { clearTimeout(timer); resolve(true); } })
                .observe(status, {childList: true, characterData: true, subtree: true});
            })""" % (json.dumps(before), json.dumps(before)))
            if changed is not True:
                raise TimeoutError("the search did not filter")
            report["searched"] = json.loads(evaluate(page_state))
            del report["searched"]["texts"]

        if options.screenshot:
            evaluate('document.getElementById("search").blur(); window.scrollTo(0, 0)')
            shot = browser.send("Page.captureScreenshot", {"format": "png"}, session=session)["result"]["data"]
            with open(options.screenshot, "wb") as file:
                file.write(base64.b64decode(shot))
            report["screenshot"] = options.screenshot

        # Everything the page said while it was loaded and used: after two animation frames (so that what the
        # last action scheduled has run), one more round trip; DevTools delivers events in order, so every
        # message the page logged before it has arrived.
        await_promise("new Promise(resolve => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true))))")
        browser.send("Runtime.evaluate", {"expression": "0"}, session=session)
        errors = []
        for message in browser.events:
            method = message.get("method")
            params = message.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert", "warning"):
                errors.append("console.%s: %s" % (params["type"], " ".join(str(a.get("value", a.get("description"))) for a in params.get("args", []))))
            elif method == "Runtime.exceptionThrown":
                errors.append("exception: %s" % params.get("exceptionDetails", {}).get("text"))
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") in ("error", "warning"):
                errors.append("log: %s" % params["entry"].get("text"))
        report["consoleErrors"] = errors
    finally:
        browser.close()
        shutil.rmtree(profile, ignore_errors=True)
    json.dump(report, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
