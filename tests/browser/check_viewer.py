"""Checks the replay viewer (crates/web/assets/replay.js) on tests/browser/viewer_fixture.html and the page
script (crates/web/assets/arena.js) on a small page served here, in the system chromium.

    target/browser-venv/bin/python tests/browser/check_viewer.py [NAME_FILTER...]

Needs only scripts/setup-browser.sh (no arena binary). SCREENSHOT_DIR=DIR saves screenshots.
"""

import base64
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import unquote

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import browser, run, shot, test  # noqa: E402

HERE = Path(__file__).resolve().parent
ASSETS = HERE.parent.parent / "crates" / "web" / "assets"
FIXTURE = (HERE / "viewer_fixture.html").as_uri()
FIXTURE_DATA = json.loads(
    re.search(r'<script type="application/json" id="replay-data">(.*?)</script>',
              (HERE / "viewer_fixture.html").read_text(), re.S).group(1))


def open_viewer(b, suffix="", width=1200):
    """A page on the fixture (suffix: "?frames=1", "#step=3"...), recording dialogs and errors."""
    page = b.new_page(viewport={"width": width, "height": 900})
    page.dialogs, page.errors = [], []

    def on_dialog(d):
        page.dialogs.append(d.message)
        d.dismiss()

    page.on("dialog", on_dialog)
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and page.errors.append(m.text))
    page.goto(FIXTURE + suffix)
    page.wait_for_selector("#step-label")
    return page


def label(page):
    return page.text_content("#step-label")


def hash_of(page):
    return page.evaluate("location.hash")


def expect_step(page, n, total=4):
    page.wait_for_function(
        "want => document.getElementById('step-label').textContent === want", arg=f"Step {n} of {total}",
        timeout=5000)
    assert hash_of(page) == f"#step={n}", hash_of(page)
    assert page.eval_on_selector("#step-slider", "s => s.value") == str(n)


def clean(page):
    assert page.dialogs == [], f"dialogs fired: {page.dialogs}"
    assert page.errors == [], f"page errors: {page.errors}"


@test
def js_files_parse():
    node = shutil.which("node")
    assert node, "node is missing"
    for name in ["replay.js", "arena.js"]:
        out = subprocess.run([node, "--check", str(ASSETS / name)], capture_output=True, text=True)
        assert out.returncode == 0, f"node --check {name}:\n{out.stderr}"


@test
def steps_with_buttons_and_keyboard():
    with browser() as b:
        page = open_viewer(b)
        assert label(page) == "Step 0 of 4"
        page.click("#next")
        expect_step(page, 1)
        page.click("#next")
        expect_step(page, 2)
        page.click("#prev")
        expect_step(page, 1)
        page.click("#last")
        expect_step(page, 4)
        page.click("#next")  # at the end: nothing happens
        expect_step(page, 4)
        page.click("#first")
        expect_step(page, 0)
        page.click("#prev")
        expect_step(page, 0)
        page.locator("body").focus()
        page.keyboard.press("ArrowRight")
        expect_step(page, 1)
        page.keyboard.press("ArrowRight")
        expect_step(page, 2)
        page.keyboard.press("ArrowLeft")
        expect_step(page, 1)
        page.keyboard.press("End")
        expect_step(page, 4)
        page.keyboard.press("Home")
        expect_step(page, 0)
        page.fill("#step-slider", "3")
        expect_step(page, 3)
        assert page.text_content("#view") == "step 3"
        shot(page, "viewer-step-3")
        clean(page)


@test
def hash_selects_the_step():
    with browser() as b:
        page = open_viewer(b, "#step=3")
        expect_step(page, 3)
        assert page.text_content("#events") == "alice moves"
        page.evaluate("location.hash = '#step=1'")
        expect_step(page, 1)
        page.keyboard.press("ArrowRight")
        expect_step(page, 2)
        page.goto("about:blank")
        page.goto(FIXTURE + "#step=99")  # past the end: the last step
        expect_step(page, 4)
        clean(page)


@test
def untrusted_text_stays_text():
    with browser() as b:
        page = open_viewer(b, "#step=2")
        expect_step(page, 2)
        events = page.locator("#events li").all_text_contents()
        assert events == ["<script>alert(1)</script>", "bob is banned"], events
        assert page.locator("#events li").first.is_visible()
        assert page.text_content("#view") == "step 2 <b>not bold</b>"
        assert "<img src=x onerror=alert(2)>" in page.text_content("#calls tr.fault")
        logs = page.locator("#logs pre").all_text_contents()
        assert logs[0] == "hello from alice <b>bold</b>\nsecond line", logs
        assert page.locator("#logs pre").first.is_visible()
        assert "bob <i>the builder</i>" in page.text_content(".replay-header")
        assert "bob <i>the builder</i>: fuel in take-turn: ran out of fuel" in page.text_content("#result")
        # No element came from the data: no script, b, i or img besides the board.
        counts = page.evaluate("""() => ({
            script: document.querySelectorAll('#viewer script').length,
            b: document.querySelectorAll('#viewer b').length,
            i: document.querySelectorAll('#viewer i').length,
            img: document.querySelectorAll('#viewer img:not(#board)').length })""")
        assert counts == {"script": 0, "b": 0, "i": 0, "img": 0}, counts
        page.click("#prev")  # the svg frame, with a script inside the svg: an image cannot run it
        page.wait_for_selector("#board")
        time.sleep(0.3)
        clean(page)


@test
def board_image_on_the_svg_frame():
    with browser() as b:
        page = open_viewer(b)
        assert page.locator("#board").count() == 0
        page.click("#next")
        expect_step(page, 1)
        board = page.locator("#board")
        board.wait_for(state="visible")
        assert board.get_attribute("alt") == "board"
        src = board.get_attribute("src")
        prefix = "data:image/svg+xml;base64,"
        assert src.startswith(prefix), src[:60]
        assert base64.b64decode(src[len(prefix):]).decode("utf-8") == FIXTURE_DATA["frames"][1]["svg"]
        page.wait_for_function("() => document.getElementById('board').complete")
        assert page.eval_on_selector("#board", "i => i.naturalWidth") == 120
        shot(page, "viewer-board")
        page.click("#next")  # no svg
        expect_step(page, 2)
        assert page.locator("#board").count() == 0
        page.click("#next")  # svg: ""
        expect_step(page, 3)
        assert page.locator("#board").count() == 0
        clean(page)


@test
def calls_faults_and_totals():
    with browser() as b:
        page = open_viewer(b, "#step=1")
        expect_step(page, 1)
        row = page.locator("#calls tbody tr").first.locator("td").all_text_contents()
        assert row == ["alice (seat 0)", "take-turn", "1", '{"move":[1,2],"build":[2,2]}', "1,234", "1.5 ms"], row
        page.click("#next")
        expect_step(page, 2)
        fault = page.locator("#calls tr.fault")
        assert fault.count() == 1
        text = fault.text_content()
        assert text.startswith("fuel in take-turn: ran out of fuel after 1,000,000 units"), text
        assert page.evaluate("getComputedStyle(document.querySelector('#calls tr.fault')).backgroundColor") \
            != "rgba(0, 0, 0, 0)"
        cells = page.locator("#calls tbody tr").first.locator("td").all_text_contents()
        assert cells[0] == "bob <i>the builder</i> (seat 1)" and cells[4] == "1,000,000", cells
        # What the seat was asked in the call it failed, and what it printed, under the call (as text).
        asked = page.locator("#calls tr.request").text_content()
        assert asked.startswith("asked") and '"heaps":[3,4]' in asked and "<b>asked</b>" in asked, asked
        assert page.locator("#calls tr.request b").count() == 0
        assert "index out of bounds" in page.locator("#calls pre.call-output").text_content()
        # Numbers and call names never break mid-word; the output box wraps inside its panel.
        for cell in ["td.num", "td.call", "th"]:
            style = page.evaluate(f"getComputedStyle(document.querySelector('#calls {cell}')).whiteSpace")
            assert style == "nowrap", (cell, style)
        box = page.evaluate("(() => { const p = document.querySelector('#calls pre.call-output');"
                            " return [p.scrollWidth, p.clientWidth]; })()")
        assert box[0] <= box[1], f"the output box is clipped: {box}"
        page.click("#next")
        expect_step(page, 3)
        answer = page.locator("#calls td.answer").first
        full = json.dumps(FIXTURE_DATA["frames"][3]["lines"][0]["answer"], separators=(",", ":"))
        assert len(answer.text_content()) == 200 and answer.text_content().endswith("…")
        assert answer.get_attribute("title") == full
        totals = [r.locator("td").all_text_contents() for r in page.locator("#totals tbody tr").all()]
        assert totals == [["alice (seat 0)", "3", "3,239", "1.5 ms", "0"],
                          ["bob <i>the builder</i> (seat 1)", "1", "1,000,000", "–", "1"]], totals
        assert page.get_attribute("#download", "href") == "/replays/3/R1-M1-G1.jsonl"
        clean(page)


@test
def fault_steps_are_marked():
    with browser() as b:
        page = open_viewer(b)
        links = page.locator(".fault-link")
        assert links.all_text_contents() == ["fault at step 2"], links.all_text_contents()
        links.first.click()
        expect_step(page, 2)
        clean(page)


@test
def play_and_pause():
    with browser() as b:
        page = open_viewer(b)
        page.select_option("#speed", "8")
        page.click("#play")
        assert page.text_content("#play") == "Pause"
        page.wait_for_function("() => document.getElementById('step-label').textContent === 'Step 4 of 4'",
                               timeout=5000)
        page.wait_for_function("() => document.getElementById('play').textContent === 'Play'", timeout=2000)
        # Space plays (from the start again, being at the end) and pauses.
        page.locator("#view").click()
        page.select_option("#speed", "0.5")
        page.locator("#view").click()
        page.keyboard.press(" ")
        assert page.text_content("#play") == "Pause"
        expect_step(page, 0)
        page.keyboard.press(" ")
        assert page.text_content("#play") == "Play"
        # Not from a form field: Space in the speed select leaves play alone.
        page.focus("#speed")
        page.keyboard.press(" ")
        page.keyboard.press("Escape")
        assert page.text_content("#play") == "Play"
        clean(page)


@test
def a_single_step():
    with browser() as b:
        page = open_viewer(b, "?frames=1")
        assert label(page) == "Step 0 of 0"
        for button in ["#first", "#prev", "#next", "#last", "#play"]:
            page.click(button)
        page.keyboard.press("ArrowRight")
        assert label(page) == "Step 0 of 0"
        assert page.text_content("#play") == "Play"
        assert page.locator(".fault-link").count() == 0
        clean(page)


@test
def sparse_or_broken_data():
    script = (ASSETS / "replay.js").read_text()
    cases = [
        ('{"frames": [{}, {"step": 1, "lines": [{"seat": 5, "fault": "boom"}]}]}', "Step 0 of 1"),
        ('{"game": "nim", "players": ["a"], "frames": [{"step": 0}], "result": null, "logs": {}, '
         '"download": "javascript:alert(1)"}', "Step 0 of 0"),
        ("{not json", None),
        ('{"frames": []}', None),
    ]
    with browser() as b:
        page = b.new_page()
        errors, dialogs = [], []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        for data, want in cases:
            page.set_content('<div id="viewer"></div><script type="application/json" id="replay-data">'
                             + data + "</script>")
            page.add_script_tag(content=script)
            if want is None:
                assert page.locator("#viewer p.error").count() == 1, data
                continue
            assert label(page) == want, (data, label(page))
            page.keyboard.press("End")
            page.click("#play")
            assert page.locator("#download").count() == 0
            assert page.locator("#logs").count() == 0
        assert errors == [] and dialogs == [], (errors, dialogs)


@test
def fits_a_narrow_screen():
    with browser() as b:
        page = open_viewer(b, "#step=3", width=360)
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"{overflow} px of horizontal scrolling at 360 px"
        shot(page, "viewer-narrow")
        clean(page)


# --- arena.js -----------------------------------------------------------------------------------------

PAGE = """<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="/assets/arena.css">
</head><body data-live="/live"><nav><a href="/">Arena</a></nav><main>
<table class="sortable" id="standings"><thead><tr><th>Player</th><th>Score</th><th data-nosort>Note</th></tr></thead>
<tbody><tr><td>carol</td><td data-sort="10">ten</td><td>a</td></tr>
<tr><td>alice</td><td data-sort="9">nine</td><td>b</td></tr>
<tr><td>Bob</td><td data-sort="100">hundred</td><td>c</td></tr></tbody></table>
<div id="games">waiting</div>
<form method="get" action="/done" data-confirm="Really?"><button id="go">Go</button></form>
</main><script src="/assets/arena.js"></script></body></html>"""

UPDATES = [
    {"html": {"games": "<b id='g1'>game 1 &lt;done&gt;</b>"}, "done": False},
    {"html": {"games": "<b id='g2'>all done</b>", "nothing-here": "x"}, "done": True},
]


class Handler(http.server.BaseHTTPRequestHandler):
    live_requests = 0

    def log_message(self, *args):
        pass

    def send(self, body, kind):
        data = body.encode()
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        path = unquote(self.path.split("?")[0])
        if path == "/":
            self.send(PAGE, "text/html; charset=utf-8")
        elif path in ("/assets/arena.js", "/assets/arena.css"):
            kind = "text/javascript" if path.endswith(".js") else "text/css"
            self.send((ASSETS / path.rsplit("/", 1)[1]).read_text(), kind)
        elif path == "/done":
            self.send("<p id=done>submitted</p>", "text/html")
        elif path == "/live":
            Handler.live_requests += 1
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            for update in UPDATES:
                time.sleep(0.4)
                self.wfile.write(f"data: {json.dumps(update)}\n\n".encode())
                self.wfile.flush()
            time.sleep(0.5)
        else:
            self.send_error(404)


@test
def arena_js_sorts_confirms_and_updates():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        with browser() as b:
            page = b.new_page()
            dialogs, errors = [], []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(url + "/")
            assert page.text_content("#live-status") in ("live", "finished")
            # Live: two updates, then done.
            page.wait_for_selector("#games #g2", timeout=5000)
            page.wait_for_function("() => document.getElementById('live-status').textContent === 'finished'")
            assert page.text_content("#games") == "all done"
            time.sleep(1.5)  # closed: no reconnection
            assert Handler.live_requests == 1, Handler.live_requests
            # Sorting.
            names = lambda: page.locator("#standings tbody td:first-child").all_text_contents()  # noqa: E731
            page.click("#standings th:nth-child(1)")
            assert names() == ["alice", "Bob", "carol"], names()
            assert page.get_attribute("#standings th:nth-child(1)", "aria-sort") == "ascending"
            page.click("#standings th:nth-child(1)")
            assert names() == ["carol", "Bob", "alice"], names()
            assert page.get_attribute("#standings th:nth-child(1)", "aria-sort") == "descending"
            page.click("#standings th:nth-child(2)")  # by data-sort, numerically
            assert names() == ["alice", "carol", "Bob"], names()
            assert page.get_attribute("#standings th:nth-child(1)", "aria-sort") is None
            page.click("#standings th:nth-child(3)")  # data-nosort
            assert names() == ["alice", "carol", "Bob"], names()
            page.focus("#standings th:nth-child(2)")
            page.keyboard.press("Enter")
            assert names() == ["Bob", "carol", "alice"], names()
            # Confirmation: dismissed stays, accepted submits.
            page.once("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            page.click("#go")
            time.sleep(0.3)
            assert dialogs == ["Really?"] and page.url == url + "/", (dialogs, page.url)
            page.once("dialog", lambda d: (dialogs.append(d.message), d.accept()))
            page.click("#go")
            page.wait_for_selector("#done")
            assert errors == [], errors
    finally:
        server.shutdown()


if __name__ == "__main__":
    run(timeout=60)
