// What a time control gives each player over a match, in the words of
// matches.clock.match_time_words, and a form's live sentence that says it as the fields change.
//
// A clock here is {kind, move, delay, reserve} in seconds; kind is one of "none", "move",
// "delay", "days" (matches.models.ClockKind).

import { _, format, ngettext } from "./i18n.js";

const UNITS = [
  [86400, (count) => ngettext("%(count)s day", "%(count)s days", count)],
  [3600, (count) => ngettext("%(count)s hour", "%(count)s hours", count)],
  [60, (count) => ngettext("%(count)s minute", "%(count)s minutes", count)],
  [1, (count) => ngettext("%(count)s second", "%(count)s seconds", count)],
];

export function spelled(seconds) {
  const parts = [];
  let rest = Math.max(0, Math.floor(seconds));
  for (const [size, unit] of UNITS) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count) parts.push(format(unit(count), { count }));
  }
  return parts.join(" ") || format(ngettext("%(count)s second", "%(count)s seconds", 0), { count: 0 });
}

export function matchTimeWords(clock, { lengths = [], money = false } = {}) {
  if (clock.kind === "none") return _("No clock: take your time.");
  if (clock.kind === "days") return format(_("%(move)s for every move."), { move: spelled(clock.move) });
  if (clock.kind === "move") {
    const words = money
      ? _("%(move)s for every move, then %(reserve)s each in reserve for the whole session.")
      : _("%(move)s for every move, then %(reserve)s each in reserve for the whole match.");
    return format(words, { move: spelled(clock.move), reserve: spelled(clock.reserve) });
  }
  let reserve;
  if (money) {
    reserve = format(_("A money session: %(reserve)s more each game."), { reserve: spelled(clock.reserve) });
  } else {
    const each = [...new Set(lengths)]
      .sort((a, b) => a - b)
      .slice(0, 4)
      .map((length) =>
        format(saidWithAVowel(length)
          ? ngettext("an %(length)s-point match: %(reserve)s each", "an %(length)s-point match: %(reserve)s each", length)
          : ngettext("a %(length)s-point match: %(reserve)s each", "a %(length)s-point match: %(reserve)s each", length), {
          length,
          reserve: spelled(clock.reserve * length),
        }),
      );
    reserve = each.length ? `${firstUp(each.join("; "))}.` : "";
  }
  return `${reserve} ${format(_("The first %(delay)s of every move are free."), { delay: spelled(clock.delay) })}`.trim();
}

// Spoken from a vowel, as the server's clock words say: "an 8-point match", "an 11-point match".
const saidWithAVowel = (number) => number === 11 || number === 18 || String(number).startsWith("8");

const firstUp = (words) => words.slice(0, 1).toUpperCase() + words.slice(1);

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
