// The tournament form's live sentence under the clock: what it gives each player in the
// rounds' match lengths ("A 5-point match: 10 minutes each; a 7-point match: 14 minutes ...").
import { watchClock, whole } from "../lib/clock-words.js";

function read(form) {
  const move = whole(form, "move_seconds");
  if (move === null) return null;
  // the main flight's rounds: one points box a row
  const lengths = [...form.querySelectorAll("input[name=round_lengths]")]
    .map((input) => input.value)
    .join(",")
    .split(/[\s,]+/)
    .map((part) => Number.parseInt(part, 10))
    .filter((length) => length > 0);
  return {
    clock: {
      kind: form.elements.namedItem("clock_kind")?.value,
      move,
      delay: move,
      reserve: whole(form, "reserve_seconds") ?? 0,
    },
    lengths,
    money: false,
  };
}

const form = document.querySelector("[data-testid=tournament-form]");
if (form) watchClock(form, read);
