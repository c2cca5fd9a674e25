/**
 * The script the HTML report runs in the browser (plain ES2017, no imports: uPlot is inlined
 * before it as the global `uPlot`). It reads the data block, draws the charts and tables, then sets
 * on <body>:
 *
 *   data-ready="{...}"   per chart, the points drawn (the browser test fails on a 0);
 *   data-errors="[...]"  every error or console.error seen on the page (the test fails on any);
 *   data-render-ms="N"   milliseconds from navigation start to the end of rendering.
 *
 * Money arrives as exact decimal strings; it becomes a float only here, for drawing. Tables show
 * the strings as they are.
 */
export const CLIENT_JS = String.raw`
(function () {
  "use strict";
  var errors = [];
  function note(msg) {
    errors.push(String(msg));
    document.body.setAttribute("data-errors", JSON.stringify(errors));
  }
  window.addEventListener("error", function (e) { note(e.message || "error"); });
  window.addEventListener("unhandledrejection", function (e) { note("unhandled rejection: " + (e.reason && e.reason.message || e.reason)); });
  var origError = console.error;
  console.error = function () { note(Array.prototype.join.call(arguments, " ")); origError.apply(console, arguments); };
  document.body.setAttribute("data-errors", "[]");

  var data = JSON.parse(document.getElementById("report-data").textContent);
  var ready = {};
  var num = function (s) { return s === null || s === undefined ? null : Number(s); };
  var secs = function (ms) { return ms / 1000; };
  var PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"];
  var width = function () { return Math.min(1100, Math.max(480, document.body.clientWidth - 40)); };

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function section(title, note) {
    var s = el("section");
    s.appendChild(el("h2", {}, title));
    if (note) s.appendChild(el("p", { "class": "note" }, note));
    document.getElementById("charts").appendChild(s);
    return s;
  }
  function table(parent, head, rows, numericFrom) {
    var t = el("table");
    var tr = el("tr");
    head.forEach(function (h) { tr.appendChild(el("th", {}, h)); });
    t.appendChild(tr);
    rows.forEach(function (r) {
      var row = el("tr");
      r.forEach(function (c, i) { row.appendChild(el("td", i >= (numericFrom === undefined ? 1 : numericFrom) ? { "class": "num" } : {}, c === null || c === undefined ? "-" : String(c))); });
      t.appendChild(row);
    });
    parent.appendChild(t);
    return t;
  }
  function chart(id, parent, opts, cols) {
    var box = el("div", { "class": "chart", id: "chart-" + id });
    parent.appendChild(box);
    opts.width = width();
    opts.height = opts.height || 260;
    var u = new uPlot(opts, cols, box);
    var points = 0;
    for (var i = 1; i < cols.length; i++) for (var j = 0; j < cols[i].length; j++) if (cols[i][j] !== null && cols[i][j] !== undefined) points++;
    ready[id] = points;
    return u;
  }
  function line(label, color, extra) {
    var s = { label: label, stroke: color, width: 1.5, spanGaps: false, points: { show: false } };
    for (var k in extra || {}) s[k] = extra[k];
    return s;
  }
  function dots(label, color, shape) {
    return { label: label, stroke: color, fill: shape === "hollow" ? "#fff" : color, width: 1.5, paths: function () { return null; }, points: { show: true, size: 7, stroke: color, fill: shape === "hollow" ? "#fff" : color } };
  }

  var S = data.series;
  var t = S.samples.t.map(secs);

  // Headline and per-market tables.
  var head = document.getElementById("headline");
  table(head, ["figure", "value"], data.totals.map(function (x) { return [x.label, x.value]; }));
  var mk = document.getElementById("markets");
  table(mk, data.marketHead, data.marketRows);

  // Equity.
  var sEq = section("Equity", "net = realised + unrealised - fees (positions at the mid); fees shown as paid (negative).");
  chart("equity", sEq, {
    scales: { x: { time: true } },
    series: [{}, line("net", PALETTE[0], { width: 2 }), line("realised", PALETTE[2]), line("unrealised", PALETTE[3]), line("-fees", PALETTE[1])],
  }, [t, S.samples.netPnl.map(num), S.samples.realisedPnl.map(num), S.samples.unrealisedPnl.map(num), S.samples.feesPaid.map(function (f) { return -Number(f); })]);

  // Drawdown.
  var sDd = section("Drawdown", "running peak of net equity minus net equity; max " + S.drawdown.max + (S.drawdown.at ? " at " + new Date(S.drawdown.at).toISOString() : ""));
  chart("drawdown", sDd, { scales: { x: { time: true } }, series: [{}, line("drawdown", PALETTE[1], { fill: "rgba(214,39,40,0.15)" })] }, [t, S.samples.drawdown.map(function (d) { return -Number(d); })]);

  // PnL decomposition.
  var d = S.pnlDecomposition;
  var sDec = section("PnL decomposition", "spread captured (fill price against the mid at the fill) + inventory mark-to-market (held shares as the mid moved) - fees + settlement = net" + (d.fillsWithoutMid > 0 ? "; " + d.fillsWithoutMid + " fill(s) without a mid: their spread is in mark-to-market" : ""));
  table(sDec, ["part", "amount"], [["spread captured", d.spreadCaptured], ["inventory mark-to-market", d.inventoryMarkToMarket], ["fees", d.fees === "0" ? "0" : "-" + d.fees], ["settlement", d.settlement], ["net", d.net]]);
  chart("decomposition", sDec, {
    height: 180,
    scales: { x: { time: false, range: [0, 5] } },
    axes: [{ values: function (u, vals) { return vals.map(function (v) { return ["", "spread", "inventory MtM", "fees", "settlement", ""][v] || ""; }); } }, {}],
    series: [{}, { label: "amount", stroke: PALETTE[0], fill: "rgba(31,119,180,0.4)", paths: uPlot.paths.bars({ size: [0.5, 80] }), points: { show: false } }],
  }, [[1, 2, 3, 4], [num(d.spreadCaptured), num(d.inventoryMarkToMarket), -Number(d.fees), num(d.settlement)]]);

  // Inventory per market outcome.
  var sInv = section("Inventory", "our position per market and outcome (shares), all wallets together");
  var invSeries = [{}], invCols = [t];
  S.samples.inventory.forEach(function (l, i) {
    invSeries.push(line(l.marketId + " " + l.label, PALETTE[i % PALETTE.length], { paths: uPlot.paths.stepped({ align: 1 }) }));
    invCols.push(l.values.map(num));
  });
  if (invCols.length === 1) { invSeries.push(line("none", PALETTE[0])); invCols.push(t.map(function () { return 0; })); }
  chart("inventory", sInv, { scales: { x: { time: true } }, series: invSeries }, invCols);

  // Quotes against the mid, fills marked, per market outcome (markets with the most fills first).
  var sQ = section("Quotes and fills", "our best bid and ask against the mid at each sample; fills: filled dot maker, hollow dot taker; " + data.fillsShown + " of " + data.fillsTotal + " fills drawn");
  var byLine = {};
  for (var i = 0; i < data.fills.t.length; i++) {
    var k = data.fills.marketId[i] + "|" + data.fills.outcome[i];
    (byLine[k] = byLine[k] || []).push(i);
  }
  var lines = S.samples.mid.map(function (l, i) { return { l: l, i: i, n: (byLine[l.marketId + "|" + l.outcome] || []).length }; });
  lines.sort(function (a, b) { return b.n - a.n || a.i - b.i; });
  lines.slice(0, data.quoteCharts).forEach(function (x) {
    var l = x.l, i = x.i;
    var fi = byLine[l.marketId + "|" + l.outcome] || [];
    // One x axis: the samples and the fills' times, merged in order.
    var xs = [], rows = [];
    var a = 0, b = 0;
    while (a < t.length || b < fi.length) {
      var ta = a < t.length ? t[a] : Infinity, tb = b < fi.length ? secs(data.fills.t[fi[b]]) : Infinity;
      if (ta <= tb) { xs.push(ta); rows.push({ s: a++ }); } else { xs.push(tb); rows.push({ f: fi[b++] }); }
    }
    var col = function (pick) { return rows.map(pick); };
    var sample = function (arr) { return col(function (r) { return r.s === undefined ? null : num(arr[r.s]); }); };
    var fill = function (side, role) { return col(function (r) { return r.f !== undefined && data.fills.side[r.f] === side && (data.fills.role[r.f] === role) ? num(data.fills.price[r.f]) : null; }); };
    var box = el("div");
    box.appendChild(el("h3", {}, l.marketId + " " + l.label + " (" + x.n + " fills drawn)"));
    sQ.appendChild(box);
    chart("quotes-" + l.marketId + "-" + l.outcome, box, {
      scales: { x: { time: true } },
      series: [{}, line("mid", "#555", { spanGaps: true, dash: [4, 3] }), line("our bid", PALETTE[2], { spanGaps: true }), line("our ask", PALETTE[1], { spanGaps: true }),
        dots("buy maker", PALETTE[2], "solid"), dots("buy taker", PALETTE[2], "hollow"), dots("sell maker", PALETTE[1], "solid"), dots("sell taker", PALETTE[1], "hollow")],
    }, [xs, sample(l.values), sample(S.samples.bid[i].values), sample(S.samples.ask[i].values), fill("BUY", "maker"), fill("BUY", "taker"), fill("SELL", "maker"), fill("SELL", "taker")]);
  });
  if (lines.length === 0) sQ.appendChild(el("p", {}, "no market data"));

  // Markouts.
  var sM = section("Markouts", "average signed markout per share (mid at fill + h minus the price for a buy, the price minus it for a sell; positive is good for us), by side and role; " + S.markoutsMissing + " markout(s) not computed (past the end of the data or no mid)");
  var groups = {};
  S.markouts.forEach(function (g) { var k = g.side === "all" ? "all fills" : g.side + " " + g.role; (groups[k] = groups[k] || {})[g.horizonMs] = g; });
  var hs = S.horizonsMs.map(secs);
  var mSeries = [{}], mCols = [hs], mRows = [];
  Object.keys(groups).forEach(function (k, i) {
    mSeries.push({ label: k, stroke: PALETTE[i % PALETTE.length], width: k === "all fills" ? 2.5 : 1.5, points: { show: true, size: 6 } });
    mCols.push(S.horizonsMs.map(function (h) { var g = groups[k][h]; return g ? num(g.perShare) : null; }));
    S.horizonsMs.forEach(function (h) { var g = groups[k][h]; if (g) mRows.push([k, h / 1000 + " s", g.fills, g.shares, g.perShare, g.value]); });
  });
  if (mCols.length === 1) { mSeries.push({ label: "no fills", stroke: "#999" }); mCols.push(hs.map(function () { return 0; })); }
  chart("markouts", sM, { height: 240, scales: { x: { time: false, distr: 3 } }, axes: [{ label: "seconds after the fill" }, {}], series: mSeries }, mCols);
  table(sM, ["fills", "horizon", "count", "shares", "per share", "value"], mRows, 2);

  // Uptime.
  var sU = section("Quote uptime", "share of samples, while the market was open for orders, at which we had a live order");
  table(sU, ["market", "samples", "live", "uptime"], S.uptime.map(function (u) { return [u.marketId, u.samples, u.live, u.fraction === null ? "-" : (Number(u.fraction) * 100).toFixed(2) + "%"]; }));
  var upSeries = [{}], upCols = [t];
  S.samples.quoting.forEach(function (q, i) { upSeries.push(line(q.marketId, PALETTE[i % PALETTE.length], { paths: uPlot.paths.stepped({ align: 1 }) })); upCols.push(q.values.map(function (v) { return v === null ? null : v + i * 0.02; })); });
  if (upCols.length === 1) { upSeries.push(line("none", "#999")); upCols.push(t.map(function () { return 0; })); }
  chart("uptime", sU, { height: 160, scales: { x: { time: true }, y: { range: [-0.1, 1.3] } }, series: upSeries }, upCols);

  // Days.
  var sD = section("Per day", "UTC days; the first and last may be partial. Daily PnL over " + S.daily.days + " day(s): mean " + (S.daily.meanPnl || "-") + ", stdev " + (S.daily.stdevPnl || "-") + ", mean/stdev " + (S.daily.meanOverStdev || "-"));
  table(sD, ["day", "hours", "PnL", "volume", "fills", "fees", "max drawdown"], S.days.map(function (x) { return [x.day, (x.coveredMs / 3600000).toFixed(2), x.pnl, x.volume, x.fills, x.fees, x.maxDrawdown]; }));

  document.body.setAttribute("data-render-ms", String(Math.round(performance.now())));
  document.body.setAttribute("data-ready", JSON.stringify(ready));
})();
`;
