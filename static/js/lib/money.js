// Money as players read it, as the server writes it (accounts.money.money_text and the
// `money` template filter): integer cents, never a float, with the page's language's
// separators ("1,234.56" in English, "1.234,56" in Italian).

import { language } from "./i18n.js";

const SEPARATORS = { it: [".", ","] };

/** 123456 -> "1,234.56"; -5 -> "-0.05". */
export function money(cents) {
  const [thousands, decimal] = SEPARATORS[language().slice(0, 2)] ?? [",", "."];
  const sign = cents < 0 ? "-" : "";
  const whole = Math.floor(Math.abs(cents) / 100);
  const part = String(Math.abs(cents) % 100).padStart(2, "0");
  const grouped = String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, thousands);
  return `${sign}${grouped}${decimal}${part}`;
}

/** An amount with its currency, as pages print it: "12.50 FUN". */
export function amount(cents, currency) {
  return `${money(cents)} ${currency}`;
}
