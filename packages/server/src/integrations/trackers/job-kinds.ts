import type { TrackerProvider } from "../../db/schema.js";
import type { NewJob } from "../../jobs/queue.js";

/** Attempts of a demand write or block removal: rate-limit pauses spend them too. */
export const DEMAND_ATTEMPTS = 12;

/** The job kinds of a tracker: writing a link's demand block, applying a webhook delivery, taking the block out of an unlinked issue. */
export function trackerJobKinds(provider: TrackerProvider): { demand: string; webhook: string; unlink: string } {
  return { demand: `${provider}-demand`, webhook: `${provider}-webhook`, unlink: `${provider}-unlink` };
}

/** The job that writes a link's demand block at `runAt`. */
export function demandJob(provider: TrackerProvider, linkId: string, runAt: Date): NewJob {
  const kind = trackerJobKinds(provider).demand;
  return { kind, refId: linkId, dedupeKey: `${kind}:${linkId}:${runAt.toISOString()}`, payload: { linkId }, runAt, maxAttempts: DEMAND_ATTEMPTS };
}
