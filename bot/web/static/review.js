// A review's steps one at a time: Previous / Next and the arrow keys; the step shown is in the address (#step-N).
(function () {
  var steps = Array.prototype.slice.call(document.querySelectorAll("section.step"));
  var nav = document.querySelector("nav.stepper");
  if (!steps.length || !nav) return;
  var where = document.getElementById("where");
  var current = 0;
  function show(index) {
    current = Math.max(0, Math.min(steps.length - 1, index));
    steps.forEach(function (step, i) { step.hidden = i !== current; });
    where.textContent = (current + 1) + " / " + steps.length;
    document.getElementById("prev").disabled = current === 0;
    document.getElementById("next").disabled = current === steps.length - 1;
    history.replaceState(null, "", "#step-" + (current + 1));
  }
  nav.hidden = false;
  document.getElementById("prev").addEventListener("click", function () { show(current - 1); });
  document.getElementById("next").addEventListener("click", function () { show(current + 1); });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "ArrowRight") { show(current + 1); event.preventDefault(); }
    if (event.key === "ArrowLeft") { show(current - 1); event.preventDefault(); }
  });
  var asked = /^#step-(\d+)$/.exec(location.hash);
  show(asked ? parseInt(asked[1], 10) - 1 : 0);
})();
