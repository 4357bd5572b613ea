// The page's language for the browser's own words: the catalog Django serves at /jsi18n/
// (loaded by base.html before any module) defines `gettext`, `ngettext` and `interpolate`.
// Without it (a page outside base.html) the English words stand.

const catalog = globalThis;

/** A sentence in the page's language: `_("Your turn")`. */
export function _(text) {
  return typeof catalog.gettext === "function" ? catalog.gettext(text) : text;
}

/** One of two forms by count: `ngettext("%(n)s point", "%(n)s points", n)`, then `format`. */
export function ngettext(singular, plural, count) {
  if (typeof catalog.ngettext === "function") return catalog.ngettext(singular, plural, count);
  return count === 1 ? singular : plural;
}

/** Named blanks filled in: `format(_("%(name)s doubles"), { name })`. */
export function format(text, values) {
  return text.replace(/%\((\w+)\)s/g, (whole, key) => (key in values ? String(values[key]) : whole));
}

/** The page's language, as its <html lang> says ("en", "it"). */
export function language() {
  return document.documentElement.lang || "en";
}
