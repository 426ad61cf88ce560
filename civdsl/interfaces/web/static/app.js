// civdsl serve: the only script. A seat's page asks the server every second whether the game changed
// and reloads when it did; an answer button is pressed once; the new-game form shows as many seats as
// players; the replay steps with the arrow keys.
(function () {
  "use strict";
  var body = document.body;
  var poll = body.getAttribute("data-poll");
  if (poll) {
    var version = body.getAttribute("data-version");
    var tick = function () {
      fetch(poll, {cache: "no-store"}).then(function (r) { return r.json(); }).then(function (s) {
        if (String(s.version) !== version) { window.location.reload(); } else { setTimeout(tick, 1000); }
      }).catch(function () { setTimeout(tick, 3000); });
    };
    setTimeout(tick, 1000);
  }
  var form = document.getElementById("answer-form");
  if (form) {
    form.addEventListener("submit", function (ev) {
      var chosen = ev.submitter;
      if (form.getAttribute("data-sent")) { ev.preventDefault(); return; }
      form.setAttribute("data-sent", "1");
      if (chosen) { chosen.classList.add("chosen"); }
    });
  }
  var players = document.getElementById("players");
  if (players) {
    var rows = document.querySelectorAll(".seat-row");
    var sync = function () {
      rows.forEach(function (row) { row.hidden = Number(row.getAttribute("data-seat")) > Number(players.value); });
    };
    players.addEventListener("change", sync);
    sync();
  }
  var current = document.querySelector("ol.events li.current");
  if (current) {  // the replay's event list opens on the current event
    var list = current.parentElement;
    list.scrollTop = current.offsetTop - list.offsetTop - list.clientHeight / 3;
  }
  if (body.getAttribute("data-keys") === "replay") {
    document.addEventListener("keydown", function (ev) {
      var ids = {ArrowLeft: "prev", ArrowRight: "next", PageUp: "prev-round", PageDown: "next-round",
                 Home: "first", End: "end"};
      var link = ids[ev.key] && document.getElementById(ids[ev.key]);
      if (link && !(ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement)) {
        ev.preventDefault();
        window.location.href = link.href;
      }
    });
  }
})();
