// Runs before anything else: every script error and console error lands
// in data-errors on <body>, where tests (and readers) can see it.
(function () {
  var errors = [];
  function note(msg) {
    errors.push(String(msg));
    document.body.setAttribute("data-errors", errors.join(" | "));
  }
  window.onerror = function (msg, src, line) { note(msg + " (line " + line + ")"); };
  window.addEventListener("unhandledrejection", function (e) { note("unhandled rejection: " + e.reason); });
  var orig = console.error;
  console.error = function () {
    note(Array.prototype.join.call(arguments, " "));
    if (orig) { orig.apply(console, arguments); }
  };
})();
