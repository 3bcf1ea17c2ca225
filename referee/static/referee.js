// Step through a deal (buttons, arrow keys, a URL per moment). A big record's deals come
// without their tricks and steps: opening one fetches them. What the page's other scripts use
// is `window.referee` (at the end): live.js follows a live match and swaps the page in,
// analysis.js adds perfect play at each step (from the `referee:step` event); form.js sends,
// keeps and unpacks a pasted record.
(function () {
  "use strict";
  var SYMBOL = {S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663"};
  var SUIT = {S: "spades", H: "hearts", D: "diamonds", C: "clubs"};
  var RANK = {A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", "9": "nine", "8": "eight",
              "7": "seven", "6": "six", "5": "five", "4": "four", "3": "three", "2": "two"};
  var active = null;  // the stepper the keys step (`inView`)

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
    var toPlay = this.closedAt(k) ? null : step.to_play;  // an abandoned deal's end: nobody plays on
    root.querySelectorAll(".seat").forEach(function (seatEl) {
      var seat = Number(seatEl.dataset.seat);
      var hand = seatEl.querySelector(".hand");
      hand.textContent = "";
      var legal = toPlay === seat && step.legal ? step.legal : [];
      if (step.hands) {
        step.hands[seat].forEach(function (c) {
          hand.appendChild(cardEl(c, legal.indexOf(c) >= 0 ? "legal" : ""));
        });
      } else {
        hand.textContent = "(hand " + root.dataset.handsNote + ")";
      }
      seatEl.querySelector(".turn").hidden = toPlay !== seat;
      seatEl.classList.toggle("to-play", toPlay === seat);
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
    } else if (step.referee && this.root.dataset.claim) {  // a settled claim's line: the claim's rules
      this.ruleNote(el, "Played by the referee: the claim is settled by perfect play", "R-34", "rules R-34, R-34a");
    } else if (step.referee) {  // the bell's line
      this.ruleNote(el, "Played by the referee: the deal is finished by perfect play at the close", "R-32",
                    "rules R-32, R-34");
    } else if (this.closedAt(this.steps.indexOf(step))) {
      this.ruleNote(el, "The session was closed here: the deal is abandoned, not scored, and nobody plays on",
                    "R-32", "rule R-32");
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

  // The last step of a deal abandoned at the close: the session ended there.
  Stepper.prototype.closedAt = function (k) {
    return this.root.dataset.status === "abandoned" && k === this.steps.length - 1;
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
  }

  // The key a reader gave for this page (kept in the tab), as a request header.
  function keyHeader(h) {
    var key = sessionStorage.getItem("referee-key:" + location.pathname);
    if (key) { h["Authorization"] = "Bearer " + key; }
    return h;
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

  function shown(stepper) {  // how much of a deal (board, tricks) is in view: 1 all of it, or all the window
    var r = (stepper.root.closest(".deal") || stepper.root).getBoundingClientRect();
    return Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0)) / Math.max(1, Math.min(r.height, innerHeight));
  }

  // The keys step the deal last stepped or clicked while a third of it is in view, else the one
  // the window shows most of (the reader scrolled to another deal).
  function inView() {
    var best = active && document.contains(active.root) ? active : null, most = best ? shown(best) : 0;
    if (most >= 1 / 3) { return best; }
    Object.keys(steppers).forEach(function (d) { if (shown(steppers[d]) > most) { most = shown(steppers[d]); best = steppers[d]; } });
    return best;
  }

  var KEYS = {ArrowRight: function (s) { s.move(1); }, ArrowLeft: function (s) { s.move(-1); },
              Home: function (s) { s.first(); }, End: function (s) { s.last(); }};
  document.addEventListener("keydown", function (e) {
    var tag = (e.target && e.target.tagName) || "", stepper = KEYS[e.key] ? inView() : null;
    if (!stepper || tag === "INPUT" || tag === "TEXTAREA" || e.altKey || e.ctrlKey || e.metaKey) { return; }
    KEYS[e.key](stepper);
    e.preventDefault();
  });

  window.referee = {
    init: init,            // the page's steppers, bound again (after live.js swaps the page in)
    keyHeader: keyHeader,
    // Where the reader is, and back there once the page is swapped in (at the end, if they were).
    moment: function () {
      return active ? {deal: active.deal, cursor: active.cursor, last: active.cursor === active.steps.length - 1} : null;
    },
    resume: function (keep) {
      var s = keep && steppers[keep.deal];
      if (s) { s.show(keep.last ? s.steps.length - 1 : Math.min(keep.cursor, s.steps.length - 1), false); }
    }
  };

  document.addEventListener("DOMContentLoaded", function () {
    packRecord();
    init();
  });
})();
