import type { FastifyRequest } from "fastify";
import { decodeJwt } from "jose";

/** JSON with object keys sorted at every depth, so the same request always reads the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * Human-verification tokens are single-use, so a retry of the same submission must bring a fresh
 * one: they prove who sends, not what is sent, and stay out of the request's fingerprint.
 */
const PROOF_FIELDS = new Set(["verificationToken", "turnstileToken"]);

/** The body without its human-verification tokens. */
export function withoutProofs(body: unknown): unknown {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return body;
  return Object.fromEntries(Object.entries(body as Record<string, unknown>).filter(([k]) => !PROOF_FIELDS.has(k)));
}

/** `value` when it is a plain object, else an empty one. */
export function objectOf(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * Who is asking, as far as the key's scope goes: the route and its path parameters, the app key
 * and every credential a public route reads (headers, and body or form fields of the same name).
 * Two callers' keys never meet; anonymous callers of one app share a scope (keys must be random).
 */
export function scopeOf(request: FastifyRequest, fields: Record<string, unknown>): string {
  const h = request.headers;
  return canonicalJson([
    request.method,
    request.routeOptions.url,
    request.params,
    h["x-app-key"],
    h["x-user-token"],
    h.authorization,
    h["x-upload-session-token"],
    fields.appKey,
    fields.userToken,
    fields.requesterToken,
    // The signed-in user, not the token: a retry may carry a token re-signed meanwhile. Only
    // appended when sent, so the scopes of callers without one stay what they were.
    ...(typeof h["x-sso-token"] === "string" ? [`sso:${unverifiedSubject(h["x-sso-token"])}`] : []),
  ]);
}

/** The `sub` of an SSO token as it claims it (the route verifies the token before any write). */
function unverifiedSubject(token: string): string {
  try {
    const { sub } = decodeJwt(token);
    return typeof sub === "string" ? sub : "";
  } catch {
    return "";
  }
}
