import { createHash } from "node:crypto";
import type { FastifyRequest } from "fastify";

/** Legacy clients send the token in the query or body instead of `X-User-Token` (see users/identity.ts). */
const LEGACY_TOKEN_FIELDS = ["userToken", "requesterToken"] as const;

function stringField(source: unknown, field: string): string | undefined {
  if (typeof source !== "object" || source === null) return undefined;
  const value = (source as Record<string, unknown>)[field];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

function claimedCredential(request: FastifyRequest): string | undefined {
  const sso = request.headers["x-sso-token"];
  if (typeof sso === "string" && sso !== "") return `sso ${sso}`;
  const token = request.headers["x-user-token"];
  if (typeof token === "string" && token.trim() !== "") return `user ${token.trim()}`;
  for (const field of LEGACY_TOKEN_FIELDS) {
    const legacy = stringField(request.query, field) ?? stringField(request.body, field);
    if (legacy !== undefined) return `user ${legacy}`;
  }
  return undefined;
}

/**
 * The rate-limit key of the caller behind a request: its client IP (`request.ip`, which honours
 * TRUST_PROXY), followed by a digest of the user or SSO token it carries. Requests without a
 * token are keyed by the IP alone, as one caller. The token is read as claimed, not verified:
 * limits are spent before any lookup, and a made-up token only buys a fresh caller budget, which
 * the bucket's per-IP cap bounds. Only a digest is kept, so limiter keys (in Redis too) never hold
 * a bearer credential.
 *
 * @example
 * ```ts
 * rateLimitCaller(request); // "203.0.113.7 Hk3x…" with X-User-Token, "203.0.113.7" without
 * ```
 */
export function rateLimitCaller(request: FastifyRequest): string {
  const credential = claimedCredential(request);
  if (credential === undefined) return request.ip;
  return `${request.ip} ${createHash("sha256").update(credential, "utf8").digest("base64url").slice(0, 22)}`;
}
