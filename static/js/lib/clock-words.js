// What a time control gives each player over a match, in the words of
// matches.clock.match_time_words, and a form's live sentence that says it as the fields change.
//
// A clock here is {kind, move, delay, reserve} in seconds; kind is one of "none", "move",
// "delay", "days" (matches.models.ClockKind).

const UNITS = [["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];

export function spelled(seconds) {
  const parts = [];
  let rest = Math.max(0, Math.floor(seconds));
  for (const [unit, size] of UNITS) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count) parts.push(`${count} ${unit}${count === 1 ? "" : "s"}`);
  }
  return parts.join(" ") || "0 seconds";
}

const firstUp = (words) => words.slice(0, 1).toUpperCase() + words.slice(1);

export function matchTimeWords(clock, { lengths = [], money = false } = {}) {
  if (clock.kind === "none") return "No clock: take your time.";
  if (clock.kind === "days") return firstUp(`${spelled(clock.move)} for every move.`);
  if (clock.kind === "move") {
    return firstUp(
      `${spelled(clock.move)} for every move, then ${spelled(clock.reserve)} each in reserve ` +
        `for the whole ${money ? "session" : "match"}.`,
    );
  }
  let reserve;
  if (money) {
    reserve = `A money session: ${spelled(clock.reserve)} more each game.`;
  } else {
    const each = [...new Set(lengths)]
      .sort((a, b) => a - b)
      .slice(0, 4)
      .map((length) => `a ${length}-point match: ${spelled(clock.reserve * length)} each`);
    reserve = each.length ? `${firstUp(each.join("; "))}.` : "";
  }
  return `${reserve} The first ${spelled(clock.delay)} of every move are free.`.trim();
}

// Keep the form's [data-clock-sentence] saying what read() describes: read(form) answers
// {clock, lengths, money}, or null when the fields say nothing whole yet.
export function watchClock(form, read) {
  const out = form.querySelector("[data-clock-sentence]");
  if (!out) return;
  const update = () => {
    const chosen = read(form);
    if (chosen) out.textContent = matchTimeWords(chosen.clock, chosen);
  };
  form.addEventListener("input", update);
  form.addEventListener("change", update);
  update();
}

export function whole(form, name) {
  const field = form.elements.namedItem(name);
  const value = field ? Number.parseInt(field.value, 10) : Number.NaN;
  return Number.isFinite(value) ? value : null;
}
