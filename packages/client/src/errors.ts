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
