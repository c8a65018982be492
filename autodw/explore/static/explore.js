/* The explorer's only script: filters the instruction table (select boxes and a text search, kept in the
   address's #hash so a filtered view can be linked to). Everything it shows it takes from the page's own
   text and data-* attributes; it never writes HTML. */
(function () {
  "use strict";
  var form = document.getElementById("filters");
  var table = document.getElementById("units");
  if (!form || !table) { return; }
  var rows = Array.prototype.slice.call(table.tBodies[0].rows);
  var texts = rows.map(function (row) { return row.textContent.toLowerCase(); });
  var controls = Array.prototype.slice.call(form.querySelectorAll("[data-filter]"));
  var shown = document.getElementById("shown");

  function wanted() {
    var out = {};
    controls.forEach(function (c) { if (c.value) { out[c.dataset.filter] = c.value; } });
    return out;
  }

  function matches(row, index, filters) {
    for (var name in filters) {
      if (name === "q") {
        if (texts[index].indexOf(filters.q.toLowerCase()) < 0) { return false; }
      } else if (("|" + (row.dataset[name] || "") + "|").indexOf("|" + filters[name] + "|") < 0) {
        return false;
      }
    }
    return true;
  }

  function apply() {
    var filters = wanted(), count = 0;
    for (var i = 0; i < rows.length; i++) {
      var ok = matches(rows[i], i, filters);
      rows[i].hidden = !ok;
      if (ok) { count++; }
    }
    shown.value = count + " of " + rows.length;
    var hash = Object.keys(filters).map(function (k) {
      return encodeURIComponent(k) + "=" + encodeURIComponent(filters[k]);
    }).join("&");
    if (("#" + hash) !== window.location.hash && !(hash === "" && window.location.hash === "")) {
      history.replaceState(null, "", hash ? "#" + hash : window.location.pathname);
    }
    document.body.dataset.filtered = String(count);
  }

  function fromHash() {
    var given = {};
    window.location.hash.replace(/^#/, "").split("&").forEach(function (pair) {
      if (!pair) { return; }
      var at = pair.indexOf("=");
      if (at > 0) { given[decodeURIComponent(pair.slice(0, at))] = decodeURIComponent(pair.slice(at + 1)); }
    });
    controls.forEach(function (c) {
      var value = given[c.dataset.filter] || "";
      if (c.tagName === "SELECT" && value && !Array.prototype.some.call(c.options, function (o) { return o.value === value; })) {
        var option = document.createElement("option");
        option.value = value;
        option.textContent = value + " (none here)";
        c.appendChild(option);
      }
      c.value = value;
    });
  }

  controls.forEach(function (c) { c.addEventListener(c.tagName === "SELECT" ? "change" : "input", apply); });
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  window.addEventListener("hashchange", function () { fromHash(); apply(); });
  fromHash();
  apply();
  document.body.dataset.ready = "1";
}());
