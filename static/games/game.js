/* After htmx swaps the game's live part (a click, a move, a poll): show the current
   move in the move list, and keep the keyboard focus where the player was.  The
   arrow keys step through the game. */
(function () {
  "use strict";
  var key = null; // the focused control before the swap: [selector, value]
  var inside = false; // whether the focus was in the live part before the swap

  function keyOf(el) {
    if (el.name) return [el.tagName + '[name="' + el.name + '"]', el.value];
    var label = el.getAttribute("aria-label");
    return label ? [el.tagName + '[aria-label="' + label + '"]', null] : null;
  }

  function showCurrentMove() {
    var link = document.querySelector('.move-list [aria-current="step"]');
    if (!link) return;
    var list = link.closest(".move-list"), item = link.closest("li");
    list.scrollTop = item.offsetTop - (list.clientHeight - item.offsetHeight) / 2;
  }

  function restoreFocus(live) {
    var found = [live.querySelector("[autofocus]")];
    if (key) {
      live.querySelectorAll(key[0]).forEach(function (el) {
        if (key[1] === null || el.value === key[1]) found.push(el);
      });
    }
    found.push(live.querySelector('[aria-pressed="true"]'),
      live.querySelector(".game-choices button"), live.querySelector("#game-status"));
    for (var i = 0; i < found.length; i++) {
      if (!found[i] || found[i].disabled) continue;
      found[i].focus({ preventScroll: true });
      if (document.activeElement === found[i]) return;
    }
  }

  document.addEventListener("htmx:beforeSwap", function () {
    var live = document.getElementById("game-live"), el = document.activeElement;
    inside = Boolean(live && el && live.contains(el));
    key = inside ? keyOf(el) : null;
  });
  document.addEventListener("htmx:afterSettle", function () {
    var live = document.getElementById("game-live");
    if (!live) return;
    showCurrentMove();
    var el = document.activeElement;
    // e.g. after Confirm or Cancel, which the swap replaces: a control like the
    // one the player was on, else the status, never the top of the page
    if (inside && (!el || el === document.body || !document.contains(el))) restoreFocus(live);
    key = null;
    inside = false;
  });
  document.addEventListener("DOMContentLoaded", showCurrentMove);

  // ← → Home End step through the game, as the replay links do (each names its key
  // in aria-keyshortcuts), unless the player is typing or uses a modifier
  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var el = event.target;
    if (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName)) return;
    var link = document.querySelector('.game-replay a[aria-keyshortcuts="' + event.key + '"]');
    if (!link) return;
    event.preventDefault();
    link.click();
  });
})();
