// Step through a disputed match: the server sends every position after an action as a
// BoardModel (seat 0 at the bottom); this draws one at a time with static/js/lib/board.js.

import { renderBoard } from "../lib/board.js";
import { _, format } from "../lib/i18n.js";

const steps = JSON.parse(document.getElementById("replay-steps").textContent);
const svg = document.getElementById("replay-board");
const label = document.getElementById("replay-label");
const count = document.getElementById("replay-count");
const rows = new Map(
  [...document.querySelectorAll("tr[data-replay]")].map((row) => [Number(row.dataset.replay), row]),
);
let index = steps.length - 1;

function show(next) {
  index = Math.max(0, Math.min(steps.length - 1, next));
  const step = steps[index];
  renderBoard(svg, step.board);
  const game = step.game ? `${format(_("Game %(game)s"), step)} · ` : "";
  label.textContent = step.seq ? `${game}#${step.seq} ${step.label}` : step.label;
  count.textContent = format(_("%(step)s of %(steps)s"), { step: index + 1, steps: steps.length });
  for (const [seq, row] of rows) row.classList.toggle("is-current", seq === step.seq);
  document.querySelector("[data-step=prev]").disabled = index === 0;
  document.querySelector("[data-step=next]").disabled = index === steps.length - 1;
}

const moves = {
  first: () => 0,
  prev: () => index - 1,
  next: () => index + 1,
  last: () => steps.length - 1,
};

document.querySelectorAll("[data-step]").forEach((button) => {
  button.addEventListener("click", () => show(moves[button.dataset.step]()));
});

for (const [seq, row] of rows) {
  const go = () => show(steps.findIndex((step) => step.seq === seq));
  row.addEventListener("click", go);
  row.addEventListener("keydown", (event) => {
    if (event.key === "Enter") go();
  });
}

document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, textarea, select")) return;
  if (event.key === "ArrowLeft") show(index - 1);
  if (event.key === "ArrowRight") show(index + 1);
});

show(index);
