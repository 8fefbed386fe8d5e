import {
  AuthenticationRequiredException,
  type FeedbackException,
  IdempotencyKeyInUseException,
  IdempotencyKeyReusedException,
  InactiveSubscriptionException,
  PaymentRequiredException,
  QuotaExceededException,
  RateLimitedException,
  UnexpectedStatusException,
  VerificationRequiredException,
} from "./errors.js";

/**
 * Parses `Retry-After` (delta-seconds or an HTTP date) into milliseconds from `nowMs`; null when
 * absent or unreadable.
 *
 * @example
 * ```ts
 * parseRetryAfterMs("30"); // 30000
 * ```
 */
export function parseRetryAfterMs(value: string | null | undefined, nowMs: number = Date.now()): number | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (text === "") return null;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // Dates must name a weekday or month: bare numbers like "-5" are not dates.
  if (!/[a-z]/i.test(text)) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/** 401s that are not an anonymous refusal: a bad identity hash or attribute signature. */
const NOT_ANONYMOUS_401 = new Set([
  "invalid_user_hash",
  "invalid_signature",
  "stale_signature",
  "invalid_sso_token",
  "sso_signature_mismatch",
  "sso_token_lifetime_too_long",
]);

const VERIFICATION_TEXT = /turnstile|human verification|captcha/i;

/** Reads `{error, code}` leniently: any JSON object, or nothing. */
function envelope(body: unknown): { error: string | undefined; code: string | undefined } {
  if (typeof body !== "object" || body === null) return { error: undefined, code: undefined };
  const record = body as Record<string, unknown>;
  return {
    error: typeof record.error === "string" ? record.error : undefined,
    code: typeof record.code === "string" ? record.code : undefined,
  };
}

/**
 * Recognises a human-verification refusal by code, or, for servers without codes, by message
 * (wire-contract §4.2). Every vendor code (`VENDOR_VERIFICATION_CODES`) names Turnstile.
 */
function isVerificationRefusal(code: string | undefined, error: string | undefined, rawBody: string): boolean {
  if (code !== undefined) return code === "verification_required" || /turnstile/i.test(code);
  return VERIFICATION_TEXT.test(error ?? rawBody);
}

/** A non-success HTTP answer as {@link errorFromResponse} needs it. */
export interface ErrorResponse {
  status: number;
  rawBody: string;
  requestId?: string | undefined;
  retryAfter?: string | null | undefined;
  nowMs?: number;
}

/** 403 codes that mean "sign the user in" rather than "not allowed at all". */
const FORBIDDEN_IDENTITY = new Set(["authentication_required", "identified_user_required"]);

/**
 * Maps a non-success answer to the SDK's error classes: 401 → authentication, 429 → rate limit,
 * 403 verification → verification, 402 by code, the idempotency-key refusals (409, 422) by code,
 * everything else → {@link UnexpectedStatusException}.
 *
 * @example
 * ```ts
 * errorFromResponse({ status: 402, rawBody: '{"error":"…","code":"tier_limit_submissions"}' }); // QuotaExceededException
 * ```
 */
export function errorFromResponse(response: ErrorResponse): FeedbackException {
  const { status, rawBody, requestId } = response;
  let body: unknown;
  try {
    body = rawBody === "" ? undefined : JSON.parse(rawBody);
  } catch {
    body = undefined;
  }
  const { error, code } = envelope(body);
  const init = { status, code, requestId, body, rawBody };
  if ((status === 401 && !NOT_ANONYMOUS_401.has(code ?? "")) || (status === 403 && FORBIDDEN_IDENTITY.has(code ?? ""))) {
    return new AuthenticationRequiredException(error ?? "Anonymous access is disabled for this surface; a user token is required.", init);
  }
  if (status === 429) {
    const retryAfterMs = parseRetryAfterMs(response.retryAfter, response.nowMs);
    return new RateLimitedException(error ?? "Too many requests. Please try again shortly.", { ...init, retryAfterMs });
  }
  if (status === 403 && isVerificationRefusal(code, error, rawBody)) {
    return new VerificationRequiredException(error ?? "Human verification is required", { ...init, code: code ?? "verification_required" });
  }
  if (status === 402) {
    if (code === "tier_limit_submissions") return new QuotaExceededException(error ?? "Monthly submission quota reached for this workspace.", init);
    if (code === "subscription_inactive") return new InactiveSubscriptionException(error ?? "Workspace subscription is inactive or canceled.", init);
    return new PaymentRequiredException(error ?? "Payment required.", init);
  }
  if (status === 409 && code === "idempotency_key_in_use") {
    return new IdempotencyKeyInUseException(error ?? "A request with this Idempotency-Key is still being processed", init);
  }
  if (status === 422 && code === "idempotency_key_reused") {
    return new IdempotencyKeyReusedException(error ?? "This Idempotency-Key was already used with a different request", init);
  }
  return new UnexpectedStatusException(error ?? `Unexpected HTTP status ${status}`, init);
}
