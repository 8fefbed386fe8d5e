import { createHash, hkdfSync, randomBytes } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Kysely } from "kysely";
import type { Context } from "../context.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "./errors.js";
import { keepAnswer, markWritten, reserve, settleRefusal, type KeptAnswer, type Reservation } from "./idempotency-store.js";
import type { App } from "./types.js";
import { documentKey } from "./idempotency-docs.js";
import { keyOf } from "./idempotency-key.js";
import { canonicalJson, objectOf, scopeOf, withoutProofs } from "./request-fingerprint.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * How a route takes `Idempotency-Key`. `"body"` (every public POST unless it says otherwise):
     * the key is reserved from the parsed query and body before the handler runs. `"stream"`:
     * the route reads its body itself (uploads) and calls {@link reserveAfterBody} once it has.
     */
    idempotency?: Mode;
  }
}

type Mode = "body" | "stream";

/** The answer header that marks a replay. */
const REPLAYED_HEADER = "Idempotent-Replayed";
/** Answer headers kept with the body and sent again on a replay (the hooks add the rest afresh). */
const KEPT_HEADERS = ["content-type", "location", "cache-control"];
const IN_USE_HEADERS = { "Retry-After": "1" };

/** A request that came with a valid key, and the reservation it holds once it has one. */
interface Keyed {
  key: string;
  /** `"body"` routes: the canonical query and body, taken before validation trims them. */
  content?: string;
  fields?: Record<string, unknown>;
  reservation?: Reservation;
}

const keyed = new WeakMap<FastifyRequest, Keyed>();

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** Reserves the key for this request: undefined to go on, the kept answer to replay, or a refusal. */
async function take(ctx: Context, request: FastifyRequest, entry: Keyed, fields: Record<string, unknown>, content: string): Promise<KeptAnswer | undefined> {
  const scope = scopeOf(request, fields);
  const reservation: Reservation = {
    scopeHash: sha256(scope),
    keyHash: sha256(entry.key),
    attempt: randomBytes(16).toString("hex"),
    sealKey: Buffer.from(hkdfSync("sha256", entry.key, scope, "tidings idempotent answer", 32)),
  };
  const outcome = await reserve(ctx.db.kysely, ctx.clock, reservation, sha256(content));
  if (outcome.kind === "reserved") {
    entry.reservation = reservation;
    return undefined;
  }
  if (outcome.kind === "replay") return outcome.answer;
  if (outcome.kind === "reused") throw new ApiError("idempotency_key_reused");
  throw new ApiError("idempotency_key_in_use", { headers: IN_USE_HEADERS });
}

/**
 * Sends a kept answer again, marked `Idempotent-Replayed: true`.
 *
 * @example
 * ```ts
 * if (replay !== undefined) return sendReplay(reply, replay);
 * ```
 */
export function sendReplay<R extends FastifyReply>(reply: R, answer: KeptAnswer): R {
  void reply
    .code(answer.statusCode)
    .headers({ ...answer.headers, [REPLAYED_HEADER]: "true" })
    .send(answer.body);
  return reply;
}

/**
 * For `"stream"` routes, once the body is read (and before anything is written): reserves the
 * request's key with the fields that name the caller (`appKey`, …) and a description of the body
 * that is the same for the same upload (its text fields and the file's digest, say). Answers the
 * kept answer when this is a repeat (send it with {@link sendReplay}), undefined to go on; throws
 * 409 `idempotency_key_in_use` or 422 `idempotency_key_reused`. Does nothing without a key.
 *
 * @example
 * ```ts
 * const replay = await reserveAfterBody(ctx, request, { appKey }, { fields, sha256: file.sha256 });
 * if (replay !== undefined) return sendReplay(reply, replay);
 * ```
 */
export async function reserveAfterBody(ctx: Context, request: FastifyRequest, fields: Record<string, unknown>, content: unknown): Promise<KeptAnswer | undefined> {
  const entry = keyed.get(request);
  if (entry === undefined) return undefined;
  return take(ctx, request, entry, fields, canonicalJson(content));
}

/** Whether the request came with a (valid) `Idempotency-Key`. */
export function hasIdempotencyKey(request: FastifyRequest): boolean {
  return keyed.has(request);
}

/**
 * Inside the transaction of the request's write: spends the request's key with the write, so a
 * retry can never run the write again, even if the server stops before the answer is kept. Does
 * nothing when the request came without a key. Pass it to services as their in-transaction hook.
 *
 * @example
 * ```ts
 * await db.transaction().execute(async (trx) => {
 *   await trx.insertInto("submissions").values(row).execute();
 *   await recordIdempotentWrite(trx, request);
 * });
 * ```
 */
export async function recordIdempotentWrite(trx: Kysely<Database>, request: FastifyRequest): Promise<void> {
  const reservation = keyed.get(request)?.reservation;
  if (reservation !== undefined) await markWritten(trx, reservation);
}

/**
 * `Idempotency-Key` on every POST of the scope it is registered in (before its routes), after
 * Stripe and the IETF draft "The Idempotency-Key HTTP Header Field": the key is reserved before
 * the handler runs (the primary key decides between concurrent requests), spent inside the write's
 * transaction ({@link recordIdempotentWrite}), and the answer is kept when it is sent. A repeat
 * gets the kept answer; a refusal that wrote nothing frees the key. Requests without the header
 * are untouched. Rows expire after 24 h (`IDEMPOTENCY_TTL_MS`).
 *
 * @example
 * ```ts
 * await app.register(async (scope) => {
 *   registerIdempotency(scope, ctx);
 *   feedbackPublicRoutes(scope, ctx);
 * });
 * ```
 */
export function registerIdempotency(scope: App, ctx: Context): void {
  const readKey = (mode: Mode) => async (request: FastifyRequest) => {
    const key = keyOf(request);
    if (key === undefined) return;
    const entry: Keyed = { key };
    if (mode === "body") {
      // Taken now: validation drops unknown fields and fills defaults, and hooks may add a body.
      const body = objectOf(request.body);
      entry.content = canonicalJson({ query: request.query, body: request.body === undefined || request.body === null ? null : withoutProofs(request.body) });
      entry.fields = { appKey: body.appKey, userToken: body.userToken, requesterToken: body.requesterToken };
    }
    keyed.set(request, entry);
  };

  const reserveBeforeHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    const entry = keyed.get(request);
    if (entry?.content === undefined) return;
    const replay = await take(ctx, request, entry, entry.fields ?? {}, entry.content);
    if (replay !== undefined) return sendReplay(reply, replay);
  };

  const keepOrRelease = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const entry = keyed.get(request);
    const reservation = entry?.reservation;
    if (entry === undefined || reservation === undefined) return payload;
    delete entry.reservation;
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    const body = typeof payload === "string" ? payload : Buffer.isBuffer(payload) ? payload.toString("utf8") : payload == null ? "" : undefined;
    const answer = { statusCode: reply.statusCode, headers, body: body ?? "" };
    const db = ctx.db.kysely;
    try {
      // Kept before the client sees it, so a retry right after the answer finds it. A streamed
      // answer (no public POST sends one) cannot be kept: it settles like a refusal.
      if (body !== undefined && reply.statusCode >= 200 && reply.statusCode < 300) await keepAnswer(db, reservation, answer);
      else await settleRefusal(db, reservation, answer);
    } catch (error) {
      // The answer still goes out. The key stays reserved: a retry runs again once the lease is
      // over if nothing was written, and gets 409 until the key expires if something was.
      request.log.error({ err: error }, "could not keep the answer of an idempotent request");
    }
    return payload;
  };

  // Hooked onto the routes that take a key only, so the public reads pay nothing for it. The key
  // is read before the route's own hooks (which may spend a rate limit or fill in the body).
  scope.addHook("onRoute", (route) => {
    const mode = route.config?.idempotency ?? ([route.method].flat().includes("POST") ? "body" : undefined);
    if (mode === undefined) return;
    route.config = { ...route.config, idempotency: mode, describe: documentKey };
    route.preValidation = [readKey(mode), ...listOf(route.preValidation)] as never;
    if (mode === "body") route.preHandler = [reserveBeforeHandler, ...listOf(route.preHandler)] as never;
    route.onSend = [...listOf(route.onSend), keepOrRelease] as never;
  });
}

function listOf<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}
