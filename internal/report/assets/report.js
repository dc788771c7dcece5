// Draws the charts described in the page's JSON block. Text from the data
// reaches the page only through ECharts (canvas) or escape(): never as HTML.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("jvmfit-data").textContent);
  var palette = ["#2f6db5", "#d1562b", "#2e9e5b", "#8e5bb8", "#c49a00", "#1b9aa6", "#b8407a", "#6b7b2a",
    "#5a6fd6", "#e07b39", "#3fae8a", "#a05ad0", "#998a2c", "#2a8fc7", "#cc5a8c", "#7f8c3a"];

  function escape(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }

  function base(c) {
    return {
      animation: false,
      color: palette,
      grid: { left: 64, right: 24, top: 40, bottom: 56, containLabel: true },
      tooltip: { trigger: "item", confine: true },
      legend: { type: "scroll", top: 0 }
    };
  }

  function xy(c) {
    var o = base(c);
    // Solid and dashed lines of one subject share a colour.
    var colour = {}, next = 0;
    o.xAxis = { type: "value", name: c.x_name, nameLocation: "middle", nameGap: 28, scale: true };
    o.yAxis = { type: c.y_log ? "log" : "value", name: c.y_name, min: c.y_log ? null : 0 };
    if (c.y_max) { o.yAxis.max = c.y_max; }
    o.tooltip.trigger = "axis";
    o.series = c.series.map(function (s) {
      var key = c.groups ? s.name : s.name.replace(/ (p50|p99|RSS|cgroup|used|committed)$/, "").trim();
      if (!(key in colour)) { colour[key] = palette[next++ % palette.length]; }
      if (s.name === "rate asked") { colour[key] = "#9aa3b2"; }
      var line = {
        name: s.name, type: "line", data: s.points, showSymbol: s.points.length < 40,
        lineStyle: { type: s.dotted ? "dotted" : s.dashed ? "dashed" : "solid", width: s.dashed || s.dotted ? 1.5 : 2 },
        itemStyle: { color: colour[key] }
      };
      if (s.limit) {
        line.markLine = { silent: true, symbol: "none", label: { show: false },
          lineStyle: { type: "solid", width: 1, opacity: 0.55, color: colour[key] }, data: [{ yAxis: s.limit }] };
      }
      return line;
    });
    if (c.groups) { groupLegends(c, o); }
    return o;
  }

  // groupLegends gives each configuration its own legend row, its name
  // drawn at the left, and opens with only the chosen trials drawn. The
  // tooltip names each line's figure, since a trial's lines share a name.
  var rowHeight = 24;
  function groupLegends(c, o) {
    var longest = 0;
    c.groups.forEach(function (g) { longest = Math.max(longest, g.name.length); });
    var nameWidth = Math.max(60, Math.min(240, 7.5 * longest));
    o.legend = c.groups.map(function (g, i) {
      return { type: "scroll", top: 4 + rowHeight * i, left: nameWidth + 16, right: 8, data: g.items, selected: c.selected };
    });
    o.graphic = c.groups.map(function (g, i) {
      return { type: "text", left: 8, top: 8 + rowHeight * i, silent: true,
        style: { text: g.name, width: nameWidth, overflow: "truncate", font: "bold 12px sans-serif", fill: "#1d2430" } };
    });
    o.grid.top = rowHeight * c.groups.length + 28;
    o.tooltip.formatter = function (ps) {
      var out = [escape(ps[0].axisValue) + " s"];
      ps.forEach(function (p) {
        var s = c.series[p.seriesIndex];
        out.push(p.marker + escape(s.group) + " " + escape(s.name) + ", " + escape(s.line) + ": " + escape(p.value[1]) + " " + escape(c.y_name));
      });
      return out.join("<br>");
    };
  }

  // area draws one trial's NMT categories stacked; a select above the
  // chart (text set through textContent) switches trials.
  function area(c, choice) {
    var o = base(c);
    var colours = {};
    c.cats.forEach(function (k, i) { colours[k] = palette[i % palette.length]; });
    // A category axis of the reading times: ECharts stacks a value x
    // axis on x itself, and every band has a point at every reading.
    var series = c.choices[choice].series;
    o.xAxis = { type: "category", boundaryGap: false, name: c.x_name, nameLocation: "middle", nameGap: 28,
      data: series.length ? series[0].points.map(function (p) { return p[0]; }) : [] };
    o.yAxis = { type: "value", name: c.y_name, min: 0 };
    o.tooltip.trigger = "axis";
    o.series = series.map(function (s) {
      return { name: s.name, type: "line", stack: "nmt", data: s.points.map(function (p) { return p[1]; }), showSymbol: false,
        areaStyle: { opacity: 0.85 }, lineStyle: { width: 0.5 }, itemStyle: { color: colours[s.name] }, emphasis: { focus: "series" } };
    });
    return o;
  }

  function chooser(c, el, chart) {
    if (c.choices.length < 2) { return; }
    var label = document.createElement("label");
    label.className = "chooser";
    label.textContent = "Trial: ";
    var sel = document.createElement("select");
    c.choices.forEach(function (ch, i) {
      var opt = document.createElement("option");
      opt.value = String(i);
      opt.textContent = ch.label;
      sel.appendChild(opt);
    });
    sel.value = String(c["default"] || 0);
    sel.addEventListener("change", function () { chart.setOption(area(c, Number(sel.value)), true); });
    label.appendChild(sel);
    el.parentNode.insertBefore(label, el);
  }

  function grid(c) {
    var o = base(c);
    o.legend = undefined;
    o.grid.top = 16;
    o.xAxis = { type: "category", data: c.x_cats, name: c.x_name, nameLocation: "middle", nameGap: 30, splitArea: { show: true } };
    // First configuration on top, as in the tables; long names cut short.
    o.yAxis = { type: "category", data: c.y_cats, inverse: true, splitArea: { show: true },
      axisLabel: { width: 220, overflow: "truncate" } };
    o.visualMap = { show: false, dimension: 2, min: 0, max: 1, inRange: { color: ["#d64541", "#e3a51b", "#2e9e5b"] } };
    o.tooltip.formatter = function (p) {
      return escape(c.y_cats[p.value[1]]) + "<br>" + escape(c.x_cats[p.value[0]]) + ": <b>" + escape(p.value[3]) + "</b>";
    };
    o.series = [{
      type: "heatmap", data: c.cells,
      // A cell shows OK, KO or OK/KO (repeats disagree); why it failed
      // (oom-killed, refused) does not fit and is in the tooltip.
      label: { show: true, color: "#fff", fontSize: 11, formatter: function (p) {
        var t = p.value[3];
        return t.indexOf("/") >= 0 ? "OK/KO" : t.split(" ")[0];
      } },
      itemStyle: { borderColor: "#fff", borderWidth: 2 }
    }];
    return o;
  }

  function barChart(c) {
    if (c.horizontal) { return labelledBars(c); }
    var o = base(c);
    o.tooltip.trigger = "axis";
    o.xAxis = { type: "category", data: c.x_cats, axisLabel: { interval: 0, rotate: c.x_cats.length > 4 ? 20 : 0 } };
    o.yAxis = { type: "value", name: c.y_name };
    o.series = c.bars.map(function (b) {
      return { name: b.name, type: "bar", stack: c.stack ? "total" : undefined, data: b.values, emphasis: { focus: "series" } };
    });
    return o;
  }

  // labelledBars: one bar per category, drawn across so that any number of
  // modes and any name length read, each with its label (e.g. "104Mi ·
  // 4.1s start · p99 38.0ms") on the canvas after the bar.
  function labelledBars(c) {
    var o = base(c);
    var b = c.bars[0];
    o.legend = undefined;
    o.grid.top = 16;
    o.grid.right = 210;
    o.xAxis = { type: "value", name: c.y_name, nameLocation: "middle", nameGap: 28, min: 0 };
    o.yAxis = { type: "category", data: c.x_cats, inverse: true, axisLabel: { width: 200, overflow: "truncate" } };
    o.series = [{ name: b.name, type: "bar", data: b.values, barMaxWidth: 34,
      label: { show: true, position: "right", fontSize: 12, color: "#1d2430",
        formatter: function (p) { return b.text[p.dataIndex]; } } }];
    return o;
  }

  // pareto (tune): every search trial by limit and p99, OK as green
  // circles and KO as red diamonds; the Pareto front ringed and joined;
  // the chosen point a star. Start time and throttling in the tooltip.
  var paretoLook = {
    ok: { type: "scatter", symbol: "circle", symbolSize: 9, color: "#2e9e5b", z: 2 },
    ko: { type: "scatter", symbol: "diamond", symbolSize: 11, color: "#d64541", z: 2 },
    front: { type: "line", symbol: "emptyCircle", symbolSize: 15, color: "#2f6db5", z: 3 },
    chosen: { type: "scatter", symbolSize: 24, color: "#c49a00", z: 4,
      symbol: "path://M50,0L61,35L98,35L68,57L79,91L50,70L21,91L32,57L2,35L39,35Z" }
  };
  function pareto(c) {
    var o = base(c);
    var lo = Infinity, hi = 0;
    c.pareto.forEach(function (s) {
      s.points.forEach(function (p) { if (p.y > 0) { lo = Math.min(lo, p.y); hi = Math.max(hi, p.y); } });
    });
    var log = hi > 0 && hi / lo > 20;
    o.xAxis = { type: "value", name: c.x_name, nameLocation: "middle", nameGap: 28, scale: true };
    o.yAxis = { type: log ? "log" : "value", name: c.y_name, min: log ? null : 0 };
    o.tooltip.formatter = function (p) {
      var d = p.data.p;
      return escape(d.label) + "<br>#" + escape(d.id) + " " + escape(d.text) + (p.seriesName === "chosen" ? " (chosen)" : "") +
        "<br>" + escape(d.x) + " MiB, p99 " + (d.top ? "none (no request answered)" : escape(d.y) + " ms") +
        "<br>start " + escape(d.start) + " s, throttled " + escape((d.throttling * 100).toFixed(1)) + "%";
    };
    o.series = c.pareto.map(function (s) {
      var look = paretoLook[s.role] || paretoLook.ok;
      var line = { name: s.name, type: look.type, symbol: look.symbol, symbolSize: look.symbolSize, z: look.z,
        itemStyle: { color: look.color }, emphasis: { focus: "series" },
        data: s.points.map(function (p) { return { value: [p.x, p.y], p: p }; }) };
      if (look.type === "line") {
        line.showSymbol = true;
        line.lineStyle = { width: 2, color: look.color };
        line.itemStyle.borderWidth = 2;
      }
      return line;
    });
    return o;
  }

  var kinds = { xy: xy, grid: grid, bars: barChart, pareto: pareto, area: function (c) { return area(c, c["default"] || 0); } };
  var ready = 0, drawn = [];
  data.charts.forEach(function (c) {
    var el = document.getElementById(c.id);
    if (c.kind === "grid") {
      // Rows of a comfortable height, not one row stretched over the box.
      el.style.height = Math.max(160, Math.min(900, 90 + 46 * c.y_cats.length)) + "px";
    }
    if (c.horizontal) {
      el.style.height = Math.max(160, Math.min(900, 80 + 44 * c.x_cats.length)) + "px";
    }
    if (c.groups) {
      // Room for a legend row per configuration above the plot.
      el.style.height = (380 + rowHeight * Math.max(0, c.groups.length - 1)) + "px";
    }
    try {
      var chart = echarts.init(el, null, { renderer: "canvas" });
      chart.setOption(kinds[c.kind](c));
      if (c.kind === "area") { chooser(c, el, chart); }
      window.addEventListener("resize", function () { chart.resize(); });
      drawn.push({ c: c, chart: chart, el: el });
      ready++;
    } catch (e) {
      console.error("chart " + c.id + ": " + e);
    }
  });
  document.body.setAttribute("data-charts-ready", String(ready));

  // Opened as page.html#exercise (the browser test does), the page tries
  // what a reader would click: every trial of every menu, and every legend
  // entry drawn at once. Errors land in data-errors like any other.
  if (location.hash === "#exercise") {
    var tried = 0, shown = 0;
    // First, how many lines the grouped charts draw when the page opens
    // (series the legends leave visible), for the test to compare with the
    // trials chosen to open on.
    drawn.forEach(function (d) {
      if (d.c.groups) { d.chart.getModel().eachSeries(function () { shown++; }); }
    });
    document.body.setAttribute("data-shown-lines", String(shown));
    drawn.forEach(function (d) {
      try {
        var sel = d.el.parentNode.querySelector("select");
        if (sel) {
          for (var i = 0; i < sel.options.length; i++) {
            sel.value = String(i);
            sel.dispatchEvent(new Event("change"));
            tried++;
          }
        }
        if (d.c.groups) {
          d.chart.dispatchAction({ type: "legendAllSelect" });
          tried++;
        }
      } catch (e) {
        console.error("exercise " + d.c.id + ": " + e);
      }
    });
    document.body.setAttribute("data-exercised", String(tried));
  }
})();
