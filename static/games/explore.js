/* The explore page's one script: after htmx swaps the explore part (a click, a link),
   keep the keyboard focus on the control like the one the player used, else on
   the selected piece or the status line, never the top of the page. */
(function () {
  "use strict";
  var key = null;
  document.addEventListener("htmx:beforeSwap", function () {
    var part = document.getElementById("explore"), el = document.activeElement;
    key = part && el && part.contains(el) ? [el.getAttribute("name"), el.value, el.textContent] : null;
  });
  document.addEventListener("htmx:afterSettle", function () {
    var part = document.getElementById("explore");
    if (!part || !key) return;
    var found = [];
    part.querySelectorAll("button, a").forEach(function (el) {
      if (key[0] ? el.getAttribute("name") === key[0] && el.value === key[1] : el.textContent === key[2]) found.push(el);
    });
    found.push(part.querySelector('[aria-pressed="true"]'), part.querySelector(".game-choices a"),
      document.getElementById("explore-status"));
    for (var i = 0; i < found.length; i++) {
      if (!found[i] || found[i].disabled) continue;
      found[i].focus({ preventScroll: true });
      if (document.activeElement === found[i]) break;
    }
    key = null;
  });
})();
