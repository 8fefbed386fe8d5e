/**
 * How a board's or tag's name is compared with another: trimmed, case-insensitive.
 *
 * @example
 * ```ts
 * nameKey(" Feature Requests "); // "feature requests"
 * ```
 */
export function nameKey(name: string): string {
  return name.normalize("NFKC").trim().toLowerCase();
}

/**
 * A source timestamp as stored (ISO-8601 UTC), or null when it is not a date. Accepts ISO-8601
 * (with or without time or zone; no zone means UTC), and epoch milliseconds as numbers.
 *
 * @example
 * ```ts
 * isoDate("2024-03-01"); // "2024-03-01T00:00:00.000Z"
 * ```
 */
export function isoDate(value: unknown): string | null {
  if (typeof value === "number") {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? null : date.toISOString();
  }
  if (typeof value !== "string") return null;
  const text = value.trim();
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/i.exec(text);
  if (match === null) return null;
  const [, y, mo, d, h = "00", mi = "00", s = "00", frac = "", zone = "Z"] = match;
  const normalizedZone = zone.toUpperCase() === "Z" ? "Z" : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone;
  const parsed = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${frac.slice(0, 4)}${normalizedZone}`);
  if (Number.isNaN(parsed.getTime())) return null;
  // Reject dates that roll over (2024-02-31 → March): the text must name a real day.
  const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (day.getUTCMonth() !== Number(mo) - 1 || day.getUTCDate() !== Number(d)) return null;
  return parsed.toISOString();
}
