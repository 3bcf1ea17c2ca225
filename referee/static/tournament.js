// A tournament page: follow it live (ETag polling, the page swapped in place, the scroll
// kept) and open a private one with its key (kept in this tab, sent as a header).
(function () {
  "use strict";
  var KEY = "referee-key:" + location.pathname;
  var etag = null;
  var keyNote = null;  // what the form says of a refused key, kept as the page swaps itself in
  var bellNote = null;  // what the bell did, likewise

  function sayKey() {
    var state = document.getElementById("key-state");
    if (state && keyNote) { state.textContent = keyNote; }
    var bellState = document.getElementById("bell-state");
    if (bellState && bellNote) { bellState.textContent = bellNote; }
  }

  function root() { return document.getElementById("tournament") || document.getElementById("not-found"); }

  function headers() {
    var h = {"Accept": "text/html"};
    var key = sessionStorage.getItem(KEY);
    if (key) { h["Authorization"] = "Bearer " + key; }
    if (etag) { h["If-None-Match"] = etag; }
    return h;
  }

  function refresh() {
    return fetch(location.pathname + location.search, {headers: headers(), cache: "no-store"}).then(function (r) {
      if (r.status === 304) { return; }
      if (r.status === 404) {  // the key typed does not open it: said, and dropped, so the page follows on
        if (sessionStorage.getItem(KEY)) { keyNote = "That key does not open this tournament."; }
        sessionStorage.removeItem(KEY);
        sayKey();
        return;
      }
      etag = r.headers.get("ETag");
      return r.text().then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("tournament"), old = root();
        if (!fresh || !old) { return; }
        var x = window.scrollX, y = window.scrollY;
        old.replaceWith(fresh);
        document.title = doc.title;
        window.scrollTo(x, y);
        init();
        sayKey();
      });
    }).catch(function () { /* offline for a moment: try again at the next tick */ });
  }

  function init() {
    var page = document.getElementById("tournament");
    if (page && etag === null) { etag = page.dataset.etag || null; }
    var form = document.getElementById("key-form");
    if (form && !form.dataset.ready) {
      form.dataset.ready = "1";
      form.addEventListener("submit", function (e) {
        e.preventDefault();
        var key = form.querySelector("#key").value.trim();
        if (key) { sessionStorage.setItem(KEY, key); }
        keyNote = null;
        etag = null;
        refresh();
      });
    }
    bell();
    // A match page keeps its key per address: hand it this tab's key when a link is followed.
    document.querySelectorAll("a.match-link, a.moment").forEach(function (a) {
      a.addEventListener("click", function () {
        var key = sessionStorage.getItem(KEY);
        if (key) { sessionStorage.setItem("referee-key:" + new URL(a.href).pathname, key); }
      });
    });
  }

  // The bell: the matches in play are listed, then closed one by one with the key (each with
  // its current ETag: a card played just before the bell still counts), and the page follows.
  function bell() {
    var ask = document.getElementById("bell-ask");
    if (!ask || ask.dataset.ready) { return; }
    ask.dataset.ready = "1";
    var confirm = document.getElementById("bell-confirm"), state = document.getElementById("bell-state");
    ask.addEventListener("click", function () { confirm.hidden = false; ask.hidden = true; });
    document.getElementById("bell-cancel").addEventListener("click", function () { confirm.hidden = true; ask.hidden = false; });
    document.getElementById("bell-ring").addEventListener("click", function () {
      var ids = Array.prototype.map.call(confirm.querySelectorAll("li[data-match]"), function (li) {
        return [li.dataset.match, li.textContent];
      });
      confirm.hidden = true;
      bellNote = state.textContent = "Closing " + ids.length + " match(es)…";
      var said = [];
      ids.reduce(function (done, pair) {
        return done.then(function () { return closeOne(pair[0]); }).then(function (text) { said.push(pair[1] + ": " + text); });
      }, Promise.resolve()).then(function () {
        bellNote = said.join("; ") + ".";
        state.textContent = bellNote;
        etag = null;
        return refresh();
      });
    });
  }

  function keyed() {
    var h = {"Accept": "application/json", "Content-Type": "application/json"};
    var key = sessionStorage.getItem(KEY);
    if (key) { h["Authorization"] = "Bearer " + key; }
    return h;
  }

  function closeOne(id, again) {
    var url = "/v1/matches/" + encodeURIComponent(id);
    return fetch(url, {headers: keyed(), cache: "no-store"}).then(function (r) {
      return r.json().then(function (m) {
        if (!r.ok) { return Promise.reject(m.detail || r.status); }
        var h = keyed();
        h["If-Match"] = m.etag;
        return fetch(url + "/close", {method: "POST", headers: h, body: "{}"});
      });
    }).then(function (r) {
      if (r.status === 412 && !again) { return closeOne(id, true); }  // a card came in meanwhile: once more
      return r.json().then(function (answer) {
        if (!r.ok) { return "not closed: " + (answer.detail || r.status); }
        var m = answer.match || answer.verdict.match;
        return "closed, courts " + m.courts.join("–") + ", points " + m.points.join("–");
      });
    }).catch(function (why) { return "not closed: " + why; });
  }

  document.addEventListener("DOMContentLoaded", function () {
    init();
    if (sessionStorage.getItem(KEY)) { etag = null; refresh(); }
    setInterval(function () {
      var page = document.getElementById("tournament");
      if (page && page.dataset.live) { refresh(); }
    }, 2000);
  });
})();
