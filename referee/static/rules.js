// The rulebook page: find a rule as you type (its id, title or words of its text), offline:
// the index is the page's own rule headings and the text under each.
(function () {
  "use strict";
  var MOST = 30;

  function index() {
    return Array.prototype.map.call(document.querySelectorAll(".rulebook h3[id]"), function (h) {
      var text = "", el = h.nextElementSibling;
      while (el && !/^H[1-3]$/.test(el.tagName)) { text += " " + el.textContent; el = el.nextElementSibling; }
      return {id: h.id, title: h.textContent, text: text.toLowerCase()};
    });
  }

  function hit(rule, words) {
    var all = (rule.title + " " + rule.text).toLowerCase();
    return words.every(function (w) { return all.indexOf(w) >= 0; });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("rule-search");
    if (!form) { return; }
    var rules = index(), input = document.getElementById("rule-query");
    var list = document.getElementById("rule-hits"), state = document.getElementById("rule-hits-state");
    function search() {
      var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
      list.textContent = "";
      if (!words.length) { state.textContent = ""; return; }
      // a rule whose id or title matches comes first, then those whose text does
      var found = rules.filter(function (r) { return hit(r, words); });
      found.sort(function (a, b) { return hit({title: b.title, text: ""}, words) - hit({title: a.title, text: ""}, words); });
      found.slice(0, MOST).forEach(function (r) {
        var li = document.createElement("li"), a = document.createElement("a");
        a.href = "#" + r.id;
        a.textContent = r.title;
        li.appendChild(a);
        list.appendChild(li);
      });
      state.textContent = found.length === 0 ? "No rule has these words." :
        found.length + " rule" + (found.length > 1 ? "s" : "") + (found.length > MOST ? "; the first " + MOST + " shown" : "") + ".";
    }
    input.addEventListener("input", search);
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var first = list.querySelector("a");
      if (first) { location.hash = first.getAttribute("href"); }
    });
  });
})();
