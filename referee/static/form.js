// The record a reader pastes, on the form and after: checked against the form's limits before
// it is sent, kept in the tab so that its verdict page reloaded is judged again, and unpacked
// from a moment's link (referee.js packs it).
(function () {
  "use strict";

  function fromBase64url(text) {
    var raw = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) { bytes[i] = raw.charCodeAt(i); }
    return bytes;
  }

  // The landing page opened by a moment's link: the record unpacked into the form, judged again.
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

  document.addEventListener("DOMContentLoaded", function () {
    keepPasted();
    unpackRecord();
    judgeAgain();
    checkSizes();
  });
})();
