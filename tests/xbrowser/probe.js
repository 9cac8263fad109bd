// The first script of the page the WebKit tests load (tests/xbrowser/conftest.py puts it in a
// copy of the built site): WebKitGTK's driver reports no console message, so the page keeps its
// console errors, uncaught errors and unhandled rejections in sessionStorage for the driver.
(function () {
  var KEY = "muster-probe-errors";
  function keep(text) {
    try {
      var list = JSON.parse(sessionStorage.getItem(KEY) || "[]");
      list.push(String(text));
      sessionStorage.setItem(KEY, JSON.stringify(list));
    } catch (e) {
      // no storage: nothing to keep it in
    }
  }
  var error = console.error;
  console.error = function () {
    keep(Array.prototype.map.call(arguments, String).join(" "));
    return error.apply(console, arguments);
  };
  // (WebKit's stack has the frames only: the message goes first.)
  function told(e) {
    return String(e) + (e && e.stack ? "\n" + e.stack : "");
  }
  window.addEventListener("error", function (event) {
    keep("uncaught " + (event.message || told(event.error)));
  });
  window.addEventListener("unhandledrejection", function (event) {
    keep("unhandled rejection " + told(event.reason));
  });
})();
