import type { Kysely } from "kysely";
import type { Clock } from "../clock.js";
import type { Database } from "../db/schema.js";
import { seal, unseal } from "./answer-seal.js";
import { ApiError } from "./errors.js";

/** How long a key is remembered after its first use: a repeat within it replays, after it runs again. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;
/**
 * How long a reservation that wrote nothing yet belongs to its request. After it, the request is
 * taken for dead (a crash, a lost connection) and a retry may run instead; if the first request
 * was only slow, its write is refused then (see {@link markWritten}), so only one ever commits.
 */
export const IDEMPOTENCY_LEASE_MS = 60_000;

/** The reservation a request holds: the row's key and what only that request knows. */
export interface Reservation {
  scopeHash: string;
  keyHash: string;
  /** Random id of this request's attempt (a retry that took an abandoned reservation over has another). */
  attempt: string;
  /** AES-256 key of the kept answer, derived from the raw Idempotency-Key (never stored). */
  sealKey: Buffer;
}

/** An answer kept for replay. */
export interface KeptAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/** What a request with a key may do: run, replay the kept answer, or be refused. */
export type ReserveOutcome =
  | { kind: "reserved" }
  | { kind: "replay"; answer: KeptAnswer }
  /** The first request with this key is still running (or stopped after writing; see the docs). */
  | { kind: "in_use" }
  /** The key was used for a request with another fingerprint. */
  | { kind: "reused" };

type Db = Kysely<Database>;

/**
 * Takes the key for this request, or says why not. The primary key decides between concurrent
 * requests on both engines: exactly one insert lands. A row past its expiry, or a `pending` one
 * past its lease, is taken over by a guarded update, which again only one request can win.
 *
 * @example
 * ```ts
 * const outcome = await reserve(db, clock, reservation, fingerprint);
 * if (outcome.kind === "replay") return send(outcome.answer);
 * ```
 */
export async function reserve(db: Db, clock: Clock, r: Reservation, fingerprint: string): Promise<ReserveOutcome> {
  const now = clock.now();
  const nowIso = now.toISOString();
  const fresh = {
    fingerprint,
    state: "pending" as const,
    attempt: r.attempt,
    lockedAt: nowIso,
    statusCode: null,
    responseHeaders: null,
    responseBody: null,
    createdAt: nowIso,
    expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString(),
  };
  const abandonedBefore = new Date(now.getTime() - IDEMPOTENCY_LEASE_MS).toISOString();
  // A row released between our insert and our read is gone: try again (bounded, it is a race).
  for (let round = 0; round < 3; round++) {
    const inserted = await db
      .insertInto("idempotencyKeys")
      .values({ scopeHash: r.scopeHash, keyHash: r.keyHash, ...fresh })
      .onConflict((oc) => oc.columns(["scopeHash", "keyHash"]).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) return { kind: "reserved" };
    const taken = await db
      .updateTable("idempotencyKeys")
      .set(fresh)
      .where("scopeHash", "=", r.scopeHash)
      .where("keyHash", "=", r.keyHash)
      .where((eb) => eb.or([eb("expiresAt", "<=", nowIso), eb.and([eb("state", "=", "pending"), eb("lockedAt", "<=", abandonedBefore)])]))
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 1) return { kind: "reserved" };
    const row = await db
      .selectFrom("idempotencyKeys")
      .select(["fingerprint", "state", "statusCode", "responseHeaders", "responseBody"])
      .where("scopeHash", "=", r.scopeHash)
      .where("keyHash", "=", r.keyHash)
      .executeTakeFirst();
    if (row === undefined) continue;
    if (row.fingerprint !== fingerprint) return { kind: "reused" };
    if (row.state !== "done" || row.statusCode === null || row.responseBody === null) return { kind: "in_use" };
    const headers = JSON.parse(row.responseHeaders ?? "{}") as Record<string, string>;
    return { kind: "replay", answer: { statusCode: row.statusCode, headers, body: unseal(r.sealKey, row.responseBody) } };
  }
  return { kind: "in_use" };
}

/**
 * Inside the transaction of the request's write: marks the reservation as spent, so the key is
 * used up exactly when the write commits and a retry can never run it twice. Refuses (rolling the
 * write back) when a retry has taken the reservation over meanwhile.
 */
export async function markWritten(trx: Db, r: Reservation): Promise<void> {
  const marked = await trx
    .updateTable("idempotencyKeys")
    .set({ state: "written" })
    .where("scopeHash", "=", r.scopeHash)
    .where("keyHash", "=", r.keyHash)
    .where("attempt", "=", r.attempt)
    .where("state", "in", ["pending", "written"])
    .executeTakeFirst();
  if (Number(marked.numUpdatedRows) !== 1) throw new ApiError("idempotency_key_in_use", { headers: { "Retry-After": "1" } });
}

/** Keeps the answer of a request that succeeded, or wrote before it failed, for replay. */
export async function keepAnswer(db: Db, r: Reservation, answer: KeptAnswer): Promise<void> {
  await db
    .updateTable("idempotencyKeys")
    .set({
      state: "done",
      statusCode: answer.statusCode,
      responseHeaders: JSON.stringify(answer.headers),
      responseBody: seal(r.sealKey, answer.body),
    })
    .where("scopeHash", "=", r.scopeHash)
    .where("keyHash", "=", r.keyHash)
    .where("attempt", "=", r.attempt)
    .where("state", "in", ["pending", "written"])
    .execute();
}

/**
 * After a refusal: frees the key when the request wrote nothing, so a corrected or later retry
 * runs; when it did write (it failed after its commit), keeps the answer instead, since running
 * it again would write twice.
 */
export async function settleRefusal(db: Db, r: Reservation, answer: KeptAnswer): Promise<void> {
  const released = await db
    .deleteFrom("idempotencyKeys")
    .where("scopeHash", "=", r.scopeHash)
    .where("keyHash", "=", r.keyHash)
    .where("attempt", "=", r.attempt)
    .where("state", "=", "pending")
    .executeTakeFirst();
  if (Number(released.numDeletedRows) === 0) await keepAnswer(db, r, answer);
}
