// The challenge and seek forms' live sentence under the clock: what the chosen clock gives each
// player over the match being offered ("A 7-point match: 14 minutes each. ...").
import { watchClock, whole } from "../lib/clock-words.js";

function reader(prefix) {
  const name = (field) => `${prefix}${field}`;
  return (form) => {
    const preset = form.elements.namedItem(name("clock"));
    if (!preset) return null;
    const money = form.elements.namedItem(name("kind"))?.value === "money";
    const length = whole(form, name("length"));
    if (!money && !(length > 0)) return null;
    let clock = JSON.parse(preset.dataset.presets || "{}")[preset.value];
    if (!clock) {
      const move = whole(form, name("move_seconds"));
      if (move === null) return null;
      clock = {
        kind: form.elements.namedItem(name("clock_kind"))?.value,
        move,
        delay: Math.min(move, 600),
        reserve: whole(form, name("reserve_seconds")) ?? 0,
      };
    }
    return { clock, lengths: [length], money };
  };
}

for (const [selector, prefix] of [
  ["[data-testid=challenge-form]", ""],
  ["[data-testid=seek-form]", "seek-"],
]) {
  const form = document.querySelector(selector);
  if (form) watchClock(form, reader(prefix));
}
