// Perfect play on the verdict page, fetched after the page shows (never blocking it): the
// value of each legal card beside it at each step (the tricks the side to play takes from
// there, best play after), and each costly play marked on its card with what it cost.
// One position a request (POST /v1/analysis with the record, or the stored match's
// GET .../analysis), one at a time: the position on screen first, then the deal from its
// last position back (the late ones are quick), so results arrive as they are found. A deal
// is analysed whole once the reader steps through it (and the first deal, or the one in the
// address, at once); once a position is past the search limit, the earlier (deeper) ones of
// that deal are not asked for unless the reader goes to one.
(function () {
  "use strict";
  var cache = {};      // fingerprint of a position -> {answer} or {limit} or {failed}
  var deals = {};      // deal index -> {stepper, positions}
  var queue = [];
  var running = false;
  var followed = {};   // deal index -> true: analyse the whole deal
  var first = null;    // the first deal of the page with positions

  function source() {
    var v = document.getElementById("verdict");
    return v && v.dataset.analysis ? v.dataset.analysis : null;
  }

  function recordText() {
    var el = document.getElementById("analysis-record") || document.getElementById("record-json");
    return el ? el.textContent : null;
  }

  // A position: the deal after `events` events, keyed by what happened up to it (a revision
  // that changes an earlier event is another position).
  function positionsOf(stepper) {
    var out = [], notes = [];
    stepper.steps.forEach(function (step, k) {
      notes.push(step.note);
      if (step.hands && step.to_play !== null && step.to_play !== undefined && !step.error && !step.ignored) {
        out.push({deal: stepper.deal, events: step.event + 1, cursor: k, key: stepper.deal + "|" + notes.join("|")});
      }
    });
    return out;
  }

  function request(p) {
    var url = source(), options;
    if (url.indexOf("/v1/analysis") === 0) {
      var body = '{"deal": ' + p.deal + ', "event": ' + p.events + ', "objective": "tricks", "record": ' + recordText() + "}";
      options = {method: "POST", headers: {"Content-Type": "application/json"}, body: body};
    } else {
      var h = {"Accept": "application/json"};
      var key = sessionStorage.getItem("referee-key:" + location.pathname);
      if (key) { h["Authorization"] = "Bearer " + key; }
      url += "?deal=" + p.deal + "&event=" + p.events + "&objective=tricks";
      options = {headers: h, cache: "no-store"};
    }
    return fetch(url, options).then(function (r) {
      return r.json().then(function (body) {
        if (r.ok) { return {answer: body}; }
        if (body && body.limit) { return {limit: true}; }
        return {failed: (body && body.detail) || ("HTTP " + r.status)};
      });
    }).catch(function (err) { return {failed: err.message, retry: true}; });
  }

  function pump() {
    if (running) { return; }
    var p = queue.shift();
    while (p && (cache[p.key] || tooDeep(p))) { p = queue.shift(); }
    if (!p) { refreshAll(); return; }
    running = true;
    request(p).then(function (found) {
      running = false;
      if (found.retry && (p.tries = (p.tries || 0) + 1) < 3) { queue.push(p); } else { cache[p.key] = found; }
      var d = deals[p.deal];
      if (found.limit && d && !(d.deepFrom <= p.events)) { d.deepFrom = p.events; }
      if (d) { markCostly(d); markTable(d); status(d); if (d.stepper.cursor === p.cursor) { showValues(d.stepper); } }
      pump();
    });
  }

  // A position of the background queue before one already past the limit: not asked for.
  function tooDeep(p) {
    var d = deals[p.deal];
    if (p.asked || !d || d.deepFrom === undefined || p.events >= d.deepFrom) { return false; }
    cache[p.key] = {limit: true, skipped: true};
    return true;
  }

  function want(p, now) {
    if (now && cache[p.key] && cache[p.key].skipped) { delete cache[p.key]; }
    if (cache[p.key]) { return; }
    if (now) { p.asked = true; queue.unshift(p); } else { queue.push(p); }
  }

  function register(stepper) {
    var d = deals[stepper.deal];
    if (d && d.stepper === stepper) { return d; }
    d = deals[stepper.deal] = {stepper: stepper, positions: positionsOf(stepper), deepFrom: d && d.deepFrom};
    if (d.positions.length && first === null) { first = stepper.deal; }
    if (followed[stepper.deal]) { follow(d); }
    return d;
  }

  function follow(d) {
    followed[d.stepper.deal] = true;
    if (d.queued) { return; }
    d.queued = true;
    d.positions.slice().reverse().forEach(function (p) { want(p, false); });
  }

  function inAddress(deal) {
    return new URLSearchParams(location.search).get("deal") === String(Number(deal) + 1);  // counted from 1
  }

  function at(d, cursor) {
    for (var i = 0; i < d.positions.length; i++) {
      if (d.positions[i].cursor === cursor) { return d.positions[i]; }
    }
    return null;
  }

  function trickWord(n) { return n + (n === 1 ? " trick" : " tricks"); }

  // Each play whose card was worth less than the best card of its moment: marked in the
  // tricks (a closed trick's card) and on the table at each step that shows it.
  function markCostly(d) {
    var steps = d.stepper.steps;
    d.costly = d.costly || {};
    d.positions.forEach(function (p) {
      var found = cache[p.key], next = steps[p.cursor + 1];
      if (!found || !found.answer || !next) { return; }
      var played = null;
      next.table.forEach(function (c) { if (c.event === next.event) { played = c.card; } });
      var value = valueOf(found.answer, played);
      if (value === null || value >= found.answer.value) { return; }
      d.costly[next.event] = {best: found.answer.value, value: value};
      var el = document.getElementById("deal-" + p.deal + "-event-" + next.event);
      if (el && !el.querySelector(".mark.costly")) { el.appendChild(costMark(d.costly[next.event])); }
    });
  }

  function costMark(c) {
    var mark = document.createElement("span");
    mark.className = "mark costly";
    mark.textContent = "costly: " + trickWord(c.best - c.value);
    mark.title = "with best play the side took " + trickWord(c.best) + " from here; after this card, " + trickWord(c.value);
    return mark;
  }

  function markTable(d) {
    var step = d.stepper.steps[d.stepper.cursor];
    var slots = d.stepper.root.querySelectorAll(".centre .slot");
    (step.table || []).forEach(function (c, k) {
      var cost = (d.costly || {})[c.event];
      if (cost && slots[k] && !slots[k].querySelector(".mark.costly")) { slots[k].appendChild(costMark(cost)); }
    });
  }

  function valueOf(answer, card) {
    for (var i = 0; i < answer.cards.length; i++) {
      if (answer.cards[i].card === card) { return answer.cards[i].value; }
    }
    return null;
  }

  function statusEl(stepper) {
    var el = stepper.root.querySelector(".analysis-status");
    if (!el) {
      el = document.createElement("p");
      el.className = "analysis-status";
      el.setAttribute("aria-live", "polite");
      stepper.root.querySelector(".legal-text").after(el);
    }
    return el;
  }

  function status(d) {
    if (!d.positions.length) { return; }
    var here = at(d, d.stepper.cursor), found = here && cache[here.key];
    var done = 0, deep = 0;
    d.positions.forEach(function (p) {
      var f = cache[p.key];
      if (f) { done++; if (f.limit) { deep++; } }
    });
    var whole = followed[d.stepper.deal], busy = whole ? done < d.positions.length : here && !found;
    var text = !whole ? "Perfect play: step through the deal to analyse all of it. "
      : busy ? "Analysing\u2026 " + done + " of " + d.positions.length + " positions. "
      : "Perfect play analysed (" + d.positions.length + " positions). ";
    if (here && !found) { text += "This position: analysing\u2026"; }
    else if (found && found.limit) { text += "This position is too deep to analyse within the search limit."; }
    else if (found && found.failed) { text += "This position cannot be analysed: " + found.failed; }
    else if (found) {
      var seat = found.answer.to_play, who = (d.stepper.names || [])[seat] || "seat " + seat;
      text += "Beside each card: the tricks " + who +
        "'s side takes from here with it, best play after (best " + found.answer.value + ").";
    }
    if (deep) { text += " " + deep + " position(s) past the search limit."; }
    var el = statusEl(d.stepper);
    el.textContent = text;
    el.classList.toggle("busy", !!busy);
  }

  function showValues(stepper) {
    var d = deals[stepper.deal];
    stepper.root.querySelectorAll(".card-value").forEach(function (el) { el.remove(); });
    if (!d) { return; }
    var here = at(d, stepper.cursor), found = here && cache[here.key];
    status(d);
    if (!found || !found.answer) { return; }
    var answer = found.answer;
    var seatEl = stepper.root.querySelector(".seat[data-seat='" + answer.to_play + "']");
    if (!seatEl) { return; }
    seatEl.querySelectorAll(".hand .card[data-card]").forEach(function (card) {
      var value = valueOf(answer, card.dataset.card);
      if (value === null) { return; }
      var badge = document.createElement("span");
      badge.className = "card-value " + (value === answer.value ? "best" : "worse");
      badge.textContent = String(value);
      badge.title = trickWord(value) + " from here" + (value < answer.value ? ": costs " + trickWord(answer.value - value) : "");
      card.after(badge);
    });
  }

  function refreshAll() {
    Object.keys(deals).forEach(function (k) { status(deals[k]); });
  }

  document.addEventListener("referee:step", function (e) {
    if (!source()) { return; }
    var stepper = e.detail.stepper;
    var d = register(stepper);
    if (e.detail.push || stepper.deal === first || inAddress(stepper.deal)) { follow(d); }
    var here = at(d, stepper.cursor);
    if (here) { want(here, true); }
    showValues(stepper);
    markCostly(d);
    markTable(d);
    pump();
  });
})();
