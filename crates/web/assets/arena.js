// Arena's page script, served at /assets/arena.js: sortable tables (<table class="sortable">), live
// updates over server-sent events (<body data-live="URL">), and confirmation before submitting forms
// with data-confirm. Works on content replaced by live updates too (event delegation).
(function () {
  "use strict";

  // --- Sortable tables ------------------------------------------------------------------------------
  // Click (or Enter/Space on) a <th> of a table.sortable to sort its rows by that column; again to reverse.
  // A cell's data-sort attribute, when present, is its sort key; numbers sort as numbers.

  const sortState = new Map(); // table id -> {column, descending}, to sort again after a live update

  function cellKey(row, column) {
    const cell = row.cells[column];
    if (!cell) return "";
    return (cell.hasAttribute("data-sort") ? cell.getAttribute("data-sort") : cell.textContent).trim();
  }

  function asNumber(text) {
    const cleaned = text.replace(/[,\s\u00a0\u202f]/g, "").replace(/%$/, "");
    if (cleaned === "" || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(cleaned)) return null;
    return Number(cleaned);
  }

  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });

  function compareKeys(a, b) {
    const x = asNumber(a);
    const y = asNumber(b);
    if (x !== null && y !== null) return x - y;
    return collator.compare(a, b);
  }

  function sortTable(table, th, descending) {
    const column = th.cellIndex;
    const body = table.tBodies[0];
    if (!body || column < 0) return;
    const rows = Array.from(body.rows);
    rows.sort((r1, r2) => {
      const c = compareKeys(cellKey(r1, column), cellKey(r2, column));
      return descending ? -c : c;
    });
    body.append(...rows); // sort is stable, so equal rows keep their order
    for (const other of table.querySelectorAll("thead th, tr:first-child > th")) {
      if (other !== th) other.removeAttribute("aria-sort");
    }
    th.setAttribute("aria-sort", descending ? "descending" : "ascending");
    if (table.id) sortState.set(table.id, { column, descending });
  }

  function headerCell(target) {
    if (!(target instanceof Element)) return null;
    const th = target.closest("th");
    if (!th || th.hasAttribute("data-nosort")) return null;
    const table = th.closest("table");
    if (!table || !table.classList.contains("sortable")) return null;
    // Only header cells of the head row (not row headers in the body).
    if (th.parentElement.parentElement !== table.tHead && th.parentElement !== table.rows[0]) return null;
    return { table, th };
  }

  function onSortRequest(target) {
    const hit = headerCell(target);
    if (!hit) return false;
    const descending = hit.th.getAttribute("aria-sort") === "ascending";
    sortTable(hit.table, hit.th, descending);
    return true;
  }

  // Makes the headers focusable, and sorts again the tables a live update replaced.
  function prepareTables(root) {
    for (const table of root.querySelectorAll("table.sortable")) {
      const head = table.tHead ? table.tHead.rows[0] : table.rows[0];
      if (!head) continue;
      for (const th of head.cells) {
        if (th.tagName === "TH" && !th.hasAttribute("data-nosort") && !th.hasAttribute("tabindex")) {
          th.setAttribute("tabindex", "0");
        }
      }
      const state = table.id && sortState.get(table.id);
      if (state && head.cells[state.column]) sortTable(table, head.cells[state.column], state.descending);
    }
  }

  document.addEventListener("click", (e) => {
    if (e.target instanceof Element && e.target.closest("a, button, input, select, textarea")) return;
    onSortRequest(e.target);
  });
  document.addEventListener("keydown", (e) => {
    if ((e.key === "Enter" || e.key === " ") && e.target instanceof Element && e.target.tagName === "TH") {
      if (onSortRequest(e.target)) e.preventDefault();
    }
  });

  // --- Confirmations --------------------------------------------------------------------------------
  // <form data-confirm="Delete this player?">; a submit button's own data-confirm takes precedence.

  document.addEventListener("submit", (e) => {
    const form = e.target;
    if (!(form instanceof HTMLFormElement)) return;
    const submitter = e.submitter;
    let message = submitter && submitter.hasAttribute("data-confirm") ? submitter.getAttribute("data-confirm") : null;
    if (message === null && form.hasAttribute("data-confirm")) message = form.getAttribute("data-confirm");
    if (message === null) return;
    if (!window.confirm(message || "Are you sure?")) {
      e.preventDefault();
      e.stopImmediatePropagation();
    }
  }, true);

  // --- Times -------------------------------------------------------------------------------------
  // <time data-unix="SECONDS">UTC text</time>: shown in the reader's own time zone too, and, while it
  // is ahead, with a countdown ("in 2 d 3 h", "in 5 min 10 s") refreshed every second.

  function countdown(secs) {
    const parts = [[86400, "d"], [3600, "h"], [60, "min"], [1, "s"]];
    const out = [];
    for (const [unit, name] of parts) {
      if (secs >= unit || (unit === 1 && out.length === 0)) {
        out.push(`${Math.floor(secs / unit)} ${name}`);
        secs %= unit;
      }
      if (out.length === 2) break;
    }
    return out.join(" ");
  }

  function showTimes(root) {
    root.querySelectorAll("time[data-unix]").forEach((t) => {
      const at = Number(t.dataset.unix) * 1000;
      if (!Number.isFinite(at)) return;
      if (!t.dataset.utc) t.dataset.utc = t.textContent.trim().replace("T", " ").replace(/Z$/, " UTC");
      const local = new Date(at).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
      const left = Math.floor((at - Date.now()) / 1000);
      t.textContent = `${local} your time (${t.dataset.utc})` + (left > 0 ? `, in ${countdown(left)}` : "");
      t.title = t.dataset.utc;
    });
  }

  // --- Busy forms ----------------------------------------------------------------------------------
  // <form data-busy="Validating…">: once submitted (and not cancelled), its submit button is disabled
  // and the message shown beside it with the seconds so far, until the answer's page arrives.

  document.addEventListener("submit", (e) => {
    const form = e.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-busy") || e.defaultPrevented) return;
    const started = Date.now();
    let note = form.querySelector(".busy");
    if (!note) {
      note = document.createElement("p");
      note.className = "busy";
      note.setAttribute("role", "status");
      form.append(note);
    }
    const tick = () => {
      note.textContent = `${form.getAttribute("data-busy")} (${Math.floor((Date.now() - started) / 1000)} s)`;
    };
    tick();
    setInterval(tick, 1000);
    // Disabled after the submission has started, so the button's own value is still sent.
    setTimeout(() => form.querySelectorAll("button[type=submit]").forEach((b) => { b.disabled = true; }), 0);
  });

  // --- Live updates ---------------------------------------------------------------------------------
  // <body data-live="/tournaments/3/live">: each message is JSON {"html": {"element-id": "<fragment>"},
  // "done": bool}. The fragments are rendered and escaped by the server, so they go in as innerHTML.

  function liveStatus() {
    let status = document.getElementById("live-status");
    if (!status) {
      status = document.createElement("span");
      status.id = "live-status";
      const nav = document.querySelector("nav");
      (nav || document.body).append(status);
    }
    status.classList.add("live-status");
    status.setAttribute("role", "status");
    return status;
  }

  function setStatus(state) {
    const status = liveStatus();
    status.textContent = state;
    status.dataset.state = state;
  }

  function applyUpdate(update) {
    const html = update && typeof update.html === "object" && update.html !== null ? update.html : {};
    const changed = [];
    for (const [id, fragment] of Object.entries(html)) {
      const target = document.getElementById(id);
      if (!target || typeof fragment !== "string") continue;
      target.innerHTML = fragment;
      prepareTables(target);
      changed.push(id);
    }
    if (changed.length) document.dispatchEvent(new CustomEvent("arena:updated", { detail: { ids: changed } }));
  }

  function startLive(url) {
    if (typeof EventSource === "undefined") return;
    let source = null;
    let finished = false;
    let retryMs = 1000;

    function connect() {
      source = new EventSource(url);
      source.onopen = () => {
        retryMs = 1000;
        setStatus("live");
      };
      source.onmessage = (event) => {
        let update;
        try {
          update = JSON.parse(event.data);
        } catch (_) {
          return; // not ours; ignore
        }
        setStatus("live");
        applyUpdate(update);
        if (update && update.done === true) {
          finished = true;
          source.close();
          setStatus("finished");
        }
      };
      source.onerror = () => {
        if (finished) return;
        setStatus("reconnecting");
        // The browser retries by itself while CONNECTING; once CLOSED (an HTTP error), retry ourselves.
        if (source.readyState === EventSource.CLOSED) {
          setTimeout(() => { if (!finished) connect(); }, retryMs);
          retryMs = Math.min(retryMs * 2, 30000);
        }
      };
    }

    setStatus("live");
    connect();
    window.addEventListener("pagehide", () => { if (source) source.close(); });
    window.addEventListener("pageshow", (e) => { if (e.persisted && !finished) connect(); });
  }

  // --- Candidates under test ------------------------------------------------------------------------
  // <table data-candidates="/api/…/candidates" data-testing>: while one is under test, its evidence is
  // read again every two seconds and the rows rewritten (as text) with the cells the server renders.

  function candidateCells(c) {
    let status = c.status;
    if (c.status === "accepted" && c.version != null) status = "accepted: now v" + c.version;
    else if (c.status === "undecided") status = "undecided at the cap (not promoted)";
    else if (c.status === "superseded") status = "superseded by a newer version";
    return [String(c.id), "v" + c.against, status, c.games + " / " + c.cap, String(c.wins), String(c.draws),
      String(c.losses), c.llr.toFixed(2), c.lower.toFixed(2) + " … " + c.upper.toFixed(2)];
  }

  function followCandidates(table) {
    const tick = () => {
      fetch(table.dataset.candidates, { headers: { Accept: "application/json" } })
        .then((r) => (r.ok ? r.json() : Promise.reject(r.status)))
        .then((list) => {
          const body = table.tBodies[0];
          body.replaceChildren(...list.map((c) => {
            const tr = document.createElement("tr");
            for (const text of candidateCells(c)) {
              const td = document.createElement("td");
              td.textContent = text;
              tr.append(td);
            }
            return tr;
          }));
          if (list.some((c) => c.status === "testing")) setTimeout(tick, 2000);
          else delete table.dataset.testing;
        })
        .catch(() => setTimeout(tick, 10000));
    };
    setTimeout(tick, 2000);
  }

  function start() {
    document.querySelectorAll("table[data-candidates][data-testing]").forEach(followCandidates);
    prepareTables(document);
    showTimes(document);
    if (document.querySelector("time[data-unix]")) setInterval(() => showTimes(document), 1000);
    const live = document.body && document.body.dataset.live;
    if (live) startLive(live);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
