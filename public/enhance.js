/*
 * The small conveniences of a page that ships no React (decision 084): one file, no framework,
 * loaded with `defer` by a page whose route declares it (`handle: ENHANCED_PAGE`). Everything here
 * is a convenience: the page works the same without it.
 *
 * - The shell's Menu (`details[data-menu]`): Escape closes it and gives focus back to its button;
 *   a tap elsewhere, or focus moving on past it, closes it (nothing with focus hides under it).
 * - Copy buttons (`button[data-copy]`, sent inside a `hidden` box): shown, and copy their text,
 *   announcing the outcome in the `[data-copy-status]` beside them.
 * - The session across tabs (`data-session` on this script: "in" or "out"): tells the other tabs of
 *   this site, and when another tab, or the server on focus, says otherwise, reloads the page; the
 *   server then sends a page that needs a session to sign-in.
 */
(function () {
  "use strict";
  var script = document.currentScript;

  function each(selector, run) {
    Array.prototype.forEach.call(document.querySelectorAll(selector), run);
  }

  each("details[data-menu]", function (menu) {
    var close = function () {
      menu.open = false;
    };
    menu.addEventListener("keydown", function (event) {
      if (event.key !== "Escape" || !menu.open) return;
      close();
      var summary = menu.querySelector("summary");
      if (summary) summary.focus();
    });
    menu.addEventListener("focusout", function (event) {
      if (menu.open && event.relatedTarget && !menu.contains(event.relatedTarget)) close();
    });
    document.addEventListener("pointerdown", function (event) {
      if (menu.open && !menu.contains(event.target)) close();
    });
  });

  each("button[data-copy]", function (button) {
    var status = button.parentElement && button.parentElement.querySelector("[data-copy-status]");
    var say = function (words) {
      if (status) status.textContent = words || "";
    };
    var box = button.closest("[hidden]");
    if (box) box.hidden = false;
    button.addEventListener("click", function () {
      say("");
      var copied = navigator.clipboard
        ? navigator.clipboard.writeText(button.getAttribute("data-copy") || "")
        : Promise.reject(new Error("no clipboard"));
      copied.then(
        function () {
          say(button.getAttribute("data-copied"));
        },
        function () {
          say(button.getAttribute("data-refused"));
        },
      );
    });
  });

  // Said once everything above listens (the tests wait for it, as for React's hydration).
  document.documentElement.setAttribute("data-enhanced", "");

  var session = script && script.getAttribute("data-session");
  if (session !== "in" && session !== "out") return;
  var signedIn = session === "in";
  var reloading = false;
  var check = function () {
    if (reloading) return;
    fetch("/api/auth/session", { credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (body) {
        if (body && Boolean(body.authenticated) !== signedIn && !reloading) {
          reloading = true;
          location.reload();
        }
      })
      .catch(function () {
        // Offline, or the server is restarting: the next check or request will tell.
      });
  };
  window.addEventListener("focus", check);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") check();
  });
  if (typeof BroadcastChannel !== "undefined") {
    var channel = new BroadcastChannel("portal-session");
    channel.onmessage = function (event) {
      if (event.data && event.data.signedIn !== signedIn) check();
    };
    channel.postMessage({ signedIn: signedIn });
  }
})();
