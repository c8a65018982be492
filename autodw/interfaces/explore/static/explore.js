/* The explorer's only script: the instruction table. Its rows are data (rows.js sets AUTODW_ROWS); the rows that
   match the filters (select boxes and a text search, kept in the address's #hash so a filtered view can be linked
   to) are drawn a few hundred at a time, every value written as text, never as HTML. */
(function () {
  "use strict";
  var PAGE = 100;  // rows drawn at once ("show more" draws the next ones): the work of a filter is bounded
  var form = document.getElementById("filters");
  var table = document.getElementById("units");
  var rows = window.AUTODW_ROWS;
  if (!form || !table || !rows) { return; }
  var body = table.tBodies[0];
  var more = document.getElementById("more");
  var shown = document.getElementById("shown");
  var controls = Array.prototype.slice.call(form.querySelectorAll("[data-filter]"));
  var columns = Array.prototype.map.call(table.tHead.rows[0].cells, function (th) { return th.dataset.column; });
  var texts = rows.map(function (r) { return (r.key + " " + r.text).toLowerCase(); });
  var matching = [], drawn = 0;

  function wanted() {
    var out = {};
    controls.forEach(function (c) { if (c.value) { out[c.dataset.filter] = c.value; } });
    return out;
  }

  function matches(row, index, filters) {
    for (var name in filters) {
      var value = filters[name];
      if (name === "q") {
        if (texts[index].indexOf(value.toLowerCase()) < 0) { return false; }
      } else if (Array.isArray(row[name]) ? row[name].indexOf(value) < 0 : String(row[name]) !== value) {
        return false;
      }
    }
    return true;
  }

  var formats = [0, 1, 2].map(function (d) {  // made once: a formatter per call is slow
    return new Intl.NumberFormat("en", {minimumFractionDigits: d, maximumFractionDigits: d});
  });

  function number(x, digits) {
    return typeof x === "number" ? formats[digits].format(x) : "-";
  }

  function cell(tr, column, row) {
    var td = document.createElement("td"), value = row[column];
    if (column === "key") {
      var a = document.createElement("a");
      a.href = row.href;
      a.textContent = row.key;
      td.appendChild(a);
    } else if (column === "outcome") {
      var badge = document.createElement("span");
      badge.className = "badge " + row.outcome;
      badge.textContent = row.outcome;
      td.appendChild(badge);
      if (row.gaps) {
        var mark = document.createElement("span");
        mark.className = "gapmark";
        mark.title = row.gaps;
        mark.textContent = " missing parts";
        td.appendChild(mark);
      }
    } else if (column === "intent" || column === "api") {
      td.className = "small";
      td.textContent = value.join(", ");
    } else if (column === "partial_credit" || column === "seconds") {
      td.className = "num";
      td.textContent = number(value, column === "seconds" ? 1 : 2);
    } else if (column === "differences" || column === "api_calls" || column === "tokens") {
      td.className = "num";
      td.textContent = number(value, 0);
    } else if (column === "text") {
      td.className = "text";
      td.textContent = value.length > 160 ? value.slice(0, 160) + "..." : value;
      td.title = value;
    } else {
      td.textContent = value;
    }
    tr.appendChild(td);
  }

  function drawMore() {
    var fragment = document.createDocumentFragment();
    var end = Math.min(matching.length, drawn + PAGE);
    for (; drawn < end; drawn++) {
      var row = rows[matching[drawn]], tr = document.createElement("tr");
      tr.className = row.outcome;
      tr.dataset.key = row.key;
      columns.forEach(function (column) { cell(tr, column, row); });
      fragment.appendChild(tr);
    }
    body.appendChild(fragment);
    more.hidden = drawn >= matching.length;
    more.textContent = "show " + Math.min(PAGE, matching.length - drawn) + " more";
    shown.value = matching.length + " of " + rows.length + (drawn < matching.length ? " (" + drawn + " drawn)" : "");
  }

  function apply() {
    var filters = wanted();
    matching = [];
    for (var i = 0; i < rows.length; i++) {
      if (matches(rows[i], i, filters)) { matching.push(i); }
    }
    body.textContent = "";
    drawn = 0;
    drawMore();
    var hash = Object.keys(filters).map(function (k) {
      return encodeURIComponent(k) + "=" + encodeURIComponent(filters[k]);
    }).join("&");
    if (hash !== window.location.hash.replace(/^#/, "")) {
      history.replaceState(null, "", hash ? "#" + hash : window.location.pathname);
    }
    document.body.dataset.matching = String(matching.length);
  }

  function fromHash() {
    var given = {};
    window.location.hash.replace(/^#/, "").split("&").forEach(function (pair) {
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
  more.addEventListener("click", drawMore);
  window.addEventListener("hashchange", function () { fromHash(); apply(); });
  fromHash();
  apply();
  document.body.dataset.ready = "1";
}());
