// A swing's CPP countdown: the element naming the next level's time (data-level-at, an
// ISO date-time) says how long is left. Looked up on every tick, as the live fragment is
// fetched again whenever the swing changes.

function left(seconds) {
  if (seconds <= 0) return "any moment now";
  const minutes = Math.floor(seconds / 60);
  const rest = String(Math.floor(seconds % 60)).padStart(2, "0");
  return minutes ? `in ${minutes} min ${rest} s` : `in ${Math.ceil(seconds)} s`;
}

function tick() {
  for (const element of document.querySelectorAll("[data-level-at]")) {
    element.textContent = left((Date.parse(element.dataset.levelAt) - Date.now()) / 1000);
  }
}

tick();
setInterval(tick, 1000);
