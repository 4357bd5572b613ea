// Counts down to the moment an element names (data-countdown, an ISO date-time): "starts in
// 2 h 05 min", then "starting now". The server's text stays until the first tick, and for
// browsers without scripts.

const UNITS = [
  ["d", 86400],
  ["h", 3600],
  ["min", 60],
];

function left(seconds) {
  if (seconds < 60) return `${Math.max(0, Math.ceil(seconds))} s`;
  const parts = [];
  let rest = seconds;
  for (const [name, size] of UNITS) {
    const count = Math.floor(rest / size);
    if (count || parts.length) parts.push(`${count} ${name}`);
    rest -= count * size;
    if (parts.length === 2) break;
  }
  return parts.join(" ");
}

function tick(element) {
  const seconds = (Date.parse(element.dataset.countdown) - Date.now()) / 1000;
  element.textContent = seconds > 0 ? `starts in ${left(seconds)}` : "starting now";
}

for (const element of document.querySelectorAll("[data-countdown]")) {
  tick(element);
  setInterval(() => tick(element), 1000);
}
