"use strict";
// Renders the report from the JSON data block. Every text that came from an agent (commands,
// paths, reasons, session ids, traces) reaches the page only as a text node or an attribute
// value set through the DOM, never as markup: a hostile command cannot inject an element.
(function () {
  var SVG = "http://www.w3.org/2000/svg";
  var DECISIONS = ["deny", "ask", "allow", "none", "error"];
  // The same colours as the stylesheet's variables (SVG fill attributes do not read them).
  var COLOURS = { deny: "#c62828", ask: "#ef8f00", allow: "#2e7d32", none: "#8a8f98", error: "#6a1b9a" };
  var data = JSON.parse(document.getElementById("hookgate-data").textContent);
  var overview = data.overview;

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    setAttrs(node, attrs);
    append(node, children);
    return node;
  }
  function svg(tag, attrs, children) {
    var node = document.createElementNS(SVG, tag);
    setAttrs(node, attrs);
    append(node, children);
    return node;
  }
  function setAttrs(node, attrs) {
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, String(attrs[k])); });
  }
  function append(node, children) {
    (children || []).forEach(function (c) {
      node.appendChild(typeof c === "object" && c !== null ? c : document.createTextNode(String(c)));
    });
  }
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  // Local time, as the user reads their clock.
  function time(ms) {
    var d = new Date(ms);
    return d.getFullYear() + "-" + pad(d.getMonth() + 1) + "-" + pad(d.getDate()) + " " +
      pad(d.getHours()) + ":" + pad(d.getMinutes()) + ":" + pad(d.getSeconds());
  }
  function micros(us) { return us >= 1000 ? (us / 1000).toFixed(1) + " ms" : us + " µs"; }
  function count(map, key) { return (map && map[key]) || 0; }
  function pill(decision) { return el("span", { "class": "pill " + decision }, [decision]); }
  function decisionClass(d) { return DECISIONS.indexOf(d) >= 0 ? d : "none"; }

  // Summary: the store's own counts (the numbers `hookgate stats` prints).
  var cards = document.getElementById("cards");
  cards.appendChild(el("div", { "class": "card total" }, [
    el("span", { "class": "n", id: "count-total" }, [overview.stats.total]), "records"]));
  DECISIONS.forEach(function (d) {
    cards.appendChild(el("div", { "class": "card " + d }, [
      el("span", { "class": "n", id: "count-" + d }, [count(overview.stats.by_decision, d)]), d]));
  });
  cards.appendChild(el("div", { "class": "card" }, [
    el("span", { "class": "n", id: "count-sessions" }, [overview.sessions.length]), "sessions"]));

  var lat = overview.stats.latency_us;
  var latency = document.getElementById("latency-table");
  ["p50", "p90", "p99", "max"].forEach(function (p) {
    latency.appendChild(el("tr", {}, [el("th", {}, [p]),
      el("td", { "class": "num", id: "latency-" + p, "data-us": lat[p] }, [micros(lat[p])])]));
  });

  // Top denied rules, most frequent first (ties by id).
  var rules = Object.keys(overview.denied.by_rule).map(function (id) {
    return { id: id, n: overview.denied.by_rule[id] };
  }).sort(function (a, b) { return b.n - a.n || (a.id < b.id ? -1 : 1); });
  var top = rules.length ? rules[0].n : 1;
  var denied = document.getElementById("denied-rules");
  if (!rules.length) {
    denied.appendChild(el("tr", {}, [el("td", { colspan: 3, "class": "muted" }, ["no denied call"])]));
  }
  rules.forEach(function (r) {
    var bar = el("div", { "class": "bar" }, []);
    bar.style.width = Math.max(2, Math.round(100 * r.n / top)) + "%";
    denied.appendChild(el("tr", { "class": "denied-rule", "data-rule": r.id }, [
      el("td", {}, [el("code", {}, [r.id])]), el("td", { "class": "num" }, [r.n]),
      el("td", { "class": "bar-cell" }, [bar])]));
  });

  // Timeline: one lane per session, lanes grouped by agent; one dot per call.
  var sessions = overview.sessions.slice().sort(function (a, b) {
    return a.agent < b.agent ? -1 : a.agent > b.agent ? 1 : a.first_ms - b.first_ms;
  });
  var t0 = Infinity, t1 = -Infinity;
  sessions.forEach(function (s) { t0 = Math.min(t0, s.first_ms); t1 = Math.max(t1, s.last_ms); });
  var width = 1200, left = 230, right = 20, laneH = 22, top0 = 24;
  var span = Math.max(1, t1 - t0);
  function x(ms) { return left + (width - left - right) * (ms - t0) / span; }
  var rows = [];
  var lastAgent = null;
  sessions.forEach(function (s) {
    if (s.agent !== lastAgent) { rows.push({ agent: s.agent }); lastAgent = s.agent; }
    rows.push({ session: s });
  });
  var height = top0 + rows.length * laneH + 24;
  var chart = svg("svg", { viewBox: "0 0 " + width + " " + height, role: "img", "aria-label": "decisions over time" }, []);
  rows.forEach(function (row, i) {
    var y = top0 + i * laneH + laneH / 2;
    if (row.agent !== undefined) {
      chart.appendChild(svg("text", { x: 4, y: y + 4, "class": "agent-label" }, [row.agent]));
      return;
    }
    var s = row.session;
    chart.appendChild(svg("line", { x1: left, x2: width - right, y1: y, y2: y, stroke: "#eceef2" }, []));
    var label = s.session.length > 28 ? s.session.slice(0, 27) + "…" : s.session;
    chart.appendChild(svg("text", { x: 16, y: y + 4, "class": "lane-label" }, [label]));
    s.records.forEach(function (r) {
      var tip = time(r.time_ms) + "  " + r.decision + "  " + (r.tool || r.event) +
        (r.targets && r.targets.length ? "  " + r.targets[0] : "");
      var dot = svg("circle", { cx: x(r.time_ms).toFixed(1), cy: y, r: 6, "class": "call-dot",
        fill: COLOURS[decisionClass(r.decision)], "data-decision": r.decision }, [svg("title", {}, [tip])]);
      dot.addEventListener("click", function () { openSession(s, r.id); });
      chart.appendChild(dot);
    });
  });
  if (sessions.length) {
    chart.appendChild(svg("text", { x: left, y: height - 6, "class": "axis" }, [time(t0)]));
    chart.appendChild(svg("text", { x: width - right, y: height - 6, "class": "axis", "text-anchor": "end" }, [time(t1)]));
  } else {
    chart.appendChild(svg("text", { x: left, y: top0 + 10, "class": "axis" }, ["no record in this window"]));
  }
  document.getElementById("timeline").appendChild(chart);

  // Per-session drill-down: every call with its determining ids and trace.
  var list = document.getElementById("session-list");
  var panels = {};
  var calls = 0;
  overview.sessions.forEach(function (s) {
    var body = el("tbody", {}, []);
    s.records.forEach(function (r) {
      calls += 1;
      var trace = r.trace === undefined || r.trace === null ? "" : JSON.stringify(r.trace, null, 2);
      var details = [];
      if (r.reason) { details.push(el("div", {}, [r.reason])); }
      if (r.error) { details.push(el("div", { "class": "notice" }, ["error: " + r.error])); }
      if (trace) {
        details.push(el("details", {}, [el("summary", {}, ["trace"]), el("pre", {}, [trace])]));
      }
      body.appendChild(el("tr", { "class": "call", id: "call-" + r.id, "data-decision": r.decision }, [
        el("td", {}, [time(r.time_ms)]),
        el("td", {}, [pill(decisionClass(r.decision))]),
        el("td", {}, [r.event, r.tool ? " · " + r.tool : ""]),
        el("td", {}, [el("code", { "class": "targets" }, [(r.targets || []).join("\n")])]),
        el("td", {}, [el("code", { "class": "rules" }, [(r.rules || []).join(", ")])]),
        el("td", { "class": "num" }, [micros(r.duration_us)]),
        el("td", {}, details)
      ]));
    });
    var summary = [s.agent + " · ", el("code", {}, [s.session]), " · " + time(s.first_ms) + " – " + time(s.last_ms) + " · "];
    DECISIONS.forEach(function (d) {
      var n = count(s.stats.by_decision, d);
      if (n) { summary.push(pill(d), " " + n + "  "); }
    });
    var panel = el("details", { "class": "session", "data-agent": s.agent, "data-calls": s.records.length }, [
      el("summary", {}, summary),
      el("table", {}, [el("thead", {}, [el("tr", {}, ["time", "decision", "event · tool", "command / paths",
        "determining ids", "duration", "reason · trace"].map(function (h) { return el("th", {}, [h]); }))]), body])
    ]);
    panels[s.agent + "\u0000" + s.session] = panel;
    list.appendChild(panel);
  });
  function openSession(s, id) {
    var panel = panels[s.agent + "\u0000" + s.session];
    if (!panel) { return; }
    panel.open = true;
    var row = document.getElementById("call-" + id);
    (row || panel).scrollIntoView({ block: "center" });
  }
  // The number of call rows drawn: a reader (or a test) can tell the page finished rendering.
  document.querySelector("main").setAttribute("data-rendered-calls", String(calls));
})();
