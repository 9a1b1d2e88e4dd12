// A live tournament page: asks every few seconds whether anything changed and, if so, shows the new bracket.
(function () {
  var region = document.getElementById("live-region");
  if (!region || !region.dataset.poll) return;  // (a finished tournament no longer changes)
  var every = parseInt(region.dataset.poll, 10);
  function poll() {
    fetch(location.pathname + "?part=live", { cache: "no-store" }).then(function (response) {
      return response.ok ? response.text() : null;
    }).then(function (html) {
      if (html === null) return;
      var next = document.createElement("div");
      next.innerHTML = html;
      var fresh = next.querySelector("#live"), shown = document.getElementById("live");
      if (fresh && shown && fresh.dataset.version !== shown.dataset.version) region.innerHTML = html;
      if (fresh && fresh.dataset.live === "false") return true;  // it just ended: nothing more to ask
    }).catch(function () {}).then(function (over) { if (!over) setTimeout(poll, every); });
  }
  setTimeout(poll, every);
})();
