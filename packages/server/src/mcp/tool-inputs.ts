import { z } from "zod";

/** An id of a kind (`fr`, `brd`, …), as the console API's paths check them. */
export function idOf(prefix: string) {
  return z.string().regex(new RegExp(`^${prefix}_[0-9a-z]{26}$`), `an id starting with ${prefix}_`);
}

const DAY_OR_TIME = /^(\d{4}-\d{2}-\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** True for a real calendar day (`2026-02-30` is not one, though `Date.parse` takes it). */
function realDay(value: string): boolean {
  const day = DAY_OR_TIME.exec(value)?.[1];
  if (day === undefined || Number.isNaN(Date.parse(value))) return false;
  return new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) === day;
}

/** A day (`2026-03-01`, midnight UTC) or an ISO timestamp with its offset, as an ISO timestamp in UTC. */
export function dateInput() {
  return z
    .string()
    .regex(DAY_OR_TIME, "a day (2026-03-01) or an ISO 8601 time with its offset (2026-03-01T09:00:00Z)")
    .refine(realDay, "not a real date")
    .transform((value) => new Date(value).toISOString());
}
