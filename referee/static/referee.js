// Step through a deal (buttons, arrow keys, a URL per moment) and follow a live match. A big
// record's deals come without their tricks and steps: opening one fetches them.
(function () {
  "use strict";
  var SYMBOL = {S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663"};
  var SUIT = {S: "spades", H: "hearts", D: "diamonds", C: "clubs"};
  var RANK = {A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", "9": "nine", "8": "eight",
              "7": "seven", "6": "six", "5": "five", "4": "four", "3": "three", "2": "two"};
  var active = null;

  function cardEl(text, extra) {
    var span = document.createElement("span");
    span.setAttribute("role", "img");
    if (!text) {
      span.className = "card back " + (extra || "");
      span.textContent = "\uD83C\uDCA0";
      span.setAttribute("aria-label", "a face-down card");
      return span;
    }
    var rank = text[0], suit = text[1];
    span.className = "card " + (suit === "H" || suit === "D" ? "red " : "black ") + (extra || "");
    span.textContent = (rank === "T" ? "10" : rank) + SYMBOL[suit];
    span.setAttribute("aria-label", RANK[rank] + " of " + SUIT[suit]);
    span.dataset.card = text;
    return span;
  }

  function cardText(text) {
    return text ? (text[0] === "T" ? "10" : text[0]) + SYMBOL[text[1]] : "a face-down card";
  }

  function Stepper(root, steps) {
    this.root = root;
    this.deal = Number(root.dataset.deal);
    this.steps = steps || JSON.parse(root.querySelector("script.steps").textContent);
    this.names = JSON.parse(root.dataset.names || "null") || ["seat 0", "seat 1", "seat 2", "seat 3"];
    this.violations = JSON.parse(root.dataset.violations || "[]");
    this.marks = {};  // event -> the violations committed by that event's card
    var marks = this.marks;
    this.violations.forEach(function (v) { (marks[v.event] = marks[v.event] || []).push(v); });
    this.cursor = 0;
    var self = this;
    root.querySelector(".prev").addEventListener("click", function () { self.move(-1); });
    root.querySelector(".next").addEventListener("click", function () { self.move(1); });
    root.addEventListener("focusin", function () { active = self; });
    root.addEventListener("click", function () { active = self; });
  }

  Stepper.prototype.move = function (delta) {
    this.show(Math.max(0, Math.min(this.steps.length - 1, this.cursor + delta)), true);
  };

  Stepper.prototype.goToEvent = function (event, push) {
    for (var k = 0; k < this.steps.length; k++) {
      if (this.steps[k].event === event) { this.show(k, push); return true; }
    }
    return false;
  };

  Stepper.prototype.show = function (k, push) {
    this.cursor = k;
    active = this;
    var step = this.steps[k], root = this.root;
    root.querySelectorAll(".seat").forEach(function (seatEl) {
      var seat = Number(seatEl.dataset.seat);
      var hand = seatEl.querySelector(".hand");
      hand.textContent = "";
      var legal = step.to_play === seat && step.legal ? step.legal : [];
      if (step.hands) {
        step.hands[seat].forEach(function (c) {
          hand.appendChild(cardEl(c, legal.indexOf(c) >= 0 ? "legal" : ""));
        });
      } else {
        hand.textContent = "(hand " + root.dataset.handsNote + ")";
      }
      seatEl.querySelector(".turn").hidden = step.to_play !== seat;
      seatEl.classList.toggle("to-play", step.to_play === seat);
    });
    var names = this.names;
    root.classList.toggle("ignored", !!step.ignored);
    root.classList.toggle("referee", !!step.referee);
    var refereeFrom = this.refereeFrom();
    var centre = root.querySelector(".centre");
    centre.textContent = "";
    var marks = this.marks;
    step.table.forEach(function (p) {
      var wins = step.won && step.won.winner === p.seat;
      var broke = marks[p.event];
      var slot = document.createElement("span");
      slot.className = "slot slot" + p.seat + (wins ? " wins" : "") + (p.event >= refereeFrom ? " referee" : "") +
        (broke ? " violating" : "");
      slot.appendChild(cardEl(p.card, p.face_down ? "facedown" : ""));
      var who = document.createElement("small");
      who.textContent = " " + names[p.seat] + (wins ? " wins" : "");
      slot.appendChild(who);
      if (broke) {
        var mark = document.createElement("small");
        mark.className = "violation-mark";
        mark.textContent = broke.map(function (v) { return v.code.replace(/_/g, " "); }).join(", ");
        slot.appendChild(mark);
      }
      centre.appendChild(slot);
    });
    root.querySelector(".position").textContent = this.line(k, step);
    this.violationLine(step);
    this.legalLine(step);
    root.querySelector(".prev").disabled = k === 0;
    root.querySelector(".next").disabled = k === this.steps.length - 1;
    var moment = "deal=" + (this.deal + 1) + "&event=" + (step.event + 1);
    var link = root.querySelector(".permalink");
    link.hidden = pasted === undefined || pasted === false;  // a pasted record: once packed, if it fits
    link.setAttribute("href", pasted ? "/check#" + moment + "&r=" + pasted : "?" + moment);
    if (push) { history.replaceState(null, "", "?" + moment + "#deal-" + this.deal); }
    var mark = document.querySelectorAll(".play.current");
    mark.forEach(function (el) { el.classList.remove("current"); });
    var played = document.getElementById("deal-" + this.deal + "-event-" + step.event);
    if (played) { played.classList.add("current"); }
    root.dispatchEvent(new CustomEvent("referee:step", {bubbles: true, detail: {stepper: this, step: step, push: !!push}}));
  };

  // The step bar: what the engine's replay holds at this event (nothing is counted here).
  Stepper.prototype.line = function (k, step) {
    var trump = step.trump ? SYMBOL[step.trump] + " " + SUIT[step.trump] : (step.trump_hidden ? "hidden" : "not set");
    var parts = [this.moment(step) + ": " + this.said(step.note), "trick " + step.trick];
    if (step.won) { parts.push(this.wonText(step.won)); }
    parts.push("tricks " + step.tricks_won.join("–"));
    if (this.root.dataset.piles) { parts.push("pile " + step.pile); }
    parts.push("trump " + trump);
    return parts.join(" · ");
  };

  // Deals and events as people count them, from 1 (the step's `event` is the record's index).
  Stepper.prototype.moment = function (step) {
    if (step.event < 0) { return "Before event 1"; }
    return "Event " + (step.event + 1) + " of " + this.root.dataset.events;
  };

  Stepper.prototype.said = function (text) {
    var names = this.names;
    return text.replace(/\bseat ([0-3])\b/g, function (_, seat) { return names[Number(seat)]; });
  };

  Stepper.prototype.wonText = function (won) {
    var text = this.names[won.winner] + " wins the trick with " + cardText(won.winning_card);
    if (won.collected_by === null || won.collected_by === undefined) { return text + ", to the pile"; }
    return text + ", team " + won.collected_by + " collects " + won.collected + (won.collected === 1 ? " trick" : " tricks");
  };

  Stepper.prototype.legalLine = function (step) {
    var el = this.root.querySelector(".legal-text");
    el.textContent = "";
    if (step.error) {
      el.textContent = "Stopped: " + this.said(step.note);
    } else if (step.referee) {
      this.ruleNote(el, "Played by the referee: the deal is finished by perfect play", "R-34", "rules R-34, R-32");
    } else if (step.ignored) {
      this.ruleNote(el, "Ignored: after the penalty the tricks stop at the penalty trick; this event is not played",
                    "R-11", "rule R-11");
    } else if (step.to_play !== null && step.to_play !== undefined) {
      el.textContent = this.names[step.to_play] + " to play" +
        (step.legal ? ": may play " + step.legal.map(cardText).join(" ") : "") + ".";
    }
  };

  // The violation this step's card committed, said at its step (the card is marked on the table).
  Stepper.prototype.violationLine = function (step) {
    var el = this.root.querySelector(".step-violation");
    if (!el) { return; }
    var found = step.ignored ? null : this.marks[step.event];
    el.hidden = !found;
    el.textContent = "";
    if (!found) { return; }
    var self = this;
    found.forEach(function (v) {
      var head = document.createElement("strong");
      head.textContent = v.code.replace(/_/g, " ") + (v.penalty ? ", decides the deal" : "") +
        (v.corrected ? ", corrected" : "") + (v.pending ? ", pending (the trick is open)" : "");
      el.appendChild(head);
      el.appendChild(document.createTextNode(": " + self.said(v.message || "") + ". "));
    });
  };

  // Where a deal opens: at its decisive moment, the first violation's card, once the deal is
  // decided; at its last event while it is played (or stopped by a record error).
  Stepper.prototype.opening = function () {
    var status = this.root.dataset.status;
    var first = Math.min.apply(null, this.violations.map(function (v) { return v.event; }));
    if (status !== "in_progress" && status !== "invalid" && isFinite(first)) {
      for (var k = 0; k < this.steps.length; k++) {
        if (this.steps[k].event === first && !this.steps[k].ignored && !this.steps[k].error) { return k; }
      }
    }
    return this.steps.length - 1;
  };

  // "text (rule link)." in `el`.
  Stepper.prototype.ruleNote = function (el, text, id, label) {
    el.appendChild(document.createTextNode(text + " ("));
    var a = document.createElement("a");
    a.href = this.root.dataset.rules + "#" + id;
    a.textContent = label;
    el.appendChild(a);
    el.appendChild(document.createTextNode(")."));
  };

  // The first event of the referee's plays (a settled claim's line, the bell's), if any.
  Stepper.prototype.refereeFrom = function () {
    for (var i = 0; i < this.steps.length; i++) {
      if (this.steps[i].referee) { return this.steps[i].event; }
    }
    return Infinity;
  };

  Stepper.prototype.first = function () { this.show(0, true); };
  Stepper.prototype.last = function () { this.show(this.steps.length - 1, true); };

  var steppers = {};
  var loading = {};

  // A deal of a big record: fetch its tricks and steps once, when it is opened.
  function load(details) {
    var deal = details.dataset.deal;
    if (steppers[deal]) { return Promise.resolve(steppers[deal]); }
    if (loading[deal]) { return loading[deal]; }
    var record = document.getElementById("record-json");
    var request = record ? {method: "POST", headers: {"Content-Type": "application/json"}, body: record.textContent}
                         : {headers: keyHeader({"Accept": "application/json"}), cache: "no-store"};
    loading[deal] = fetch(details.dataset.src, request).then(function (r) {
      if (!r.ok) { throw new Error("HTTP " + r.status); }
      return r.json();
    }).then(function (answer) {
      var body = details.querySelector(".deal-body");
      body.innerHTML = answer.html;
      bindStepLinks(body);
      var el = body.querySelector(".stepper");
      if (!el) { return null; }
      var s = new Stepper(el, answer.steps);
      steppers[deal] = s;
      s.show(s.opening(), false);
      details.dataset.loaded = "1";
      return s;
    }).catch(function (err) {
      delete loading[deal];
      details.querySelector(".deal-body").textContent = "Could not load this deal (" + err.message + "); close and open it to try again.";
      return null;
    });
    return loading[deal];
  }

  // The stepper of a deal, fetched first if its deal is not loaded yet.
  function stepperOf(deal) {
    if (steppers[deal]) { return Promise.resolve(steppers[deal]); }
    var details = document.querySelector("details.deal-more[data-deal='" + deal + "']");
    if (!details) { return Promise.resolve(null); }
    details.open = true;
    return load(details);
  }

  function bindStepLinks(root) {
    root.querySelectorAll("[data-step]").forEach(function (a) {
      a.addEventListener("click", function (e) {
        var parts = a.dataset.step.split(":");
        e.preventDefault();
        stepperOf(parts[0]).then(function (s) {
          if (s && s.goToEvent(Number(parts[1]), true)) {
            s.root.scrollIntoView({block: "nearest"});
          } else {
            location.href = a.getAttribute("href");
          }
        });
      });
    });
  }

  function init() {
    steppers = {};
    loading = {};
    document.querySelectorAll(".stepper").forEach(function (el) {
      var s = new Stepper(el);
      steppers[s.deal] = s;
      s.show(s.opening(), false);
    });
    document.querySelectorAll("details.deal-more").forEach(function (details) {
      details.addEventListener("toggle", function () { if (details.open) { load(details); } });
    });
    // ?deal=1&event=6, or a pasted record's link: #deal=1&event=6&r=...
    var params = new URLSearchParams(location.hash.indexOf("deal=") === 1 ? location.hash.slice(1) : location.search);
    var opened = Promise.resolve(null);
    if (params.has("deal")) {  // ?deal=1&event=6: the sixth event of the first deal (event=0: the deal dealt)
      opened = stepperOf(String(Number(params.get("deal")) - 1)).then(function (s) {
        if (!s) { return null; }
        if (!s.goToEvent(Number(params.get("event")) - 1, false)) { s.show(0, false); }
        document.getElementById("deal-" + s.deal).scrollIntoView();
        return s;
      });
    }
    opened.then(function (s) {
      if (!s) {
        var first = Object.keys(steppers)[0];
        active = first !== undefined ? steppers[first] : active;
      }
    });
    document.querySelectorAll("details.deal-more[open]").forEach(load);
    bindStepLinks(document);
    initKey();
  }

  // -- a pasted record's moment: the record travels in the link's fragment, compressed (the
  // browser's CompressionStream, base64url), never sent anywhere to be kept ------------------
  var MAX_LINK = 2000000;  // longer addresses are not reliably opened: no link then
  var pasted = null;       // null: the page is not a pasted record's; undefined: packing; false: no link

  function toBase64url(bytes) {
    var text = "";
    for (var i = 0; i < bytes.length; i += 0x8000) { text += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000)); }
    return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function fromBase64url(text) {
    var raw = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) { bytes[i] = raw.charCodeAt(i); }
    return bytes;
  }

  function through(stream, bytes) {
    return new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer()
      .then(function (b) { return new Uint8Array(b); });
  }

  function packRecord() {
    var record = document.getElementById("record-json");
    if (!record || pasted !== null) { return; }
    if (typeof CompressionStream === "undefined") { pasted = false; return; }
    pasted = undefined;
    var text = new TextEncoder().encode(record.textContent);
    if (text.length > Number(record.dataset.maxRecord || Infinity)) { pasted = false; return; }  // it would not open
    through(new CompressionStream("deflate"), text).then(function (bytes) {
      var packed = toBase64url(bytes);
      pasted = packed.length <= MAX_LINK ? packed : false;
    }).catch(function () { pasted = false; }).then(function () {
      Object.keys(steppers).forEach(function (d) { steppers[d].show(steppers[d].cursor, false); });
    });
  }

  // The landing page opened by such a link: the record unpacked into the form, judged again.
  // Unpacked as a stream and stopped past the API's body limit (the form's data-max-record):
  // a small link may unpack to gigabytes, and the tab must not try to hold them.
  var TOO_LARGE = {};

  function inflateCapped(bytes, cap) {
    var reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate")).getReader();
    var parts = [], size = 0;
    function next() {
      return reader.read().then(function (r) {
        if (r.done) {
          var out = new Uint8Array(size), at = 0;
          parts.forEach(function (p) { out.set(p, at); at += p.length; });
          return out;
        }
        size += r.value.length;
        if (size > cap) { reader.cancel().catch(function () {}); throw TOO_LARGE; }
        parts.push(r.value);
        return next();
      });
    }
    return next();
  }

  function linkProblem(text) {
    var said = document.getElementById("link-problem");
    said.textContent = text;
    said.hidden = false;
  }

  function unpackRecord() {
    var form = document.querySelector("form.check");
    var params = new URLSearchParams(location.hash.slice(1));
    if (!form || !params.has("r") || typeof DecompressionStream === "undefined") { return; }
    var cap = Number(form.dataset.maxRecord);
    Promise.resolve().then(function () { return inflateCapped(fromBase64url(params.get("r")), cap); }).then(function (bytes) {
      putRecord(form, new TextDecoder().decode(bytes));
      params.delete("r");
      form.action = form.getAttribute("action") + "#" + params.toString();
      form.submit();
    }).catch(function (e) {
      if (e === TOO_LARGE) {
        linkProblem("This link holds a record of more than " + (cap / 1048576) + " MiB unpacked, more than " +
                    "the referee judges (its body limit): it was not opened. Paste the record or choose its file instead.");
      } else {
        linkProblem("This link's record could not be unpacked (the link is cut or was changed): " +
                    "paste the record or choose its file instead.");
      }
    });
  }

  // -- the pasted record kept in this tab: its page reloaded (GET /check?deal=1&event=6) is
  // judged again, at the same moment, instead of showing an empty form ----------------------
  var PASTED = "referee-pasted";

  function keepPasted() {
    var record = document.getElementById("record-json");
    if (!record) { return; }
    history.replaceState(null, "", location.href);  // a reload asks GET /check, not to send the form again
    try {
      sessionStorage.setItem(PASTED, record.textContent);
    } catch (err) {  // more than the tab keeps: a reload shows the form, and says so
      sessionStorage.removeItem(PASTED);
    }
  }

  // A record the page sends itself: as a file, which the form takes up to the body limit (as
  // text it takes less), else as text.
  function putRecord(form, text) {
    try {
      var files = new DataTransfer();
      files.items.add(new File([text], "record.json", {type: "application/json"}));
      form.querySelector("#file").files = files.files;
    } catch (err) {
      form.querySelector("#record").value = text;
    }
  }

  function judgeAgain() {
    var form = document.querySelector("form.check[data-again]");
    if (!form || new URLSearchParams(location.hash.slice(1)).has("r")) { return; }  // a moment's link has its own
    var note = document.getElementById("again");
    var text = sessionStorage.getItem(PASTED);
    note.hidden = false;
    if (!text) {
      note.textContent = "This tab keeps no record to show again (none was judged in it, or it was too big to keep): " +
        "paste it or choose its file.";
      return;
    }
    note.textContent = "Judging again the record this tab last showed\u2026";
    putRecord(form, text);
    form.action = form.getAttribute("action") + location.search + location.hash;
    form.submit();
  }

  // -- the form's limits, said before sending (the server says them too, without the text) ---
  function bytesText(n) {
    return n >= 1048576 ? (n / 1048576).toFixed(1) + " MiB" : Math.ceil(n / 1000) + " KB";
  }

  function showProblem(form, title, detail) {
    var old = document.querySelector("section.problems");
    if (old) { old.remove(); }
    var box = document.createElement("section");
    box.className = "problems";
    box.setAttribute("role", "alert");
    var h = document.createElement("h2");
    h.textContent = title;
    var p = document.createElement("p");
    p.textContent = detail;
    box.appendChild(h);
    box.appendChild(p);
    form.parentNode.insertBefore(box, form);
  }

  function checkSizes() {
    var form = document.querySelector("form.check");
    if (!form || !form.dataset.maxText) { return; }
    var area = form.querySelector("#record"), input = form.querySelector("#file");
    form.addEventListener("submit", function (e) {
      var maxText = Number(form.dataset.maxText), maxBody = Number(form.dataset.maxBody), detail = null;
      var file = input.files && input.files[0];
      var typed = file ? 0 : new TextEncoder().encode(area.value).length;
      if (file && file.size > maxBody) {
        detail = "The record file is " + bytesText(file.size) + "; the form takes a record file of up to " +
          form.dataset.bodySize + ". A bigger record is checked with referee check FILE.";
      } else if (typed > maxText) {
        detail = "The pasted record is " + bytesText(typed) + "; the form takes pasted text of up to " +
          form.dataset.textSize + ": choose it as a file below (a record file of up to " + form.dataset.bodySize + ").";
      }
      if (detail) {
        e.preventDefault();
        showProblem(form, "The record is too big for this form", detail);
        input.focus();
      } else if (file) {
        area.disabled = true;  // the file is judged: its text is not sent twice
      }
    });
    window.addEventListener("pageshow", function () { area.disabled = false; });
  }

  document.addEventListener("keydown", function (e) {
    var tag = (e.target && e.target.tagName) || "";
    if (!active || tag === "INPUT" || tag === "TEXTAREA" || e.altKey || e.ctrlKey || e.metaKey) { return; }
    if (e.key === "ArrowRight") { active.move(1); e.preventDefault(); }
    if (e.key === "ArrowLeft") { active.move(-1); e.preventDefault(); }
    if (e.key === "Home") { active.first(); e.preventDefault(); }
    if (e.key === "End") { active.last(); e.preventDefault(); }
  });

  // -- a live match: poll with the ETag; swap the page in only when it changed -------------
  var etag = (document.getElementById("verdict") || {dataset: {}}).dataset.etag || null;

  function keyHeader(h) {
    var key = sessionStorage.getItem("referee-key:" + location.pathname);
    if (key) { h["Authorization"] = "Bearer " + key; }
    return h;
  }

  function headers() {
    var h = keyHeader({"Accept": "text/html"});
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
          var keep = active ? {deal: active.deal, cursor: active.cursor, last: active.cursor === active.steps.length - 1} : null;
          old.replaceWith(fresh);
          init();
          var s = keep && steppers[keep.deal];
          if (s) { s.show(keep.last ? s.steps.length - 1 : Math.min(keep.cursor, s.steps.length - 1), false); }
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
    packRecord();
    keepPasted();
    init();
    unpackRecord();
    judgeAgain();
    checkSizes();
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
