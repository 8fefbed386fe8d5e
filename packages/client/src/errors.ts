import { VENDOR_VERIFICATION_CODES } from "./error-codes.js";

/** Ids of the SDK's own user-facing messages (see `locales/`). */
export type ErrorMessageId =
  | "error.verificationRequired"
  | "error.quotaExceeded"
  | "error.subscriptionInactive"
  | "error.paymentRequired"
  | "error.authenticationRequired"
  | "error.rateLimited"
  | "error.timeout"
  | "error.network"
  | "error.aborted"
  | "error.unexpected"
  | "error.unsupportedAttachment";

/** What an error carries besides its message. */
export interface FeedbackExceptionInit {
  status?: number | undefined;
  code?: string | undefined;
  requestId?: string | undefined;
  /** The parsed JSON body, when there was one. */
  body?: unknown;
  /** The response body as received. */
  rawBody?: string | undefined;
  cause?: unknown;
}

/**
 * Base class of every error the SDK throws: HTTP answers, timeouts, aborts and network failures.
 *
 * @example
 * ```ts
 * try { await client.getConfig(); } catch (e) { if (e instanceof FeedbackException) console.log(e.requestId); }
 * ```
 */
export class FeedbackException extends Error {
  /** HTTP status, or undefined when no answer arrived. */
  readonly status: number | undefined;
  /** Machine code from the body's `code` field, or the class's fixed code. */
  readonly code: string | undefined;
  /** `X-Request-Id` of the answer, for support requests. */
  readonly requestId: string | undefined;
  /** Parsed JSON body, when the answer had one. */
  readonly body: unknown;
  /** Raw response text, when an answer arrived. */
  readonly rawBody: string | undefined;
  /** Id of the localized message composers show for this error. */
  readonly messageId: ErrorMessageId = "error.unexpected";

  constructor(message: string, init: FeedbackExceptionInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.body = init.body;
    this.rawBody = init.rawBody;
  }
}

/** 401 (or a 403 naming sign-in): the app does not allow anonymous use of this surface. */
export class AuthenticationRequiredException extends FeedbackException {
  override readonly messageId = "error.authenticationRequired";
}

/** 403 for an intake submission without a valid human-verification token. */
export class VerificationRequiredException extends FeedbackException {
  override readonly messageId = "error.verificationRequired";
}

/** 402: a payment-related refusal. {@link QuotaExceededException} and {@link InactiveSubscriptionException} narrow it. */
export class PaymentRequiredException extends FeedbackException {
  override readonly messageId: ErrorMessageId = "error.paymentRequired";
}

/** 402 `tier_limit_submissions`: the workspace used its monthly submission quota. */
export class QuotaExceededException extends PaymentRequiredException {
  override readonly messageId = "error.quotaExceeded";
}

/** 402 `subscription_inactive`: the workspace subscription is inactive or canceled. */
export class InactiveSubscriptionException extends PaymentRequiredException {
  override readonly messageId = "error.subscriptionInactive";
}

/** 429. `retryAfterMs` is the server's `Retry-After` hint, or null when it sent none. */
export class RateLimitedException extends FeedbackException {
  override readonly messageId = "error.rateLimited";
  readonly retryAfterMs: number | null;
  constructor(message: string, init: FeedbackExceptionInit & { retryAfterMs: number | null }) {
    super(message, init);
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** Any other non-success status (the config endpoint's 404 included), with the raw body. */
export class UnexpectedStatusException extends FeedbackException {
  override readonly status: number;
  constructor(message: string, init: FeedbackExceptionInit & { status: number }) {
    super(message, init);
    this.status = init.status;
  }
}

/**
 * 409 `idempotency_key_in_use`: a request with the same `Idempotency-Key` is still running. Send it
 * again later with the same key and body; it then gets the first request's answer.
 */
export class IdempotencyKeyInUseException extends UnexpectedStatusException {}

/** 422 `idempotency_key_reused`: the `Idempotency-Key` was first sent with a different request; nothing was written. */
export class IdempotencyKeyReusedException extends UnexpectedStatusException {}

/** The request did not complete within its time budget. */
export class RequestTimeoutException extends FeedbackException {
  override readonly messageId = "error.timeout";
  readonly timeoutMs: number;
  constructor(timeoutMs: number) {
    super(`Request timed out after ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/** The caller aborted the request through its `signal`. Its `name` is `AbortError`, as with `fetch`. */
export class AbortError extends FeedbackException {
  override readonly messageId = "error.aborted";
  constructor(cause?: unknown) {
    super("The request was aborted", { cause });
    this.name = "AbortError";
  }
}

/** A 2xx answer whose body could not be read as the expected JSON. */
export class InvalidResponseException extends FeedbackException {
  override readonly messageId = "error.network";
}

/** No answer at all: DNS, connection refused, TLS, CORS, offline. */
export class NetworkException extends InvalidResponseException {}

/** True for a caller abort, whichever layer raised it. */
export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === "AbortError";
}

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

/** Recognises a human-verification refusal by code, or, for servers without codes, by message (wire-contract §4.2). */
function isVerificationRefusal(code: string | undefined, error: string | undefined, rawBody: string): boolean {
  if (code === "verification_required" || (VENDOR_VERIFICATION_CODES as readonly string[]).includes(code ?? "")) return true;
  if (code !== undefined && /turnstile/i.test(code)) return true;
  if (code !== undefined) return false;
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
