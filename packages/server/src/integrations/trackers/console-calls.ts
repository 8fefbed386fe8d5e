import type { Context } from "../../context.js";
import { ApiError } from "../../http/errors.js";
import type { TrackerAdapter, TrackerApi, TrackerConnectionRow } from "./adapter.js";
import { markBroken } from "./broken.js";
import { findTrackerConnection, pauseTrackerConnection } from "./connections.js";

/** The 502 of a rate-limited connection, with `Retry-After`. */
function rateLimited(adapter: TrackerAdapter, retryAfterMs: number): ApiError {
  const seconds = Math.ceil(retryAfterMs / 1000);
  return new ApiError(adapter.codes.unavailable, {
    message: `${adapter.service} is rate limiting this connection: retry in ${seconds} s`,
    details: { reason: "rate_limited", retryAfter: seconds },
    headers: { "retry-after": String(seconds) },
  });
}

/**
 * Turns a failed call made for a console request into the answer: a refused credential, one
 * without the permission, or a target that is gone breaks the connection, mails the owners and
 * answers 409 (`github_connection_broken`, …); a missing issue is 404; a rate limit is 502 with
 * `Retry-After` (and pauses the connection); anything else 502.
 */
export async function answerFailure(ctx: Context, adapter: TrackerAdapter, connection: TrackerConnectionRow, api: TrackerApi, error: unknown, issueCall: boolean): Promise<never> {
  const failure = adapter.classify(error, ctx.clock.now().getTime());
  const broken = async (reason: string): Promise<never> => {
    await markBroken(ctx, adapter, connection.id, reason);
    throw new ApiError(adapter.codes.broken, { details: { reason } });
  };
  switch (failure.kind) {
    case "unauthorized":
    case "forbidden":
      return broken(failure.kind);
    case "gone":
      return broken(failure.reason);
    case "not_found": {
      if (adapter.targetGoneReason === undefined) throw new ApiError(adapter.codes.issueNotFound);
      // A 404 on an issue means a missing issue only when the target is still there.
      const probe = issueCall && api.probeTarget !== undefined ? await api.probeTarget() : ({ kind: "not_found" } as const);
      if (probe?.kind !== "not_found") throw new ApiError(adapter.codes.issueNotFound);
      return broken(adapter.targetGoneReason);
    }
    case "rate_limited":
      await pauseTrackerConnection(ctx.db.kysely, connection.id, new Date(ctx.clock.now().getTime() + failure.retryAfterMs));
      throw rateLimited(adapter, failure.retryAfterMs);
    case "error":
      throw new ApiError(adapter.codes.unavailable, {
        ...(failure.status === undefined ? {} : { message: `${adapter.service} answered ${failure.status}` }),
        details: { reason: "error", ...(failure.status === undefined ? {} : { status: failure.status }), message: failure.message },
      });
    case "unreachable":
      throw new ApiError(adapter.codes.unavailable, { details: { reason: "unreachable", message: failure.message } });
  }
}

/** The connection of the request's app, active and not paused (else 409, or 502 with `Retry-After`), with a client. */
export async function usableConnection(ctx: Context, adapter: TrackerAdapter, appId: string): Promise<{ connection: TrackerConnectionRow; api: TrackerApi }> {
  const connection = await findTrackerConnection(ctx.db.kysely, adapter, appId);
  if (connection.status !== "active") throw new ApiError(adapter.codes.broken, { details: { reason: connection.brokenReason } });
  const now = ctx.clock.now().getTime();
  if (connection.pausedUntil !== null && Date.parse(connection.pausedUntil) > now) throw rateLimited(adapter, Date.parse(connection.pausedUntil) - now);
  return { connection, api: adapter.api(ctx, connection, (until) => pauseTrackerConnection(ctx.db.kysely, connection.id, until)) };
}
