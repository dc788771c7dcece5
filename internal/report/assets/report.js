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
      var key = s.name.replace(/ (p50|p99|RSS|cgroup|used|committed)$/, "").trim();
      if (!(key in colour)) { colour[key] = palette[next++ % palette.length]; }
      if (s.name === "rate asked") { colour[key] = "#9aa3b2"; }
      return {
        name: s.name, type: "line", data: s.points, showSymbol: s.points.length < 40,
        lineStyle: { type: s.dashed ? "dashed" : "solid", width: s.dashed ? 1.5 : 2 },
        itemStyle: { color: colour[key] }
      };
    });
    return o;
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
    var o = base(c);
    o.tooltip.trigger = "axis";
    o.xAxis = { type: "category", data: c.x_cats, axisLabel: { interval: 0, rotate: c.x_cats.length > 4 ? 20 : 0 } };
    o.yAxis = { type: "value", name: c.y_name };
    o.series = c.bars.map(function (b) {
      return { name: b.name, type: "bar", stack: c.stack ? "total" : undefined, data: b.values, emphasis: { focus: "series" } };
    });
    return o;
  }

  var kinds = { xy: xy, grid: grid, bars: barChart };
  var ready = 0;
  data.charts.forEach(function (c) {
    var el = document.getElementById(c.id);
    if (c.kind === "grid") {
      // Rows of a comfortable height, not one row stretched over the box.
      el.style.height = Math.max(160, Math.min(900, 90 + 46 * c.y_cats.length)) + "px";
    }
    try {
      var chart = echarts.init(el, null, { renderer: "canvas" });
      chart.setOption(kinds[c.kind](c));
      window.addEventListener("resize", function () { chart.resize(); });
      ready++;
    } catch (e) {
      console.error("chart " + c.id + ": " + e);
    }
  });
  document.body.setAttribute("data-charts-ready", String(ready));
})();
