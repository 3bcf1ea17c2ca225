// Perfect play on the verdict page, fetched after the page shows (never blocking it): the
// value of each legal card beside it at each step (the tricks the side to play takes from
// there, best play after), and each costly play marked on its card with what it cost - as the
// API says: the page decides nothing of it.
// One request a deal: the whole deal's analysis (POST /v1/analysis with the record, or the
// stored match's GET .../analysis, `whole_deal`), read line by line as the server solves the
// positions (the last first: the late ones are quick), under one search budget. A position
// past that budget is asked for alone (with a budget of its own) only when the reader is on
// it, and once. Every deal on the page is analysed as it loads, one after the other: the one in
// the address or the one the reader steps through first, then the others in the page's order.
(function () {
  "use strict";
  var cache = {};      // position key -> {answer} | {limit, alone} | {failed}
  var deals = {};      // deal index -> {stepper, positions}
  var jobs = [];       // what to ask, in turn: a whole deal {deal, keys} or one position {one}
  var running = null;  // the job being answered
  var followed = {};   // deal index -> true: the whole deal asked for

  function source() {
    var v = document.getElementById("verdict");
    return v && v.dataset.analysis ? v.dataset.analysis : null;
  }

  function recordText() {
    var el = document.getElementById("analysis-record") || document.getElementById("record-json");
    return el ? el.textContent : null;
  }

  // A position: the deal after `events` events, keyed by what happened up to it (a revision
  // that changes an earlier event is another position). The referee's own plays (a settled
  // claim, the bell), and the answer they play on from, are no position of the record (as
  // the API has them: its first line lists the positions it analyses).
  function positionsOf(stepper) {
    var out = [], notes = [], steps = stepper.steps;
    steps.forEach(function (step, k) {
      notes.push(step.note);
      var handsOver = k + 1 < steps.length && steps[k + 1].referee;
      if (step.hands && step.to_play !== null && step.to_play !== undefined && !step.error && !step.ignored &&
          !step.referee && !handsOver) {
        out.push({deal: stepper.deal, events: step.event + 1, cursor: k, key: stepper.deal + "|" + notes.join("|")});
      }
    });
    return out;
  }

  // -- asking -------------------------------------------------------------------------

  function ask(query) {
    var url = source();
    if (url.indexOf("/v1/analysis") === 0) {
      var body = JSON.stringify(Object.assign({deal: query.deal, objective: "tricks", line: false}, query.extra));
      body = body.slice(0, -1) + ', "record": ' + recordText() + "}";
      return fetch(url, {method: "POST", headers: {"Content-Type": "application/json"}, body: body});
    }
    var h = window.referee.keyHeader({"Accept": "application/json, application/x-ndjson"});
    var params = new URLSearchParams(Object.assign({deal: query.deal, objective: "tricks", line: "false"}, query.extra));
    return fetch(url + "?" + params.toString(), {headers: h, cache: "no-store"});
  }

  // A problem answer: wait and ask again when the server is busy (429, 503), else say why.
  function refused(r) {
    return r.json().catch(function () { return null; }).then(function (body) {
      var wait = Number(r.headers.get("Retry-After"));
      if (r.status === 429 || r.status === 503) { return {retry: (wait > 0 ? wait : 2) * 1000}; }
      if (body && body.limit) { return {limit: true}; }
      return {failed: (body && body.detail) || ("HTTP " + r.status)};
    });
  }

  function eachLine(response, use) {
    var reader = response.body.getReader(), decoder = new TextDecoder(), buffer = "";
    function more() {
      return reader.read().then(function (chunk) {
        buffer += chunk.done ? decoder.decode() : decoder.decode(chunk.value, {stream: true});
        var parts = buffer.split("\n");
        buffer = chunk.done ? "" : parts.pop();
        parts.forEach(function (text) { if (text.trim()) { use(JSON.parse(text)); } });
        return chunk.done ? null : more();
      });
    }
    return more();
  }

  // The whole deal: each line fills its position in as it arrives.
  function askDeal(job) {
    var from = Infinity;
    Object.keys(job.keys).forEach(function (n) { from = Math.min(from, Number(n)); });
    return ask({deal: job.deal, extra: {whole_deal: true, from_event: from}}).then(function (r) {
      if (!r.ok) { return refused(r).then(function (f) { dealRefused(job, f); }); }
      return eachLine(r, function (line) {
        if (line.kind === "deal") { notListed(job, line.events); return; }
        var key = job.keys[line.event];
        if (line.kind === "end" || !key || cache[key]) { return; }
        cache[key] = line.kind === "position" ? {answer: line}
          : line.kind === "past_limit" ? {limit: true} : {failed: line.detail};
        update(job.deal, line.event);
      }).then(function () { cutShort(job); });
    }).catch(function () { cutShort(job); });
  }

  // A position of the page's that the answer will not have: said so, not waited for.
  function notListed(job, events) {
    Object.keys(job.keys).forEach(function (n) {
      var key = job.keys[n];
      if (events.indexOf(Number(n)) < 0 && !cache[key]) { cache[key] = {failed: "the referee does not analyse it"}; }
    });
  }

  function dealRefused(job, found) {
    if (found.retry && (job.tries = (job.tries || 0) + 1) < 4) { later(job, found.retry, true); return; }
    Object.keys(job.keys).forEach(function (n) {
      var key = job.keys[n];
      if (!cache[key]) { cache[key] = found.retry ? {failed: "the referee is busy; reload to try again"} : found; }
    });
    update(job.deal);
  }

  // An answer that ended before its last line (the connection dropped): asked again, twice.
  function cutShort(job) {
    var left = {};
    Object.keys(job.keys).forEach(function (n) { if (!cache[job.keys[n]]) { left[n] = job.keys[n]; } });
    if (!Object.keys(left).length) { return; }
    if ((job.tries = (job.tries || 0) + 1) < 3) { later({deal: job.deal, keys: left, tries: job.tries}, 1000); return; }
    Object.keys(left).forEach(function (n) { cache[left[n]] = {failed: "the answer was cut short"}; });
    update(job.deal);
  }

  function later(job, ms, busy) {
    job.waiting = true;
    job.busy = busy ? Math.round(ms / 1000) : 0;  // seconds the referee asked us to wait
    jobs.push(job);
    update(job.one ? job.one.deal : job.deal);
    setTimeout(function () { job.waiting = false; job.busy = 0; pump(); }, ms);
  }

  // One position past the whole deal's budget, the reader on it: asked alone, once.
  function askOne(job) {
    var p = job.one;
    return ask({deal: p.deal, extra: {event: p.events}}).then(function (r) {
      return r.ok ? r.json().then(function (a) { return {answer: a}; }) : refused(r);
    }).catch(function (err) { return {failed: err.message}; }).then(function (found) {
      if (found.retry && (job.tries = (job.tries || 0) + 1) < 4) { later(job, found.retry, true); return; }
      cache[p.key] = found.limit ? {limit: true, alone: true} : found.retry ? {failed: "the referee is busy"} : found;
      update(p.deal, p.events);
    });
  }

  function wanted(job) {
    if (job.one) { return onScreen(job.one) && cache[job.one.key] && cache[job.one.key].limit && !cache[job.one.key].alone; }
    return Object.keys(job.keys).some(function (n) { return !cache[job.keys[n]]; });
  }

  function pump() {
    if (running) { return; }
    for (var i = 0; i < jobs.length; i++) {
      if (jobs[i].waiting) { continue; }
      var job = jobs.splice(i, 1)[0];
      if (!wanted(job)) { i--; continue; }
      running = job;
      refreshAll();
      (job.one ? askOne(job) : askDeal(job)).then(function () { running = null; aloneOnScreen(); pump(); });
      return;
    }
    refreshAll();
  }

  function pending(deal) {
    var all = running ? [running].concat(jobs) : jobs;
    return all.filter(function (j) { return (j.one ? j.one.deal : j.deal) === deal; });
  }

  function asked(key) {
    return pending(Number(key.split("|")[0])).some(function (j) {
      return j.one ? j.one.key === key : Object.keys(j.keys).some(function (n) { return j.keys[n] === key; });
    });
  }

  // The whole deal asked for once: the positions not yet known, from the first of them on;
  // `soon` (the reader is on it): before the deals still waiting their turn.
  function follow(d, soon) {
    var deal = d.stepper.deal;
    followed[deal] = true;
    var keys = {}, any = false;
    d.positions.forEach(function (p) {
      if (!cache[p.key] && !asked(p.key)) { keys[p.events] = p.key; any = true; }
    });
    if (any) { jobs.push({deal: deal, keys: keys}); }
    if (!soon) { return; }
    for (var i = jobs.length - 1; i > 0; i--) {
      if (!jobs[i].one && jobs[i].deal === deal && !jobs[i].waiting) { jobs.unshift(jobs.splice(i, 1)[0]); return; }
    }
  }

  function aloneIfDeep(p) {
    var f = cache[p.key];
    if (f && f.limit && !f.alone && !asked(p.key)) { jobs.unshift({one: p}); }
  }

  // A reader already on a position the deal's answer found past its budget: asked alone.
  function aloneOnScreen() {
    Object.keys(deals).forEach(function (k) {
      var here = at(deals[k], deals[k].stepper.cursor);
      if (here) { aloneIfDeep(here); }
    });
  }

  function register(stepper) {
    var d = deals[stepper.deal];
    if (d && d.stepper === stepper) { return d; }
    return (deals[stepper.deal] = {stepper: stepper, positions: positionsOf(stepper)});
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

  function onScreen(p) {
    var d = deals[p.deal], here = d && at(d, d.stepper.cursor);
    return !!here && here.key === p.key;
  }

  // -- showing ------------------------------------------------------------------------

  function trickWord(n) { return n + (n === 1 ? " trick" : " tricks"); }
  function positionWord(n) { return n + (n === 1 ? " position" : " positions"); }

  function update(deal, events) {
    var d = deals[deal];
    if (!d) { return; }
    markCostly(d);
    markTable(d);
    var here = at(d, d.stepper.cursor);
    if (events === undefined || (here && here.events === events)) { showValues(d.stepper); } else { status(d); }
  }

  // Each costly play the API found, marked in the tricks (a closed trick's card) and on the
  // table at each step that shows it.
  function costlyOf(d) {
    var out = {};
    d.positions.forEach(function (p) {
      var f = cache[p.key], c = f && f.answer && f.answer.costly;
      if (c) { out[c.event] = c; }
    });
    return out;
  }

  function markCostly(d) {
    var costly = costlyOf(d);
    Object.keys(costly).forEach(function (event) {
      var el = document.getElementById("deal-" + d.stepper.deal + "-event-" + event);
      if (el && !el.querySelector(".mark.costly")) { el.appendChild(costMark(costly[event])); }
    });
  }

  // "AS" as a person reads it: A♠ (10 for T); "reveal" as it is.
  function face(card) {
    var suits = {S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663"};
    if (!suits[card.slice(-1)] || card.length !== 2) { return card; }
    return (card[0] === "T" ? "10" : card[0]) + suits[card[1]];
  }

  // What was best, said with the cost as `referee analyse` says it: up to four moves named.
  function bestText(c) {
    var best = (c.best_cards || []).map(face);
    if (best.length > 4) { best = best.slice(0, 3).concat([(best.length - 3) + " other cards"]); }
    if (!best.length) { return ""; }
    return "; best was " + (best.length > 1 ? best.slice(0, -1).join(", ") + " or " : "") + best[best.length - 1];
  }

  function costMark(c) {
    var mark = document.createElement("span");
    mark.className = "mark costly";
    mark.textContent = "costly: " + c.cost + bestText(c);
    if (typeof c.best === "number") {
      mark.title = "with best play the side took " + trickWord(c.best) + " from here; after this card, " + trickWord(c.value);
    }
    return mark;
  }

  function markTable(d) {
    var step = d.stepper.steps[d.stepper.cursor], costly = costlyOf(d);
    var slots = d.stepper.root.querySelectorAll(".centre .slot");
    (step.table || []).forEach(function (c, k) {
      var cost = costly[c.event];
      if (cost && slots[k] && !slots[k].querySelector(".mark.costly")) { slots[k].appendChild(costMark(cost)); }
    });
  }

  function moveOf(answer, card) {
    for (var i = 0; i < answer.cards.length; i++) {
      if (answer.cards[i].card === card) { return answer.cards[i]; }
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

  // What the deal's analysis has come to: counted, never more than was found.
  function dealText(d, busy) {
    var total = d.positions.length, known = 0, analysed = 0, deep = 0, failed = 0;
    d.positions.forEach(function (p) {
      var f = cache[p.key];
      if (!f) { return; }
      known++;
      if (f.answer) { analysed++; } else if (f.limit) { deep++; } else { failed++; }
    });
    var waits = pending(d.stepper.deal).filter(function (j) { return j.busy; });
    if (waits.length) {
      return "Perfect play: the referee is busy with other searches; asking again in " + waits[0].busy + " s. ";
    }
    if (busy && known < total) { return "Analysing\u2026 " + known + " of " + positionWord(total) + ". "; }
    var text = analysed === total ? (total === 1 ? "Perfect play: its one position analysed"
                                                 : "Perfect play: all " + total + " positions analysed")
      : analysed === 0 ? "Perfect play: no position analysed"
      : "Perfect play: " + analysed + " of " + positionWord(total) + " analysed";
    if (deep) { text += "; " + deep + " past the search limit" + (deep < total ? " (step to one to try it alone)" : ""); }
    if (failed) { text += "; " + failed + " cannot be analysed"; }
    return text + ". ";
  }

  function hereText(d, here) {
    var found = here && cache[here.key];
    if (!here || (!found && !followed[d.stepper.deal])) { return ""; }
    if (!found) { return "This position: analysing\u2026"; }
    if (found.limit && !found.alone) { return "This position is past the whole deal's search limit: analysing it alone\u2026"; }
    if (found.limit) { return "This position is too deep to analyse within the search limit."; }
    if (found.failed) { return "This position cannot be analysed: " + found.failed; }
    var seat = found.answer.to_play, who = (d.stepper.names || [])[seat] || "seat " + seat;
    return "Beside each card: the tricks " + who + "'s side takes from here with it, best play after (best " +
      found.answer.value + ").";
  }

  function status(d) {
    if (!d.positions.length) { return; }
    var here = at(d, d.stepper.cursor), busy = pending(d.stepper.deal).length > 0;
    var el = statusEl(d.stepper);
    el.textContent = dealText(d, busy) + hereText(d, here);
    el.classList.toggle("busy", busy);
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
      var move = moveOf(answer, card.dataset.card);
      if (move === null) { return; }
      var badge = document.createElement("span");  // the referee's word on each move: its value and cost
      badge.className = "card-value " + (move.cost ? "worse" : "best");
      badge.textContent = String(move.value);
      badge.title = trickWord(move.value) + " from here" + (move.cost ? ": costs " + move.cost : "");
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
    follow(d, e.detail.push || inAddress(stepper.deal));
    var here = at(d, stepper.cursor);
    if (here) { aloneIfDeep(here); }
    showValues(stepper);
    markCostly(d);
    markTable(d);
    pump();
  });
})();
