// A live match (or a private one opened without its key): polled with the ETag and swapped in
// only when it changed, the reader kept at their moment (referee.js's steppers bound again);
// the key form, whose key goes with every request of the page.
(function () {
  "use strict";
  var referee = window.referee;
  var etag = (document.getElementById("verdict") || {dataset: {}}).dataset.etag || null;

  function headers() {
    var h = referee.keyHeader({"Accept": "text/html"});
    if (etag) { h["If-None-Match"] = etag; }
    return h;
  }

  function refresh() {
    return fetch(location.pathname, {headers: headers(), cache: "no-store"}).then(function (r) {
      if (r.status === 304) { return; }
      var locked = document.getElementById("not-found");  // a private match opened without its key
      if (r.status !== 200) {
        refused(r.status);
        return;
      }
      etag = r.headers.get("ETag");
      return r.text().then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("verdict");
        var old = document.getElementById("verdict") || locked;
        if (fresh && old) {
          var keep = referee.moment();
          old.replaceWith(fresh);
          if (doc.title) { document.title = doc.title; }  // the match's, not the key form's "Not found"
          referee.init();
          initKey();
          referee.resume(keep);
          sayKey();
        }
      });
    }).catch(function () { /* offline for a moment: try again at the next tick */ });
  }

  // A key the server refused (401, 403, or the 404 of a private match): said beside the form,
  // and dropped, so that the page goes on following the match as the table sees it.
  var keyNote = null;  // what the form says of a refused key, kept as the page swaps itself in

  function refused(status) {
    var key = "referee-key:" + location.pathname;
    if (!sessionStorage.getItem(key) || [401, 403, 404].indexOf(status) < 0) { return; }
    sessionStorage.removeItem(key);
    keyNote = "That key does not open this match.";
    sayKey();
  }

  function sayKey() {
    var state = document.getElementById("key-state");
    if (state && keyNote) { state.textContent = keyNote; }
  }

  function initKey() {
    var form = document.getElementById("key-form");
    if (!form || form.dataset.ready) { return; }
    form.dataset.ready = "1";
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var key = form.querySelector("#key").value.trim();
      if (key) { sessionStorage.setItem("referee-key:" + location.pathname, key); }
      keyNote = null;
      etag = null;
      refresh();
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    initKey();
    var verdict = document.getElementById("verdict");
    // A live match, or a private one opened without its key (the key form opens it): followed.
    if ((verdict && verdict.dataset.live) || document.getElementById("not-found")) {
      if (sessionStorage.getItem("referee-key:" + location.pathname)) { refresh(); }
      setInterval(function () {
        var v = document.getElementById("verdict");
        if (v && v.dataset.live) { refresh(); }
      }, 2000);
    }
  });
})();
