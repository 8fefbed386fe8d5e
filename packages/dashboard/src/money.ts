/** Money in currency units, or the bare number when the currency is unknown. */
export function formatMoney(amount: number | null, currency: string | null): string {
  if (amount === null) return "—";
  if (currency === null) return amount.toFixed(2);
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

/**
 * Revenue per currency, never summed across currencies: `€1,200.50 + $49.00`, or `—` for none.
 *
 * @example
 * ```ts
 * formatRevenue([{ currency: "EUR", mrr: 1200.5 }, { currency: "USD", mrr: 49 }]); // "€1,200.50 + $49.00"
 * ```
 */
export function formatRevenue(revenue: ReadonlyArray<{ currency: string; mrr: number }>): string {
  return revenue.length === 0 ? "—" : revenue.map((r) => formatMoney(r.mrr, r.currency)).join(" + ");
}
