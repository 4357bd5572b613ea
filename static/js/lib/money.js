// Money as players read it, as the server writes it (accounts.money.money_text and the
// `money` template filter): integer cents, never a float.

/** 123456 -> "1,234.56"; -5 -> "-0.05". */
export function money(cents) {
  const sign = cents < 0 ? "-" : "";
  const whole = Math.floor(Math.abs(cents) / 100);
  const part = String(Math.abs(cents) % 100).padStart(2, "0");
  return `${sign}${whole.toLocaleString("en-US")}.${part}`;
}

/** An amount with its currency, as pages print it: "12.50 FUN". */
export function amount(cents, currency) {
  return `${money(cents)} ${currency}`;
}
