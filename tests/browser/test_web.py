"""The web arena (`arena serve`) in a real browser: sign-in, uploads (good, looping, a taken name), the
JSON API's upload statuses, a tournament started by an admin and followed live, the replay viewer, private
events and player logs as spectators and owners see them, and the public pages.

    ARENA=target/debug/arena ARENA_PLAYERS=target/players target/browser-venv/bin/python tests/browser/test_web.py [NAME...]

One server serves the whole suite: its data directory is prepared once, before it starts (accounts, eight
pennies players submitted from the command line, a small stored round robin among them), and every test
works on it with names of its own. A test that needs more (an account's own player, a scrimmage) makes it
through the site. SCREENSHOT_DIR=DIR keeps screenshots of the main pages.
"""

import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Server, browser, run, shot, test  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = Path(os.environ.get("ARENA_PLAYERS") or ROOT / "target" / "players")

# The pennies referee's events that only the seats hear (games/pennies/referee/src/lib.rs): the
# varicast to both seats when a round closes, and the unicast of a seat's own choice.
PRIVATE_BOTH = re.compile(r"round \d+: both choices are in")
PRIVATE_OWN = re.compile(r"round \d+: you chose (heads|tails)")
# What pennies-loud prints into its log every round.
LOUD_LOG = "<script>alert('log')</script><b>bold</b> & <img src=x onerror=alert(1)>"

# The stored tournament the suite starts with: a round robin, one game a match, of these players.
SETUP_PENNIES = [f"pennies-heads-{i}" for i in range(1, 9)] + [f"pennies-alt-{i}" for i in range(1, 9)]
# The live tournament: games per match (the most the start form allows), so that it lasts seconds.
LIVE_GAMES_PER_MATCH = 99  # 16 players or more: ten seconds and more of games, several live updates (one a second)

SRV = None  # the suite's Server
TOKENS = {}  # account name -> token
SETUP_TOURNAMENT = None  # id of the stored round robin
PAGES = {}  # the tournaments `pages_tell_the_whole_story` looks at, by what they show


# --- Suite setup --------------------------------------------------------------------------------------

def arena(*args):
    out = subprocess.run([SRV.arena, *map(str, args)], capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        raise RuntimeError(f"arena {' '.join(map(str, args))} failed ({out.returncode}):\n{out.stdout}{out.stderr}")
    return out.stdout


def prepare(srv):
    """Accounts, pennies players and a stored tournament, written before the server starts."""
    global SETUP_TOURNAMENT
    TOKENS["root"] = srv.add_user("root", admin=True)
    for name in ["alice", "bob", "carol", "dave", "erin"]:
        TOKENS[name] = srv.add_user(name)
    for name in SETUP_PENNIES:
        kind = "heads" if "heads" in name else "alternate"
        arena("submit", "--game", "pennies", "--name", name, "--data", srv.data, PLAYERS / f"pennies-{kind}.wasm")
    out = arena("tournament", "--game", "pennies", "--format", "round-robin", "--registered", "--data", srv.data,
                "--games-per-match", 1, "--seed", 1)
    m = re.search(r"Stored as tournament (\d+)", out)
    assert m, f"no tournament id in:\n{out}"
    # Santorini: a player banned when the tournament starts (it traps in `start`), then a ladder of a
    # few games that stops by itself. Goofspiel: two players with one rated game each.
    for name, p in [("sant-minimax", "santorini-minimax"), ("sant-random", "santorini-random"),
                    ("sant-early-quitter", "santorini-early-quitter")]:
        arena("submit", "--game", "santorini", "--name", name, "--data", srv.data, PLAYERS / f"{p}.wasm")
    out = arena("tournament", "--game", "santorini", "--format", "round-robin", "--registered", "--data", srv.data,
                "--seed", 3)
    PAGES["santorini"] = int(re.search(r"Stored as tournament (\d+)", out).group(1))
    arena("ladder", "--game", "santorini", "--games", 3, "--seed", 4, "--data", srv.data)
    PAGES["ladder"] = max(t["id"] for t in json.loads(arena("tournaments", "--json", "--data", srv.data)))
    for name, p in [("fish-g1", "fish-greedy"), ("fish-r1", "fish-random"), ("fish-g2", "fish-greedy"),
                    ("fish-r2", "fish-random")]:
        arena("submit", "--game", "fish", "--name", name, "--data", srv.data, PLAYERS / f"{p}.wasm")
    out = arena("tournament", "--game", "fish", "--format", "rounds", "--registered", "--data", srv.data, "--seed", 6)
    PAGES["fish"] = int(re.search(r"Stored as tournament (\d+)", out).group(1))
    for name, p in [("goof-smart", "goofspiel-smart"), ("goof-random", "goofspiel-random")]:
        arena("submit", "--game", "goofspiel", "--name", name, "--data", srv.data, PLAYERS / f"{p}.wasm")
    out = arena("tournament", "--game", "goofspiel", "--format", "round-robin", "--registered", "--data", srv.data,
                "--games-per-match", 1, "--seed", 5)
    PAGES["goofspiel"] = int(re.search(r"Stored as tournament (\d+)", out).group(1))
    SETUP_TOURNAMENT = int(m.group(1))


# --- Helpers ------------------------------------------------------------------------------------------

def new_page(ctx):
    """A page that records dialogs (dismissing them), script errors and failed sub-resources (a page
    itself may answer 401 or 422 on purpose; its scripts, styles and live stream may not fail)."""
    page = ctx.new_page()
    page.set_default_timeout(20000)
    page.dialogs, page.errors = [], []

    def on_dialog(d):
        page.dialogs.append(d.message)
        d.dismiss()

    def on_console(m):
        if m.type == "error" and not m.text.startswith("Failed to load resource: the server responded"):
            page.errors.append(m.text)

    def on_response(r):
        if r.status >= 400 and r.request.resource_type != "document":
            page.errors.append(f"{r.request.method} {r.url}: {r.status}")

    page.on("dialog", on_dialog)
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("console", on_console)
    page.on("response", on_response)
    page.on("requestfailed", lambda r: r.resource_type != "document" and r.resource_type != "eventsource"
            and page.errors.append(f"{r.method} {r.url}: {r.failure}"))
    return page


def clean(page):
    assert page.dialogs == [], f"dialogs fired: {page.dialogs}"
    assert page.errors == [], f"script errors: {page.errors}"


def sign_in(b, user):
    """A fresh browser context signed in as `user` through the sign-in form; returns (context, page)."""
    ctx = b.new_context()
    page = new_page(ctx)
    page.goto(SRV.url + "/signin")
    page.fill("#signin-form input[name=token]", TOKENS[user])
    with page.expect_navigation():
        page.click("#signin-form button[type=submit]")
    assert page.url == SRV.url + "/upload", page.url
    assert page.text_content("#whoami").strip().startswith(user), page.text_content("#whoami")
    return ctx, page


def upload_page(page, game, name, path):
    """Uploads through /upload's form; returns (outcome, message, detail lines)."""
    page.goto(SRV.url + "/upload")
    page.select_option("#upload-form select[name=game]", game)
    page.fill("#upload-form input[name=name]", name)
    page.set_input_files("#upload-form input[type=file][name=file]", str(path))
    with page.expect_navigation():
        page.click("#upload-form button[type=submit]")
    result = page.wait_for_selector("section#upload-result")
    return (result.get_attribute("data-outcome"), page.text_content("#upload-message").strip(),
            [p.strip() for p in page.locator("section#upload-result p.meta").all_text_contents()])


def http(method, path, body=None, headers=None):
    """A request to the server: (status, headers, body bytes), error statuses included."""
    req = urllib.request.Request(SRV.url + path, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def get_json(path):
    status, _, body = http("GET", path)
    assert status == 200, f"GET {path}: {status} {body[:500]!r}"
    return json.loads(body)


def api_upload(game, name, path, token=None):
    """POST /api/players, multipart (game, name, file); returns (status, parsed JSON body)."""
    boundary = uuid.uuid4().hex
    parts = []
    for field, value in [("game", game), ("name", name)]:
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{field}"\r\n\r\n{value}\r\n'.encode())
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{Path(path).name}"\r\n'
                 f"Content-Type: application/wasm\r\n\r\n".encode() + Path(path).read_bytes() + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    headers = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    status, _, body = http("POST", "/api/players", b"".join(parts), headers)
    try:
        return status, json.loads(body)
    except ValueError:
        raise AssertionError(f"POST /api/players answered {status} with no JSON: {body[:500]!r}") from None


def leaderboard_names(page, game):
    page.goto(f"{SRV.url}/games/{game}")
    page.wait_for_selector("table#leaderboard")
    return page.eval_on_selector_all("table#leaderboard tbody tr[data-player]",
                                     "rows => rows.map(r => r.dataset.player)")


def replay_data(page):
    return json.loads(page.text_content("script#replay-data"))


def step_label(page):
    return page.text_content("#step-label")


def expect_step(page, n, total):
    page.wait_for_function("want => document.getElementById('step-label').textContent === want",
                           arg=f"Step {n} of {total}", timeout=5000)
    assert page.evaluate("location.hash") == f"#step={n}", page.evaluate("location.hash")


def rendered_events(page):
    """The events #events shows at every step, stepping from the first with the Next button."""
    page.click("#first")
    steps = []
    total = len(replay_data(page)["frames"])
    for i in range(total):
        if i:
            page.click("#next")
        steps.append(page.eval_on_selector_all("#events li:not(.muted)", "lis => lis.map(li => li.textContent)"))
    return steps


_scrimmage = {}


def carol_scrimmage(b):
    """carol's pennies-loud player (uploaded through the page) and one scrimmage it played, started
    from its player page: (player, tournament id, game key, opponent). Made once for the suite."""
    if _scrimmage:
        return _scrimmage["v"]
    ctx, page = sign_in(b, "carol")
    outcome, message, _ = upload_page(page, "pennies", "carol-loud", PLAYERS / "pennies-loud.wasm")
    assert outcome == "accepted", message
    page.goto(SRV.url + "/players/carol-loud")
    form = page.wait_for_selector("section.player-game[data-game=pennies] form.scrimmage")
    opponent = "pennies-heads-1"
    before = {p: len(get_json(f"/api/players/{p}")["games"][0]["rating_history"]) for p in ["carol-loud", opponent]}
    form.query_selector("select[name=opponent]").select_option(opponent)
    with page.expect_navigation():
        form.query_selector("button[type=submit]").click()
    m = re.fullmatch(re.escape(SRV.url) + r"/tournaments/(\d+)", page.url)
    assert m, f"the scrimmage did not lead to its tournament page: {page.url}"
    tid = int(m.group(1))
    # The store says when the game is over (a shared CI machine can be slow to play it); then the page,
    # followed live, says so too. What each showed is reported if either never does.
    deadline = time.monotonic() + 75
    while (t := get_json(f"/api/tournaments/{tid}")["tournament"])["status"] == "running":
        assert time.monotonic() < deadline, f"the scrimmage is still running after 75 s: {t}"
        time.sleep(0.2)
    try:
        page.wait_for_function("() => document.getElementById('status').textContent.trim() === 'finished'",
                               timeout=30000)
    except Exception:
        live = page.eval_on_selector("#live-status", "e => e.textContent") if page.query_selector("#live-status") else None
        raise AssertionError(f"the store says {t['status']}, the page says {page.text_content('#status')!r} "
                             f"(live updates: {live!r})")
    keys = page.eval_on_selector_all("#games-table tr[data-game]", "rows => rows.map(r => r.dataset.game)")
    assert len(keys) == 1, f"a scrimmage is one game, the page lists {keys}"
    assert "a scrimmage (unrated)" in page.text_content("main")
    assert get_json(f"/api/tournaments/{tid}")["tournament"]["rated"] is False
    after = {p: len(get_json(f"/api/players/{p}")["games"][0]["rating_history"]) for p in ["carol-loud", opponent]}
    assert after == before, f"an unrated scrimmage changed the rating histories: {before} -> {after}"
    clean(page)
    ctx.close()
    _scrimmage["v"] = ("carol-loud", tid, keys[0], opponent)
    return _scrimmage["v"]


# --- Tests --------------------------------------------------------------------------------------------

@test
def sign_in_refuses_a_bad_token_and_names_the_user():
    with browser() as b:
        page = new_page(b.new_context())
        page.goto(SRV.url + "/")
        assert page.is_visible("#signin-link")
        assert page.query_selector("#whoami") is None
        page.click("#signin-link")
        page.fill("#signin-form input[name=token]", "arena_" + "0" * 64)
        with page.expect_navigation() as nav:
            page.click("#signin-form button[type=submit]")
        assert nav.value.status == 401, nav.value.status
        assert "not valid" in page.text_content("#signin-error"), page.text_content("#signin-error")
        assert page.query_selector("#whoami") is None, "a bad token signed someone in"

        page.fill("#signin-form input[name=token]", TOKENS["alice"])
        with page.expect_navigation():
            page.click("#signin-form button[type=submit]")
        assert page.url == SRV.url + "/upload", page.url
        assert page.text_content("#whoami").strip() == "alice"
        assert page.query_selector("#signin-link") is None
        assert page.is_visible("#upload-form")
        page.goto(SRV.url + "/tournaments")  # still signed in on another page
        assert page.text_content("#whoami").strip() == "alice"
        assert page.query_selector("#start-tournament") is None, "a non-admin sees the start form"

        with page.expect_navigation():
            page.click("#signout")
        assert page.is_visible("#signin-link")
        assert page.query_selector("#whoami") is None
        page.goto(SRV.url + "/upload")
        assert page.query_selector("#upload-form") is None, "the upload form is shown after signing out"
        clean(page)

        _, admin = sign_in(b, "root")
        assert admin.text_content("#whoami").strip() == "root (admin)"


@test
def upload_a_good_player():
    with browser() as b:
        _, page = sign_in(b, "alice")
        outcome, message, details = upload_page(page, "nim", "alice-nim", PLAYERS / "nim-optimal.wasm")
        shot(page, "upload-accepted")
        assert outcome == "accepted", message
        assert "alice-nim version 1 of nim is registered" in message, message
        assert len(details) == 4, details
        size = (PLAYERS / "nim-optimal.wasm").stat().st_size
        assert re.fullmatch(rf"{size} bytes, sha256 [0-9a-f]{{64}}", details[0]), details[0]
        assert details[1].startswith("imports: "), details[1]
        assert re.search(r"validation game against \S+ \(seed \d+\): .* [\d,]+ fuel over \d+ calls", details[2]), \
            details[2]
        compiled = r"compiled (in [\d.]+ s|already|as quick code for its validation game in [\d.]+ s \(the same fuel; its " \
            r"code for games is being compiled now\))"
        assert re.fullmatch(compiled + r"; its validation game took [\d.]+ s", details[3]), details[3]
        # The form keeps the game just used, and its result links to the player's page.
        assert page.eval_on_selector("#upload-form select[name=game]", "s => s.value") == "nim"
        assert page.get_attribute("#result-link", "href") == "/players/alice-nim"
        mine = page.text_content("ul#my-players")
        assert "alice-nim (nim)" in mine, mine
        assert page.get_attribute("ul#my-players a:has-text('alice-nim')", "href") == "/players/alice-nim"

        assert "alice-nim" in leaderboard_names(page, "nim")
        page.click("tr[data-player=alice-nim] a")
        page.wait_for_selector("section.player-game[data-game=nim]")
        assert "Owned by alice" in page.text_content("p.meta")
        clean(page)


@test
def the_upload_form_names_no_game_by_default_and_says_it_is_busy():
    with browser() as b:
        _, page = sign_in(b, "alice")
        page.goto(SRV.url + "/upload")
        assert page.eval_on_selector("#upload-form select[name=game]", "s => s.value") == "", "a game chosen for you"
        # A submit event that sends nothing: the page says what is under way and holds the button.
        page.eval_on_selector("#upload-form", "f => f.dispatchEvent(new SubmitEvent('submit', {bubbles: true, cancelable: true}))")
        page.wait_for_selector("#upload-form .busy")
        busy = page.text_content("#upload-form .busy")
        assert busy.startswith("Uploading, compiling and playing its validation game") and busy.endswith("s)"), busy
        page.wait_for_function("() => document.querySelector('#upload-form button[type=submit]').disabled")
        page.set_viewport_size({"width": 390, "height": 844})
        shot(page, "upload-busy-phone")
        clean(page)


@test
def upload_a_looping_player_is_refused_for_fuel():
    with browser() as b:
        _, page = sign_in(b, "alice")
        outcome, message, details = upload_page(page, "yahtzee", "alice-loop", PLAYERS / "yahtzee-wat-loop.wat")
        shot(page, "upload-refused")
        assert outcome == "refused", (outcome, message)
        assert "failed its validation game" in message, message
        assert re.search(r"fuel in `\w[\w-]*`: used up its [\d,]+ fuel", message), message
        assert "nothing was stored" in message, message
        assert details == [], details
        mine = page.text_content("ul#my-players") if page.query_selector("ul#my-players") else ""
        assert "alice-loop" not in mine, mine
        assert "alice-loop" not in leaderboard_names(page, "yahtzee")
        assert http("GET", "/api/players/alice-loop")[0] == 404
        clean(page)


@test
def a_taken_name_is_refused_on_the_page_and_in_the_api():
    # alice takes a name through the API; bob cannot upload under it, on the page or through the API.
    status, body = api_upload("nim", "alice-taken", PLAYERS / "nim-optimal.wasm", TOKENS["alice"])
    assert status == 201, (status, body)
    with browser() as b:
        _, page = sign_in(b, "bob")
        outcome, message, _ = upload_page(page, "nim", "alice-taken", PLAYERS / "nim-optimal.wasm")
        assert outcome == "refused", (outcome, message)
        assert "belongs to account alice" in message, message
        clean(page)

    status, body = api_upload("nim", "bob-api", PLAYERS / "nim-optimal.wasm")
    assert status == 401, (status, body)
    assert body["error"]["code"] == "unauthorized" and "Authorization" in body["error"]["message"], body
    status, body = api_upload("nim", "bob-api", PLAYERS / "nim-optimal.wasm", "arena_" + "1" * 64)
    assert status == 401, (status, body)
    status, body = api_upload("nim", "alice-taken", PLAYERS / "nim-optimal.wasm", TOKENS["bob"])
    assert status == 403, (status, body)
    assert body["error"]["code"] == "forbidden" and "belongs to account alice" in body["error"]["message"], body
    status, body = api_upload("nim", "bob-api", PLAYERS / "nim-optimal.wasm", TOKENS["bob"])
    assert status == 201, (status, body)
    assert (body["name"], body["game"], body["version"], body["new_player"]) == ("bob-api", "nim", 1, True), body
    assert int(body["validation"]["fuel"]) > 0, body
    status, body = api_upload("yahtzee", "bob-loop", PLAYERS / "yahtzee-wat-loop.wat", TOKENS["bob"])
    assert status == 422, (status, body)
    assert "fuel" in body["error"]["message"], body

    # Nothing bob sent reached alice's player; bob's own one is on the leaderboard.
    taken = get_json("/api/players/alice-taken")
    assert taken["games"][0]["versions"] == 1, taken
    names = [row["name"] for row in get_json("/api/games/nim/leaderboard")]
    assert "bob-api" in names and "alice-taken" in names, names
    assert "bob-loop" not in [row["name"] for row in get_json("/api/games/yahtzee/leaderboard")]


@test
def admin_starts_a_tournament_and_watches_it_live():
    with browser() as b:
        _, page = sign_in(b, "root")
        page.goto(SRV.url + "/tournaments")
        form = page.wait_for_selector("#start-tournament")
        form.query_selector("select[name=game]").select_option("pennies")
        form.query_selector("select[name=format]").select_option("round-robin")
        form.query_selector("input[name=games_per_match]").fill(str(LIVE_GAMES_PER_MATCH))
        form.query_selector("input[name=seed]").fill("7")
        started = time.monotonic()
        with page.expect_navigation():
            form.query_selector("button[type=submit]").click()
        m = re.fullmatch(re.escape(SRV.url) + r"/tournaments/(\d+)", page.url)
        assert m, page.url
        tid = int(m.group(1))
        # The marker is gone if the page reloads; the observer notes every live replacement of the games.
        page.evaluate("""() => {
            window.__noReload = 1;
            window.__seen = [];
            const snap = () => {
                const count = document.getElementById('games-count');
                const played = [...document.querySelectorAll('#standings-table td.played')]
                    .reduce((sum, td) => sum + Number(td.textContent), 0);
                window.__seen.push({count: count ? parseInt(count.textContent, 10) : null, played});
            };
            snap();
            new MutationObserver(snap).observe(document.getElementById('game-list'), {childList: true});
        }""")
        live = page.get_attribute("body", "data-live")
        first = page.evaluate("window.__seen[0]")
        assert live == f"/tournaments/{tid}/live", \
            f"the tournament page is not live (data-live={live!r}, {first}): did it finish before the page loaded?"
        page.wait_for_function("() => window.__seen.some(s => s.count > 0)", timeout=30000)
        shot(page, "tournament-live", full_page=False)

        page.wait_for_function("() => document.getElementById('status').textContent.trim() === 'finished'",
                               timeout=90000)
        took = time.monotonic() - started
        page.wait_for_function("() => document.getElementById('live-status')?.textContent === 'finished'", timeout=5000)
        assert page.evaluate("window.__noReload") == 1, "the page reloaded"
        seen = page.evaluate("window.__seen")
        # The winner shows as soon as the tournament ends, without a reload.
        winner = get_json(f"/api/tournaments/{tid}")["tournament"]["winner"]
        assert winner and page.text_content("#winner").strip() == winner, (winner, page.text_content("main")[:300])

        t = get_json(f"/api/tournaments/{tid}")
        players = t["tournament"]["players"]
        total = players * (players - 1) // 2 * LIVE_GAMES_PER_MATCH
        assert t["tournament"]["status"] == "finished", t["tournament"]
        games = get_json(f"/api/tournaments/{tid}/games?limit=500")
        assert len(games["games"]) == min(total, 500), (len(games["games"]), total)
        assert t["tournament"]["games"] == total, (t["tournament"]["games"], total)

        counts = [s["count"] for s in seen]
        played = [s["played"] for s in seen]
        assert counts == sorted(counts), f"the game count went down: {counts}"
        assert played == sorted(played), f"the played cells went down: {played}"
        assert counts[-1] == total, f"the page ends at {counts[-1]} games, the tournament has {total}: {counts}"
        assert played[-1] == 2 * total, (played[-1], total)
        # Live: at least two values on the way, each from an update that replaced the list in place.
        between = sorted(set(c for c in counts[1:] if 0 < c < total))
        assert len(between) >= 2, f"too few live values seen in {took:.1f} s: {counts}"
        assert len(set(p for p in played[1:] if 0 < p < 2 * total)) >= 2, played
        assert page.text_content("#games-count").strip() == f"{total} games recorded"
        assert page.locator("#standings-table tr[data-player]").count() == players
        clean(page)
        print(f"    live tournament {tid}: {players} players, {total} games in {took:.1f} s, "
              f"counts seen {counts}", flush=True)

        page.reload()
        assert page.get_attribute("body", "data-live") is None, "a finished tournament's page is still live"
        assert page.text_content("#status").strip() == "finished"
        page.goto(SRV.url + "/tournaments")
        row = page.wait_for_selector(f"tr[data-tournament='{tid}']")
        assert "finished" in row.text_content()


@test
def replay_viewer_steps_and_downloads():
    with browser() as b:
        page = new_page(b.new_context())
        page.goto(f"{SRV.url}/tournaments/{SETUP_TOURNAMENT}")
        page.click("#games-table tbody tr[data-game] a")
        page.wait_for_selector("#viewer #step-label")
        base = page.url.split("#")[0]
        assert re.fullmatch(re.escape(f"{SRV.url}/tournaments/{SETUP_TOURNAMENT}/games/") + r"[\w-]+", base), base
        data = replay_data(page)
        frames = data["frames"]
        steps = [f["step"] for f in frames]
        assert steps == list(range(len(frames))), steps
        last = steps[-1]
        assert last >= 4, f"a pennies game of 5 rounds has more steps than {last}"
        assert step_label(page) == f"Step 0 of {last}"
        shot(page, "replay")

        def view():
            return page.text_content("#view")

        def events():
            return page.eval_on_selector_all("#events li:not(.muted)", "lis => lis.map(li => li.textContent)")

        page.click("#next")
        expect_step(page, 1, last)
        assert view() == frames[1]["view"] and events() == frames[1]["events"]
        page.click("#prev")
        expect_step(page, 0, last)
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        expect_step(page, 2, last)
        assert view() == frames[2]["view"] and events() == frames[2]["events"]
        page.keyboard.press("ArrowLeft")
        expect_step(page, 1, last)
        page.keyboard.press("End")
        expect_step(page, last, last)
        assert view() == frames[last]["view"]
        assert page.eval_on_selector("#step-slider", "s => s.value") == str(last)
        page.keyboard.press("Home")
        expect_step(page, 0, last)
        page.click("#last")
        expect_step(page, last, last)
        page.click("#first")
        expect_step(page, 0, last)
        assert frames[last]["view"] != frames[0]["view"], "the view never changes"
        clean(page)

        fresh = new_page(b.new_context())
        fresh.goto(base + "#step=3")
        fresh.wait_for_selector("#step-label")
        assert step_label(fresh) == f"Step 3 of {last}"
        assert fresh.text_content("#view") == frames[3]["view"]
        assert fresh.eval_on_selector("#step-slider", "s => s.value") == "3"
        clean(fresh)

        href = page.get_attribute("#download", "href")
        assert href == base[len(SRV.url):] + ".jsonl", href
        resp = page.request.get(SRV.url + href)
        assert resp.status == 200, resp.status
        assert resp.headers["content-type"].startswith("application/x-ndjson"), resp.headers
        lines = resp.text().splitlines()
        header = json.loads(lines[0])
        assert header["type"] == "header" and header["game"] == "pennies", header
        assert header["id"] == data["id"] and header["players"] == data["players"], (header, data)
        assert json.loads(lines[-1])["type"] == "footer", lines[-1]


@test
def spectators_never_see_private_events_and_owners_do():
    with browser() as b:
        # A game of the stored tournament: nobody here owns its players.
        spectator = new_page(b.new_context())
        spectator.goto(f"{SRV.url}/tournaments/{SETUP_TOURNAMENT}")
        keys = spectator.eval_on_selector_all("#games-table tr[data-game]", "rows => rows.map(r => r.dataset.game)")
        assert len(keys) == len(SETUP_PENNIES) * (len(SETUP_PENNIES) - 1) // 2, keys
        spectator.goto(f"{SRV.url}/tournaments/{SETUP_TOURNAMENT}/games/{keys[0]}")
        data = replay_data(spectator)
        public = [e for f in data["frames"] for e in f["events"]]
        assert any(re.search(r"round \d+: \w+ and \w+, seat \d takes it", e) for e in public), public
        assert not [e for e in public if PRIVATE_BOTH.search(e) or PRIVATE_OWN.search(e)], public
        shown = [e for step in rendered_events(spectator) for e in step]
        assert any("takes it" in e for e in shown), shown
        assert not [e for e in shown if PRIVATE_BOTH.search(e) or PRIVATE_OWN.search(e)], shown
        assert spectator.query_selector("#logs") is None, "a spectator sees logs"
        assert "as a spectator sees it" in spectator.text_content("main")
        clean(spectator)

        # carol's scrimmage: carol sees her seat's private events; a spectator of the same game does not.
        player, tid, key, opponent = carol_scrimmage(b)
        url = f"{SRV.url}/tournaments/{tid}/games/{key}"
        ctx, owner = sign_in(b, "carol")
        owner.goto(url)
        data = replay_data(owner)
        seat = data["players"].index(player)
        assert data["viewer_seats"] == [seat], data["viewer_seats"]
        assert f"as seen by seat {seat}" in owner.text_content("main")
        mine = [e for f in data["frames"] for e in f["events"]]
        rounds = len([e for e in mine if "takes it" in e])
        assert rounds == 5, mine
        assert len([e for e in mine if PRIVATE_BOTH.search(e)]) == rounds, mine
        # Her own choice each round, never the opponent's (pennies-loud plays heads in odd rounds).
        own = [e for e in mine if PRIVATE_OWN.search(e)]
        assert own == [f"round {r}: you chose {'heads' if r % 2 else 'tails'}" for r in range(1, rounds + 1)], own
        shown = [e for step in rendered_events(owner) for e in step]
        assert len([e for e in shown if PRIVATE_BOTH.search(e)]) == rounds, shown
        assert len([e for e in shown if PRIVATE_OWN.search(e)]) == rounds, shown
        # Her download holds them too, and her own log.
        resp = owner.request.get(url + ".jsonl")
        assert resp.status == 200, resp.status
        footer = json.loads(resp.text().splitlines()[-1])
        texts = [e["text"] for e in footer["events"]]
        assert len([e for e in texts if PRIVATE_BOTH.search(e)]) == rounds, texts
        assert LOUD_LOG in footer["logs"][seat], footer["logs"]
        # Where her fuel went: a bar a call of her seat, each linked to its step; a bar's click goes there,
        # and the fork form's step follows the viewer.
        bars = owner.locator("#fuel .fuel-chart .bar")
        assert bars.count() == rounds, bars.count()
        hrefs = [bars.nth(i).get_attribute("href") for i in range(rounds)]
        assert all(h.startswith("#step=") for h in hrefs), hrefs
        assert owner.locator("#fuel .costliest li").count() == rounds
        bars.nth(2).click()
        owner.wait_for_function("() => document.getElementById('fork-step').value === location.hash.split('=')[1]")
        assert owner.input_value("#fork-step") == hrefs[2].split("=")[1], (owner.input_value("#fork-step"), hrefs[2])
        clean(owner)
        ctx.close()

        spectator.goto(url)
        data = replay_data(spectator)
        assert data["viewer_seats"] == [], data["viewer_seats"]
        public = [e for f in data["frames"] for e in f["events"]]
        assert len([e for e in public if "takes it" in e]) == rounds, public
        assert not [e for e in public if PRIVATE_BOTH.search(e) or PRIVATE_OWN.search(e)], public
        assert not [f["view"] for f in data["frames"] if "your choice" in f["view"]], "a seat's view is shown"
        assert spectator.query_selector("#fuel") is None and spectator.query_selector("#fork-form") is None
        shown = [e for step in rendered_events(spectator) for e in step]
        assert not [e for e in shown if PRIVATE_BOTH.search(e) or PRIVATE_OWN.search(e)], shown
        # Nor in the page's HTML or the replay file a spectator downloads.
        status, _, html = http("GET", url[len(SRV.url):])
        assert status == 200 and b"both choices are in" not in html and b"you chose" not in html
        status, _, jsonl = http("GET", url[len(SRV.url):] + ".jsonl")
        assert status == 200 and b"both choices are in" not in jsonl and b"you chose" not in jsonl, jsonl[-2000:]
        assert LOUD_LOG.encode() not in jsonl and b"alert" not in jsonl, "a spectator's download holds logs"
        clean(spectator)


@test
def player_logs_are_shown_as_text():
    with browser() as b:
        player, tid, key, _ = carol_scrimmage(b)
        url = f"{SRV.url}/tournaments/{tid}/games/{key}"
        ctx, page = sign_in(b, "carol")
        page.goto(url)
        logs = page.wait_for_selector("#logs")
        text = logs.text_content()
        assert text.count(LOUD_LOG) == 5, text
        assert "round 1: " + LOUD_LOG in text, text
        for tag in ["script", "b", "img"]:
            assert page.locator(f"#logs {tag}").count() == 0, f"a <{tag}> element was made from the log"
        page.keyboard.press("End")  # step through the game: nothing may run on the way
        page.click("#play")
        page.click("#first")
        page.wait_for_timeout(300)
        shot(page, "replay-logs")
        clean(page)
        # The HTML sent holds the log only escaped (inside the JSON), never as markup.
        resp = page.request.get(url)
        assert resp.status == 200
        body = resp.text()
        assert "round 1: \\u003cscript\\u003ealert('log')" in body, "the page does not carry the log"
        assert "<script>alert(" not in body and "<b>bold</b>" not in body and "<img src=x" not in body
        ctx.close()


@test
def public_pages_games_leaderboard_player():
    with browser() as b:
        page = new_page(b.new_context())
        page.goto(SRV.url + "/")
        row = page.wait_for_selector("#games tr[data-game=pennies]")
        registered = len(get_json("/api/games/pennies/leaderboard"))
        assert int(row.query_selector("td.num").text_content()) == registered >= len(SETUP_PENNIES)
        assert sorted(page.eval_on_selector_all("#games tr[data-game]", "rs => rs.map(r => r.dataset.game)")) == \
            sorted(g["name"] for g in get_json("/api/games"))
        shot(page, "games-index")

        row.query_selector("a").click()
        page.wait_for_selector("table#leaderboard.sortable")
        names = page.eval_on_selector_all("#leaderboard tbody tr[data-player]", "rs => rs.map(r => r.dataset.player)")
        assert set(SETUP_PENNIES) <= set(names), names
        assert names == [r["name"] for r in get_json("/api/games/pennies/leaderboard")], names
        shot(page, "leaderboard-pennies")
        page.click("#leaderboard thead th:has-text('Player')")
        sorted_names = page.eval_on_selector_all("#leaderboard tbody tr[data-player]",
                                                 "rs => rs.map(r => r.dataset.player)")
        assert sorted_names == sorted(names, key=str.lower), sorted_names
        page.click("#leaderboard thead th:has-text('Player')")
        reversed_names = page.eval_on_selector_all("#leaderboard tbody tr[data-player]",
                                                   "rs => rs.map(r => r.dataset.player)")
        assert reversed_names == sorted_names[::-1], reversed_names

        page.click("tr[data-player='pennies-heads-1'] a")
        section = page.wait_for_selector("section.player-game[data-game=pennies]")
        assert page.text_content("h1").strip() == "pennies-heads-1"
        assert "Owned by the organiser" in page.text_content("main")
        assert section.query_selector("svg.chart") is not None, "no rating chart"
        assert section.query_selector("table#failures-pennies") is not None
        assert section.query_selector("form.scrimmage") is None, "a spectator is offered a scrimmage"
        shot(page, "player")
        page.click("#failures-latest-pennies")
        assert page.url.endswith("/players/pennies-heads-1?failures=latest"), page.url
        assert "Since version 1" in page.text_content("section.player-game[data-game=pennies]")
        stats = get_json("/api/players/pennies-heads-1")
        assert stats["name"] == "pennies-heads-1" and stats["games"][0]["game"] == "pennies", stats
        clean(page)


@test
def pages_tell_the_whole_story():
    with browser() as b:
        page = new_page(b.new_context())
        # A player banned as the tournament starts is marked, with the host's reason, never first.
        page.goto(f"{SRV.url}/tournaments/{PAGES['santorini']}")
        row = page.wait_for_selector("#standings-table tr[data-player='sant-early-quitter']")
        assert row.get_attribute("class") == "fault", row.get_attribute("class")
        # The reason too, as the API's `banned` gives it (never the bot's own output, its owner's).
        ban = row.query_selector("td.ban").text_content()
        assert ban.startswith("banned: crash in tournament-start: ") and len(ban) > 40, ban
        first = page.eval_on_selector("#standings-table tbody tr", "r => r.dataset.player")
        assert first != "sant-early-quitter", first

        # A ladder stopped by --games is "stopped", not "interrupted"; its games say no "of 0".
        page.goto(f"{SRV.url}/tournaments")
        row = page.wait_for_selector(f"tr[data-tournament='{PAGES['ladder']}']")
        assert "stopped" in row.text_content() and "interrupted" not in row.text_content(), row.text_content()
        games = get_json(f"/api/tournaments/{PAGES['ladder']}/games")["games"]
        assert len(games) == 3, games
        page.goto(SRV.url + games[0]["replay"])
        page.wait_for_selector("#step-label")
        page.click("#last")
        events = " | ".join(rendered_events(page)[0])
        assert re.search(r"match \d+ starts", events) and " of 0" not in events, events

        # The replay: the calls' column is the step; the step's move is highlighted; the result stays
        # hidden until the last step; #step=N links to a step.
        key = get_json(f"/api/tournaments/{SETUP_TOURNAMENT}/games?limit=1")["games"][0]["id"]
        page.goto(f"{SRV.url}/tournaments/{SETUP_TOURNAMENT}/games/{key}#step=2")
        expect_step(page, 2, replay_data(page)["frames"][-1]["step"])
        assert page.locator("#calls th").all_text_contents()[2] == "Step"
        assert "choose" in page.text_content("#last-move"), page.text_content("#last-move")
        assert page.locator("#calls tr.last-move").count() >= 1
        assert not page.is_visible("#outcome") and not page.is_visible("#result"), "the result shows before the end"
        assert page.is_visible("#spoiler-note")
        page.click("#last")
        assert page.is_visible("#outcome") and page.is_visible("#result")
        assert not page.is_visible("#spoiler-note")
        shot(page, "replay-last-step")

        # Only the embed route may be framed, by any site; the replay page may not.
        embed = f"{SRV.url}/embed/tournaments/{SETUP_TOURNAMENT}/games/{key}"
        with urllib.request.urlopen(embed) as r:
            assert "frame-ancestors *" in r.headers["content-security-policy"], r.headers
            assert r.headers.get("x-frame-options") is None
            assert 'id="replay-data"' in r.read().decode()
        with urllib.request.urlopen(f"{SRV.url}/tournaments/{SETUP_TOURNAMENT}/games/{key}") as r:
            assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
        # Framed for real by a page of another site (another origin on loopback).
        import http.server
        import threading
        site = (f'<iframe id="e" src="{embed}" width="900" height="600"></iframe>'
                f'<iframe id="r" src="{SRV.url}/tournaments/{SETUP_TOURNAMENT}/games/{key}"></iframe>').encode()

        class Site(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.end_headers()
                self.wfile.write(site)

            def log_message(self, *_):
                pass

        other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Site)
        threading.Thread(target=other.serve_forever, daemon=True).start()
        try:
            framing = b.new_page()
            framing.goto(f"http://127.0.0.1:{other.server_port}/")
            framing.wait_for_timeout(1500)
            frames = {f.url: f for f in framing.frames}
            assert embed in frames and frames[embed].query_selector("#step-label") is not None, \
                f"the embed did not load in a frame: {list(frames)}"
            replay = frames.get(f"{SRV.url}/tournaments/{SETUP_TOURNAMENT}/games/{key}")
            assert replay is None or replay.query_selector("#step-label") is None, "the replay page loaded in a frame"
            framing.close()
        finally:
            other.shutdown()

        # Fish's drawing keeps its status line (every seat's fish) inside the picture, four seats too.
        games = get_json(f"/api/tournaments/{PAGES['fish']}/games")["games"]
        four = next(g for g in games if len(g["players"]) == 4)
        page.goto(SRV.url + four["replay"])
        page.wait_for_selector("#step-label")
        svg = replay_data(page)["frames"][-1]["svg"]
        drawing = b.new_page()
        drawing.set_content(svg)
        fit = drawing.evaluate("""() => {
            const svg = document.querySelector('svg');
            const width = svg.viewBox.baseVal.width;
            const texts = [...svg.querySelectorAll('text')];
            return {width, right: Math.max(...texts.map(t => t.getBBox().x + t.getBBox().width)),
                    status: texts.filter(t => t.textContent.includes('fish')).map(t => t.textContent)};
        }""")
        drawing.close()
        assert fit["status"] and fit["right"] <= fit["width"], fit
        assert "D " in " ".join(fit["status"]), fit

        # Goofspiel draws too: every step of a replay shows the prize and the revealed rounds, and a
        # spectator's drawing never shows a hand.
        game = get_json(f"/api/tournaments/{PAGES['goofspiel']}/games")["games"][0]
        page.goto(SRV.url + game["replay"])
        page.wait_for_selector("#step-label")
        page.wait_for_selector("img#board")
        frames = replay_data(page)["frames"]
        assert all(f.get("svg") for f in frames), "every step is drawn"
        assert all('class="prize"' in f["svg"] or "game over" in f["svg"] for f in frames)
        assert not any("your hand" in f["svg"] for f in frames), "a spectator never sees a hand"

        # A player with one rated game has a chart with its point; a scrimmage is no tournament.
        page.goto(SRV.url + "/players/goof-smart")
        section = page.wait_for_selector("section.player-game[data-game=goofspiel]")
        assert "after 1 rated games" in section.text_content(), section.text_content()[:300]
        assert section.query_selector("svg.chart circle.point") is not None, "one game, no point on the chart"
        player, _, _, _ = carol_scrimmage(b)
        page.goto(f"{SRV.url}/players/{player}")
        facts = page.text_content(f"section.player-game[data-game=pennies] table.facts")
        assert re.search(r"Tournaments\s*played 0, won 0", facts), facts
        clean(page)


@test
def every_page_fits_a_phone_and_a_1280_px_screen():
    """The pages a newcomer meets, at a phone's width and at 1280 px: nothing wider than the screen
    (wide tables scroll inside their own box), a screenshot of each."""
    game = get_json(f"/api/tournaments/{PAGES['santorini']}/games")["games"][0]
    pages = {
        "home": "/",
        "games": "/games/santorini",
        "tournament": f"/tournaments/{PAGES['santorini']}",
        "rounds": f"/tournaments/{PAGES['fish']}",
        "replay": f"/tournaments/{PAGES['santorini']}/games/{game['id']}",
        "player": "/players/sant-early-quitter",
        "competitions": "/competitions",
    }
    with browser() as b:
        page = new_page(b.new_context())
        for width, tag in [(390, "phone"), (1280, "1280")]:
            page.set_viewport_size({"width": width, "height": 844})
            for name, path in pages.items():
                response = page.goto(SRV.url + path)
                assert response.status == 200, (path, response.status)
                page.wait_for_timeout(150)
                overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
                wide = page.evaluate("""() => [...document.querySelectorAll('main *')]
                    .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
                    .slice(0, 5).map(e => e.tagName + (e.id ? '#' + e.id : '') + '.' + e.className)""")
                assert overflow <= 0, f"{path}: {overflow} px of horizontal scrolling at {width} px: {wide}"
                shot(page, f"{name}-{tag}")
        clean(page)


@test
def a_game_published_through_the_page_is_live_at_once_and_played():
    """dave publishes a game package (made by `arena new-game --lang js`) through /publish; with no
    restart it is on the games page, takes uploads, and its players play a scrimmage."""
    root = Path(tempfile.mkdtemp())
    pkg = root / "tokens"
    arena("new-game", "--lang", "js", pkg)
    qjs = (PLAYERS.parent / "tools" / "node" / "node_modules" / ".bin" / "componentize-qjs").resolve()
    built = subprocess.run([str(pkg / "build.sh")], env=dict(os.environ, COMPONENTIZE_QJS=str(qjs)),
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stdout + built.stderr
    archive = root / "tokens.tar.gz"
    with tarfile.open(archive, "w:gz") as t:
        wit = [p.relative_to(pkg).as_posix() for p in sorted((pkg / "wit").rglob("*.wit"))]
        for rel in ["game.toml", "referee.wasm", "players/first.wasm", *wit]:
            t.add(pkg / rel, arcname=rel)
    with browser() as b:
        ctx, page = sign_in(b, "dave")
        page.goto(SRV.url + "/publish")
        page.set_input_files("#publish-form input[type=file][name=package]", str(archive))
        with page.expect_navigation(timeout=300000) as nav:
            page.click("#publish-form button[type=submit]")
        assert nav.value.status == 201, nav.value.status
        result = page.wait_for_selector("section#publish-result")
        assert result.get_attribute("data-outcome") == "accepted", page.text_content("#publish-message")
        assert "tokens version 1 is published" in page.text_content("#publish-message")
        shot(page, "publish-accepted")
        # Live at once: listed, with its page, its WIT and its built-in opponent.
        page.goto(SRV.url + "/")
        assert page.query_selector("a[href='/games/tokens']") is not None, "the published game is not listed"
        page.goto(SRV.url + "/games/tokens")
        about = page.text_content("#game-about")
        assert "Published by dave" in about and "builtin:first" in about, about
        assert page.text_content("#game-versions").count("v1") == 1
        shot(page, "published-game")
        # It takes players (the page's form and the API), and they play a scrimmage.
        outcome, message, _ = upload_page(page, "tokens", "dave-tokens", pkg / "players" / "first.wasm")
        assert outcome == "accepted", message
        status, body = api_upload("tokens", "erin-tokens", pkg / "players" / "first.wasm", token=TOKENS["erin"])
        assert status == 201, body
        page.goto(SRV.url + "/players/dave-tokens")
        form = page.wait_for_selector("section.player-game[data-game=tokens] form.scrimmage")
        form.query_selector("select[name=opponent]").select_option("erin-tokens")
        with page.expect_navigation():
            form.query_selector("button[type=submit]").click()
        assert re.fullmatch(re.escape(SRV.url) + r"/tournaments/\d+", page.url), page.url
        page.wait_for_function("() => document.getElementById('status').textContent.trim() === 'finished'",
                               timeout=30000)
        keys = page.eval_on_selector_all("#games-table tr[data-game]", "rows => rows.map(r => r.dataset.game)")
        assert len(keys) == 1, keys
        clean(page)
        ctx.close()


@test
def an_invitation_signs_a_person_up_and_their_token_is_replaced():
    out = arena("user", "invite", "--uses", 1, "--data", SRV.data)
    code = out.split("code=")[1].strip()
    with browser() as b:
        page = new_page(b.new_context())
        page.goto(f"{SRV.url}/signup?code={code}")
        page.fill("#signup-form input[name=name]", "gwen")
        with page.expect_navigation() as nav:
            page.click("#signup-form button[type=submit]")
        assert nav.value.status == 201, nav.value.status
        token = page.text_content("#new-token").strip()
        assert token.startswith("arena_"), token
        assert page.text_content("#whoami").strip() == "gwen"
        shot(page, "signup")
        # The invitation was for one: the next visitor is told so, and gets no form.
        other = new_page(b.new_context())
        response = other.goto(f"{SRV.url}/signup?code={code}")
        assert response.status == 410, response.status
        assert "used as often as it may" in other.text_content("#signup-error")
        assert other.query_selector("#signup-form") is None
        # A new token, from the account's page: the old one stops at once, this browser stays signed in.
        page.goto(SRV.url + "/account")
        with page.expect_navigation():
            page.click("#replace-token button[type=submit]")
        new = page.text_content("#shown-secret").strip()
        assert new.startswith("arena_") and new != token, new
        assert page.text_content("#whoami").strip() == "gwen"
        status, _ = api_upload("pennies", "gwen-heads", PLAYERS / "pennies-heads.wasm", token=token)
        assert status == 401, status
        status, body = api_upload("pennies", "gwen-heads", PLAYERS / "pennies-heads.wasm", token=new)
        assert status == 201, body
        clean(page)
        clean(other)


@test
def a_competition_runs_its_ladder_then_its_final_appears_at_the_deadline():
    """root creates a Goofspiel competition closing in seconds: its ladder runs (paused and resumed from
    its page), and at the deadline the final's standings appear on the competition's page."""
    with browser() as b:
        ctx, page = sign_in(b, "root")
        page.goto(SRV.url + "/competitions")
        page.select_option("#new-competition select[name=game]", "goofspiel")
        page.fill("#new-competition input[name=title]", "Browser cup")
        page.fill("#new-competition input[name=closes_in]", "8s")
        page.select_option("#new-competition select[name=format]", "round-robin")
        page.fill("#new-competition input[name=games_per_match]", "1")
        with page.expect_navigation():
            page.click("#new-competition button[type=submit]")
        assert re.fullmatch(re.escape(SRV.url) + r"/competitions/\d+", page.url), page.url
        competition = page.url
        assert page.is_visible("#before-deadline")
        # The deadline in the reader's own time, with the UTC time it was set in, and a countdown.
        shown = page.text_content("#deadline")
        assert "your time (" in shown and "UTC" in shown and ", in " in shown and shown.endswith(" s"), shown
        # Its ladder runs here; an admin pauses and resumes it from the ladder's page.
        page.click("#before-deadline a[href^='/tournaments/']")
        page.wait_for_selector("#ladder-control")
        assert "Pause the ladder" in page.text_content("#ladder-control")
        with page.expect_navigation():
            page.click("#ladder-control button[type=submit]")
        assert "Resume the ladder here" in page.text_content("#ladder-control")
        with page.expect_navigation():
            page.click("#ladder-control button[type=submit]")
        assert "Pause the ladder" in page.text_content("#ladder-control")
        # The deadline passes; the final is played and its standings appear.
        page.goto(competition)
        deadline = time.monotonic() + 90
        while page.query_selector("#final-standings table") is None and time.monotonic() < deadline:
            time.sleep(0.5)
            page.reload()
        assert page.query_selector("#final-standings table") is not None, page.text_content("main")[:500]
        for _ in range(120):
            if page.text_content("#final-status").strip() == "finished":
                break
            time.sleep(0.5)
            page.reload()
        assert page.text_content("#final-status").strip() == "finished"
        names = page.eval_on_selector_all("#final-standings tr[data-player]", "rows => rows.map(r => r.dataset.player)")
        assert {"goof-random", "goof-smart"} <= set(names), names
        # The ladder's standings stay on the page after the deadline, under the final.
        ladder = page.eval_on_selector_all("#after-deadline #ladder-standings td a", "links => links.map(a => a.textContent)")
        assert {"goof-random", "goof-smart"} <= set(ladder), ladder
        shot(page, "competition-final")
        status, _, body = http("GET", page.get_attribute("#final-csv", "href"))
        assert status == 200 and body.decode().startswith("place,player,"), body[:200]
        # Submissions to the game are closed, saying when.
        status, body = api_upload("goofspiel", "goof-late", PLAYERS / "goofspiel-random.wasm", token=TOKENS["alice"])
        assert status == 403 and "closed at" in body["error"]["message"], body
        clean(page)
        ctx.close()


def main():
    global SRV
    SRV = Server()
    prepare(SRV)
    started = time.monotonic()
    code = 1
    SRV.__enter__()
    try:
        run()
    except SystemExit as e:
        code = e.code
    finally:
        SRV._stop(failed=code != 0)
        print(f"suite took {time.monotonic() - started:.1f} s", flush=True)
    sys.exit(code)


if __name__ == "__main__":
    main()
