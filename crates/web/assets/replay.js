// Arena's replay viewer: reads the replay from <script type="application/json" id="replay-data"> and
// renders it into <div id="viewer">, one step at a time (buttons, slider, keyboard, #step=N in the URL).
// Served at /assets/replay.js and inlined into offline replay files. Everything in the replay comes from
// untrusted packages, so it only ever reaches the page through textContent and setAttribute.
(function () {
  "use strict";

  const STEP_MS = 600; // one step per 600 ms at 1×
  const SPEEDS = [0.5, 1, 2, 4, 8];
  const ANSWER_MAX = 200;

  // --- Small helpers ------------------------------------------------------------------------------

  // el("td", {class: "x", title: "y"}, "text", childNode, ...): attributes via setAttribute, strings as
  // text nodes. Never parses HTML.
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value !== null && value !== undefined && value !== false) node.setAttribute(name, String(value));
    }
    for (const child of children) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  function base64Utf8(text) {
    const bytes = new TextEncoder().encode(text);
    let binary = "";
    for (let i = 0; i < bytes.length; i += 0x8000) {
      binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    }
    return btoa(binary);
  }

  // A call's wall-clock time (microseconds) for people; "–" when the record has none.
  function duration(micros) {
    if (typeof micros !== "number" || !Number.isFinite(micros) || micros <= 0) return "–";
    if (micros < 1000) return micros + " µs";
    if (micros < 1000000) return (micros / 1000).toFixed(1) + " ms";
    return (micros / 1000000).toFixed(2) + " s";
  }

  function thousands(n) {
    if (typeof n !== "number" || !Number.isFinite(n)) return n === null || n === undefined ? "" : String(n);
    const [int, frac] = String(n).split(".");
    return int.replace(/\B(?=(\d{3})+(?!\d))/g, ",") + (frac ? "." + frac : "");
  }

  function shorten(text, max) {
    return text.length > max ? text.slice(0, max - 1) + "…" : text;
  }

  function json(value) {
    if (value === undefined) return "";
    try {
      return JSON.stringify(value);
    } catch (_) {
      return String(value);
    }
  }

  function str(value) {
    return value === null || value === undefined ? "" : String(value);
  }

  // "kind in call: reason" for a fault object (or a plain string).
  function describeFault(fault) {
    if (fault === null || fault === undefined) return "";
    if (typeof fault !== "object") return String(fault);
    let text = str(fault.kind) || "fault";
    if (fault.call) text += " in " + str(fault.call);
    if (fault.reason) text += ": " + str(fault.reason);
    return text;
  }

  function isFormField(target) {
    if (!(target instanceof Element)) return false;
    return target.isContentEditable || target.matches("input, select, textarea");
  }

  // --- The viewer ---------------------------------------------------------------------------------

  function start() {
    const root = document.getElementById("viewer");
    const source = document.getElementById("replay-data");
    if (!root) return;
    let data;
    try {
      data = JSON.parse(source ? source.textContent : "");
    } catch (err) {
      root.replaceChildren(el("p", { class: "error" }, "Cannot read this replay: " + err.message));
      return;
    }
    if (!data || !Array.isArray(data.frames) || data.frames.length === 0) {
      root.replaceChildren(el("p", { class: "error" }, "This replay has no steps."));
      return;
    }
    new Viewer(root, data);
  }

  class Viewer {
    constructor(root, data) {
      this.root = root;
      this.data = data;
      this.frames = data.frames.map((f) => (f && typeof f === "object" ? f : {}));
      this.players = Array.isArray(data.players) ? data.players.map(str) : [];
      this.index = 0;
      this.timer = null;
      this.svgCache = new Map();
      this.totals = this.computeTotals();
      this.build();
      const fromHash = this.indexFromHash();
      this.goTo(fromHash ?? 0, fromHash !== null); // a #step past the end becomes the last step's
      window.addEventListener("hashchange", () => {
        const i = this.indexFromHash();
        if (i !== null) this.goTo(i);
      });
      document.addEventListener("keydown", (e) => this.onKey(e));
    }

    stepOf(i) {
      const step = this.frames[i].step;
      return Number.isInteger(step) ? step : i;
    }

    playerName(seat) {
      const name = Number.isInteger(seat) ? this.players[seat] : undefined;
      return name === undefined ? "seat " + str(seat) : name + " (seat " + seat + ")";
    }

    // The frame index for #step=N: the frame with step N, else the last one before it.
    indexFromHash() {
      const params = new URLSearchParams(location.hash.replace(/^#/, ""));
      if (!params.has("step")) return null;
      const wanted = Number(params.get("step"));
      if (!Number.isFinite(wanted)) return null;
      let best = 0;
      this.frames.forEach((_, i) => {
        if (this.stepOf(i) <= wanted) best = i;
      });
      return best;
    }

    // Running totals per seat, after each frame: calls, fuel and faults.
    computeTotals() {
      const seats = Math.max(this.players.length, 0);
      const running = Array.from({ length: seats }, () => ({ calls: 0, fuel: 0, micros: 0, faults: 0 }));
      return this.frames.map((frame) => {
        for (const line of Array.isArray(frame.lines) ? frame.lines : []) {
          if (!line || !Number.isInteger(line.seat) || line.seat < 0) continue;
          while (running.length <= line.seat) running.push({ calls: 0, fuel: 0, micros: 0, faults: 0 });
          const t = running[line.seat];
          t.calls += 1;
          if (typeof line.fuel === "number" && Number.isFinite(line.fuel)) t.fuel += line.fuel;
          if (typeof line.micros === "number" && Number.isFinite(line.micros)) t.micros += line.micros;
          if (line.fault) t.faults += 1;
        }
        return running.map((t) => ({ ...t }));
      });
    }

    // --- Building the page ----------------------------------------------------------------------

    build() {
      const d = this.data;
      const last = this.frames.length - 1;
      this.root.classList.add("replay");

      // Header.
      const title = [str(d.game), str(d.id)].filter(Boolean).join(" · ") || "Replay";
      const meta = [];
      if (d.tournament !== null && d.tournament !== undefined) meta.push("tournament " + str(d.tournament));
      if (d.seed !== null && d.seed !== undefined) meta.push("seed " + str(d.seed));
      if (Number.isInteger(d.viewer_seat)) meta.push("viewing as " + this.playerName(d.viewer_seat));
      const result = d.result && typeof d.result === "object" ? d.result : null;
      const winners = new Set(result && Array.isArray(result.winners) ? result.winners.map(str) : []);
      const scores = result && Array.isArray(result.scores) ? result.scores : [];
      const playerList = el("ol", { class: "players", start: 0 });
      this.players.forEach((name, seat) => {
        playerList.append(
          el("li", { class: winners.has(name) ? "winner" : null },
            el("span", { class: "seat" }, "seat " + seat), " ", el("strong", {}, name),
            scores[seat] !== undefined ? el("span", { class: "score spoiler" }, " " + str(scores[seat])) : null,
            winners.has(name) ? " " : null,
            winners.has(name) ? el("span", { class: "badge ok spoiler" }, "winner") : null)
        );
      });
      let outcome;
      if (!result) outcome = "No result yet.";
      else if (winners.size) outcome = "Winner" + (winners.size > 1 ? "s" : "") + ": " + [...winners].join(", ") + ".";
      else outcome = "No winner.";
      if (scores.length) {
        outcome += " Scores: " + scores.map((s, i) => (this.players[i] ?? "seat " + i) + " " + str(s)).join(", ") + ".";
      }
      const header = el("header", { class: "replay-header" },
        el("h1", {}, title),
        meta.length ? el("p", { class: "meta" }, meta.join(" · ")) : null,
        playerList,
        el("p", { class: "outcome spoiler", id: "outcome" }, outcome),
        // Spoiler-free: the result shows only at the last step.
        el("p", { class: "spoiler-note muted", id: "spoiler-note" }, "The result shows at the last step."));

      // Controls.
      const button = (id, text, label) => el("button", { type: "button", id, title: label, "aria-label": label }, text);
      this.firstBtn = button("first", "|◀", "First step (Home)");
      this.prevBtn = button("prev", "◀", "Previous step (←)");
      this.playBtn = el("button", { type: "button", id: "play", class: "primary", "aria-pressed": "false" }, "Play");
      this.nextBtn = button("next", "▶", "Next step (→)");
      this.lastBtn = button("last", "▶|", "Last step (End)");
      this.speed = el("select", { id: "speed", "aria-label": "Speed" });
      for (const s of SPEEDS) this.speed.append(el("option", { value: s, selected: s === 1 }, s + "×"));
      const faultSteps = this.frames.map((f, i) => i).filter((i) => this.frameHasFault(this.frames[i]));
      this.slider = el("input", {
        type: "range", id: "step-slider", min: 0, max: last, step: 1, value: 0,
        "aria-label": "Step", list: faultSteps.length ? "fault-ticks" : null,
      });
      this.label = el("span", { id: "step-label", "aria-live": "polite" });
      const ticks = faultSteps.length
        ? el("datalist", { id: "fault-ticks" }, ...faultSteps.map((i) => el("option", { value: i })))
        : null;
      const controls = el("div", { class: "controls", role: "toolbar", "aria-label": "Replay controls" },
        el("span", { class: "buttons" }, this.firstBtn, this.prevBtn, this.playBtn, this.nextBtn, this.lastBtn),
        el("label", { class: "speed" }, "Speed ", this.speed),
        el("span", { class: "slider" }, this.slider, ticks),
        this.label);
      const faultList = faultSteps.length
        ? el("ul", { class: "fault-steps", "aria-label": "Steps with faults" },
          ...faultSteps.map((i) => el("li", {},
            el("a", { class: "fault-link", href: "#step=" + this.stepOf(i) }, "fault at step " + this.stepOf(i)))))
        : null;

      this.firstBtn.addEventListener("click", () => { this.pause(); this.goTo(0); });
      this.prevBtn.addEventListener("click", () => { this.pause(); this.goTo(this.index - 1); });
      this.nextBtn.addEventListener("click", () => { this.pause(); this.goTo(this.index + 1); });
      this.lastBtn.addEventListener("click", () => { this.pause(); this.goTo(last); });
      this.playBtn.addEventListener("click", () => this.togglePlay());
      this.speed.addEventListener("change", () => { if (this.timer !== null) this.startTimer(); });
      this.slider.addEventListener("input", () => { this.pause(); this.goTo(Number(this.slider.value)); });

      // Step panels.
      this.boardSlot = el("div", { class: "board-slot" });
      this.view = el("pre", { id: "view", class: "view" });
      this.lastMove = el("p", { id: "last-move", class: "last-move", "aria-live": "polite" });
      this.events = el("ul", { id: "events", class: "events" });
      this.calls = el("table", { id: "calls", class: "calls" });
      this.totalsTable = el("table", { id: "totals", class: "totals" });
      const panels = el("div", { class: "panels" },
        el("section", { class: "panel board-panel" }, el("h2", {}, "View"), this.lastMove, this.boardSlot, this.view),
        el("div", { class: "side" },
          el("section", { class: "panel" }, el("h2", {}, "Events"), this.events),
          el("section", { class: "panel" }, el("h2", {}, "Calls"), el("div", { class: "scroll-x" }, this.calls)),
          el("section", { class: "panel" }, el("h2", {}, "Totals so far"),
            el("div", { class: "scroll-x" }, this.totalsTable))));

      // Result, logs, download.
      const resultPanel = el("section", { class: "panel spoiler", id: "result" }, el("h2", {}, "Result"),
        el("p", {}, outcome));
      const faults = result && Array.isArray(result.faults) ? result.faults : [];
      if (faults.length) {
        resultPanel.append(el("ul", { class: "faults" }, ...faults.map((f) =>
          el("li", { class: "fault" }, el("strong", {}, str(f && f.player) || "?"), ": " + describeFault(f)))));
      } else if (result) {
        resultPanel.append(el("p", { class: "muted" }, "No faults."));
      }
      if (result && result.game_fault) {
        // The game's package failed, not a player: said so, naming it.
        const pkg = str(d.game) || "this game";
        resultPanel.append(el("p", { class: "fault game-fault" },
          "Game fault: the referee of the package " + pkg + " failed (no result, nobody banned): " +
          describeFault(result.game_fault)));
      }
      const logs = d.logs && typeof d.logs === "object"
        ? Object.entries(d.logs).filter(([, text]) => text !== null && text !== undefined && text !== "")
        : [];
      const logsPanel = logs.length
        ? el("section", { class: "panel", id: "logs" }, el("h2", {}, "Logs"),
          ...logs.map(([name, text]) => el("div", { class: "log" }, el("h3", {}, name), el("pre", {}, str(text)))))
        : null;
      const fuelPanel = this.fuelPanel();
      const href = this.safeUrl(d.download);
      const download = href
        ? el("p", { class: "download" }, el("a", { id: "download", href, download: "" }, "Download replay (JSON lines)"))
        : null;

      this.root.replaceChildren(
        ...[header, controls, faultList, panels, resultPanel, fuelPanel, logsPanel, download].filter(Boolean));
    }

    // For the seats the viewer plays: the fuel of each of its calls over the game (a bar a call,
    // linked to its step) and its costliest calls.
    fuelPanel() {
      const seats = Array.isArray(this.data.viewer_seats) ? this.data.viewer_seats.filter(Number.isInteger) : [];
      const sections = [];
      for (const seat of seats) {
        const calls = [];
        this.frames.forEach((frame, i) => {
          for (const line of Array.isArray(frame.lines) ? frame.lines : []) {
            if (line && line.seat === seat && typeof line.fuel === "number" && Number.isFinite(line.fuel) && !line.fault) {
              calls.push({ step: this.stepOf(i), fuel: line.fuel, call: str(line.call) });
            }
          }
        });
        if (!calls.length) continue;
        const max = Math.max(1, ...calls.map((c) => c.fuel));
        const bars = calls.map((c) => {
          const bar = el("a", { class: "bar", href: "#step=" + c.step, title: "step " + c.step + ": " + c.call + ", " + c.fuel.toLocaleString("en") + " fuel" });
          bar.style.height = Math.max(1, Math.round((100 * c.fuel) / max)) + "%";
          return bar;
        });
        const costliest = [...calls].sort((a, b) => b.fuel - a.fuel || a.step - b.step).slice(0, 10);
        sections.push(el("div", { class: "fuel", "data-seat": seat },
          el("h3", {}, this.playerName(seat) + ": fuel per call"),
          el("div", { class: "fuel-chart", role: "img", "aria-label": "fuel per call, " + calls.length + " calls" }, ...bars),
          el("ol", { class: "costliest" }, ...costliest.map((c) => el("li", {},
            el("a", { href: "#step=" + c.step }, "step " + c.step), " " + c.call + ": " + c.fuel.toLocaleString("en") + " fuel")))));
      }
      return sections.length ? el("section", { class: "panel", id: "fuel" }, el("h2", {}, "Where your fuel went"), ...sections) : null;
    }

    // Only http(s) and same-scheme links; never javascript: or data: from the replay.
    safeUrl(value) {
      if (typeof value !== "string" || value === "") return null;
      try {
        const url = new URL(value, location.href);
        return ["http:", "https:", "file:"].includes(url.protocol) ? value : null;
      } catch (_) {
        return null;
      }
    }

    frameHasFault(frame) {
      return Array.isArray(frame.lines) && frame.lines.some((l) => l && l.fault);
    }

    // --- Showing a step -------------------------------------------------------------------------

    goTo(i, updateHash = true) {
      const last = this.frames.length - 1;
      this.index = Math.max(0, Math.min(last, Number.isFinite(i) ? Math.trunc(i) : 0));
      const frame = this.frames[this.index];
      const step = this.stepOf(this.index);

      this.slider.value = String(this.index);
      this.label.textContent = "Step " + step + " of " + this.stepOf(last);
      // The buttons stay enabled at the ends (they just do nothing), so a click never waits on them.
      this.root.classList.toggle("at-first", this.index === 0);
      this.root.classList.toggle("at-last", this.index === last);
      if (updateHash) {
        const params = new URLSearchParams(location.hash.replace(/^#/, ""));
        params.set("step", String(step));
        const hash = "#" + params.toString();
        if (location.hash !== hash) history.replaceState(history.state, "", hash);
      }

      // A seat's owner forks from the step shown (its calls are played again).
      const forkStep = document.getElementById("fork-step");
      if (forkStep) forkStep.value = String(Math.max(1, step));

      this.view.textContent = str(frame.view);
      this.showLastMove(frame);
      this.showBoard(frame);
      this.showEvents(frame);
      this.showCalls(frame);
      this.showTotals();
    }

    showBoard(frame) {
      const svg = typeof frame.svg === "string" && frame.svg !== "" ? frame.svg : null;
      if (svg === null) {
        this.boardSlot.replaceChildren();
        return;
      }
      let src = this.svgCache.get(this.index);
      if (src === undefined) {
        src = "data:image/svg+xml;base64," + base64Utf8(svg);
        this.svgCache.set(this.index, src);
      }
      let img = this.boardSlot.querySelector("img");
      if (!img) {
        img = el("img", { id: "board", alt: "board" });
        this.boardSlot.replaceChildren(img);
      }
      if (img.getAttribute("src") !== src) img.setAttribute("src", src);
    }

    // The step's move, highlighted above the view: each answer given in it (a fault says so instead).
    showLastMove(frame) {
      const lines = (Array.isArray(frame.lines) ? frame.lines : []).filter((l) => l && typeof l === "object");
      if (!lines.length) {
        this.lastMove.replaceChildren(el("span", { class: "muted" }, "No move in this step."));
        return;
      }
      const parts = lines.map((l) => el("span", { class: l.fault ? "move fault" : "move" },
        el("strong", {}, this.playerName(l.seat)), " " + str(l.call) + ": ",
        l.fault ? describeFault(l.fault) : el("code", {}, shorten(json(l.answer), ANSWER_MAX))));
      const out = [el("span", { class: "muted" }, "This step: ")];
      parts.forEach((p, i) => { if (i) out.push("; "); out.push(p); });
      this.lastMove.replaceChildren(...out);
    }

    showEvents(frame) {
      const events = Array.isArray(frame.events) ? frame.events : [];
      this.events.replaceChildren(...(events.length
        ? events.map((e) => el("li", {}, typeof e === "string" ? e : json(e)))
        : [el("li", { class: "muted" }, "No events.")]));
    }

    showCalls(frame) {
      const lines = Array.isArray(frame.lines) ? frame.lines : [];
      const head = el("thead", {}, el("tr", {},
        el("th", {}, "Player"), el("th", {}, "Call"), el("th", {}, "Step"), el("th", {}, "Answer"),
        el("th", { class: "num" }, "Fuel"), el("th", { class: "num" }, "Time")));
      const body = el("tbody");
      for (const line of lines) {
        if (!line || typeof line !== "object") continue;
        const full = json(line.answer);
        const answer = el("td", { class: "answer" }, el("code", {}, shorten(full, ANSWER_MAX)));
        if (full.length > ANSWER_MAX) answer.setAttribute("title", full);
        body.append(el("tr", { class: line.fault ? "faulted last-move" : "last-move" },
          el("td", {}, this.playerName(line.seat)),
          el("td", { class: "call" }, str(line.call)),
          el("td", { class: "num" }, str(line.turn)),
          answer,
          el("td", { class: "num" }, thousands(line.fuel)),
          el("td", { class: "num" }, duration(line.micros))));
        if (typeof line.output === "string" && line.output !== "") {
          // What the seat printed during this call: only ever sent to its owner.
          body.append(el("tr", { class: "output" }, el("td", { colspan: 6 },
            el("span", { class: "badge" }, "output"), el("pre", { class: "call-output" }, line.output))));
        }
        if (line.request !== undefined && line.request !== null) {
          // What the seat was asked in the call it failed: only ever sent to its owner.
          const asked = json(line.request);
          const code = el("code", {}, shorten(asked, ANSWER_MAX * 4));
          if (asked.length > ANSWER_MAX * 4) code.setAttribute("title", asked);
          body.append(el("tr", { class: "request" }, el("td", { colspan: 6 },
            el("span", { class: "badge" }, "asked"), " ", code)));
        }
        if (line.fault) {
          const f = typeof line.fault === "object" ? line.fault : { reason: line.fault };
          body.append(el("tr", { class: "fault" }, el("td", { colspan: 6 },
            el("span", { class: "badge refused" }, str(f.kind) || "fault"),
            f.call ? " in " + str(f.call) : "",
            f.reason ? ": " + str(f.reason) : "")));
        }
      }
      if (!body.children.length) body.append(el("tr", {}, el("td", { colspan: 6, class: "muted" }, "No calls.")));
      this.calls.replaceChildren(head, body);
    }

    showTotals() {
      const totals = this.totals[this.index];
      const head = el("thead", {}, el("tr", {},
        el("th", {}, "Player"), el("th", { class: "num" }, "Calls"), el("th", { class: "num" }, "Fuel"),
        el("th", { class: "num" }, "Time"), el("th", { class: "num" }, "Faults")));
      const body = el("tbody");
      const seats = Math.max(this.players.length, totals.length);
      for (let seat = 0; seat < seats; seat++) {
        const t = totals[seat] || { calls: 0, fuel: 0, micros: 0, faults: 0 };
        body.append(el("tr", { class: t.faults ? "fault" : null },
          el("td", {}, this.playerName(seat)),
          el("td", { class: "num" }, thousands(t.calls)),
          el("td", { class: "num" }, thousands(t.fuel)),
          el("td", { class: "num" }, duration(t.micros)),
          el("td", { class: "num" }, thousands(t.faults))));
      }
      this.totalsTable.replaceChildren(head, body);
    }

    // --- Playing --------------------------------------------------------------------------------

    togglePlay() {
      if (this.timer !== null) this.pause();
      else this.play();
    }

    play() {
      if (this.index >= this.frames.length - 1) this.goTo(0);
      if (this.index >= this.frames.length - 1) return; // a single step: nothing to play
      this.playBtn.textContent = "Pause";
      this.playBtn.setAttribute("aria-pressed", "true");
      this.startTimer();
    }

    startTimer() {
      if (this.timer !== null) clearInterval(this.timer);
      const speed = Number(this.speed.value) || 1;
      this.timer = setInterval(() => {
        this.goTo(this.index + 1);
        if (this.index >= this.frames.length - 1) this.pause();
      }, STEP_MS / speed);
    }

    pause() {
      if (this.timer !== null) clearInterval(this.timer);
      this.timer = null;
      this.playBtn.textContent = "Play";
      this.playBtn.setAttribute("aria-pressed", "false");
    }

    onKey(e) {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isFormField(e.target)) return;
      const onButton = e.target instanceof Element && e.target.matches("button, a[href], summary");
      switch (e.key) {
        case "ArrowLeft": this.pause(); this.goTo(this.index - 1); break;
        case "ArrowRight": this.pause(); this.goTo(this.index + 1); break;
        case "Home": this.pause(); this.goTo(0); break;
        case "End": this.pause(); this.goTo(this.frames.length - 1); break;
        case " ":
        case "Spacebar":
          if (onButton) return; // the focused button handles its own Space
          this.togglePlay();
          break;
        default: return;
      }
      e.preventDefault();
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
