import { describe, expect, it } from "vitest";
import { VENDOR_VERIFICATION_CODES } from "./error-codes.js";
import { errorFromResponse, parseRetryAfterMs } from "./error-responses.js";
import {
  AuthenticationRequiredException,
  FeedbackException,
  IdempotencyKeyInUseException,
  IdempotencyKeyReusedException,
  InactiveSubscriptionException,
  PaymentRequiredException,
  QuotaExceededException,
  RateLimitedException,
  UnexpectedStatusException,
  VerificationRequiredException,
} from "./errors.js";

const body = (error: string, code?: string) => JSON.stringify(code === undefined ? { error } : { error, code });

describe("parseRetryAfterMs", () => {
  const now = Date.parse("2025-01-01T00:00:00Z");
  it("reads delta-seconds", () => {
    expect(parseRetryAfterMs("30", now)).toBe(30_000);
    expect(parseRetryAfterMs(" 0 ", now)).toBe(0);
    expect(parseRetryAfterMs("1.5", now)).toBe(1500);
  });
  it("reads an HTTP date relative to now, never negative", () => {
    expect(parseRetryAfterMs("Wed, 01 Jan 2025 00:01:00 GMT", now)).toBe(60_000);
    expect(parseRetryAfterMs("Tue, 31 Dec 2024 23:00:00 GMT", now)).toBe(0);
  });
  it("is null when absent or unreadable", () => {
    expect(parseRetryAfterMs(null, now)).toBeNull();
    expect(parseRetryAfterMs(undefined, now)).toBeNull();
    expect(parseRetryAfterMs("", now)).toBeNull();
    expect(parseRetryAfterMs("-5", now)).toBeNull();
    expect(parseRetryAfterMs("soon", now)).toBeNull();
  });
});

describe("errorFromResponse", () => {
  it("maps 402 by code to quota, inactive subscription, or the payment base class", () => {
    const quota = errorFromResponse({ status: 402, rawBody: body("Monthly submission quota reached", "tier_limit_submissions") });
    expect(quota).toBeInstanceOf(QuotaExceededException);
    expect(quota).toBeInstanceOf(PaymentRequiredException);
    expect(quota.code).toBe("tier_limit_submissions");
    expect(quota.message).toBe("Monthly submission quota reached");
    const inactive = errorFromResponse({ status: 402, rawBody: body("inactive", "subscription_inactive") });
    expect(inactive).toBeInstanceOf(InactiveSubscriptionException);
    const other = errorFromResponse({ status: 402, rawBody: body("pay up", "tier_limit_import_pro") });
    expect(other.constructor).toBe(PaymentRequiredException);
  });

  it("recognises verification refusals by our code, vendor codes, and Turnstile messages", () => {
    for (const raw of [
      body("Human verification is required", "verification_required"),
      // Every vendor code of the registry, whatever its message.
      ...VENDOR_VERIFICATION_CODES.map((code) => body("x", code)),
      body("Human verification (Turnstile) is required"),
      "Turnstile token missing",
    ]) {
      const error = errorFromResponse({ status: 403, rawBody: raw });
      expect(error, raw).toBeInstanceOf(VerificationRequiredException);
    }
    expect(errorFromResponse({ status: 403, rawBody: body("Turnstile is required") }).code).toBe("verification_required");
  });

  it("leaves other 403s (private app, platform not allowed) as unexpected statuses with their code", () => {
    const error = errorFromResponse({ status: 403, rawBody: body("Public surfaces are disabled for this app", "public_access_disabled") });
    expect(error).toBeInstanceOf(UnexpectedStatusException);
    expect(error.code).toBe("public_access_disabled");
  });

  it("maps 401 and a 403 authentication_required to AuthenticationRequiredException", () => {
    expect(errorFromResponse({ status: 401, rawBody: body("Sign in is required", "authentication_required") })).toBeInstanceOf(
      AuthenticationRequiredException,
    );
    expect(errorFromResponse({ status: 403, rawBody: body("Sign in", "authentication_required") })).toBeInstanceOf(
      AuthenticationRequiredException,
    );
    expect(errorFromResponse({ status: 401, rawBody: "" }).message).toMatch(/Anonymous access/);
    const signature = errorFromResponse({ status: 401, rawBody: body("Invalid signature", "invalid_signature") });
    expect(signature).toBeInstanceOf(UnexpectedStatusException);
    expect(signature.code).toBe("invalid_signature");
  });

  it("asks for sign-in on an expired SSO token or a required identity, and reports a broken SSO integration as such", () => {
    for (const [status, code] of [[401, "sso_token_expired"], [403, "identified_user_required"]] as const) {
      expect(errorFromResponse({ status, rawBody: body("x", code) })).toBeInstanceOf(AuthenticationRequiredException);
    }
    for (const [status, code] of [[401, "invalid_sso_token"], [401, "sso_signature_mismatch"], [401, "sso_token_lifetime_too_long"], [403, "sso_wrong_audience"]] as const) {
      const error = errorFromResponse({ status, rawBody: body("x", code) });
      expect(error).toBeInstanceOf(UnexpectedStatusException);
      expect(error.code).toBe(code);
    }
  });

  it("maps 429 to RateLimitedException with retryAfterMs from Retry-After, or null", () => {
    const limited = errorFromResponse({ status: 429, rawBody: body("Too many searches"), retryAfter: "42" });
    expect(limited).toBeInstanceOf(RateLimitedException);
    expect((limited as RateLimitedException).retryAfterMs).toBe(42_000);
    expect((errorFromResponse({ status: 429, rawBody: "" }) as RateLimitedException).retryAfterMs).toBeNull();
  });

  it("maps the idempotency-key refusals by code, as unexpected statuses a caller can still catch broadly", () => {
    const inUse = errorFromResponse({ status: 409, rawBody: body("Still running", "idempotency_key_in_use") });
    expect(inUse).toBeInstanceOf(IdempotencyKeyInUseException);
    expect(inUse).toBeInstanceOf(UnexpectedStatusException);
    expect([inUse.status, inUse.code, inUse.message, inUse.name]).toEqual([409, "idempotency_key_in_use", "Still running", "IdempotencyKeyInUseException"]);
    const reused = errorFromResponse({ status: 422, rawBody: body("Reused", "idempotency_key_reused") });
    expect(reused).toBeInstanceOf(IdempotencyKeyReusedException);
    expect(reused.status).toBe(422);
    expect(errorFromResponse({ status: 409, rawBody: body("Conflict", "write_conflict") }).constructor).toBe(UnexpectedStatusException);
  });

  it("keeps status, raw body and request id of the config 404", () => {
    const raw = '{"error":"App not found"}';
    const error = errorFromResponse({ status: 404, rawBody: raw, requestId: "req-12345678" });
    expect(error).toBeInstanceOf(UnexpectedStatusException);
    expect(error).toBeInstanceOf(FeedbackException);
    expect(error.status).toBe(404);
    expect(error.rawBody).toBe(raw);
    expect(error.body).toEqual({ error: "App not found" });
    expect(error.code).toBeUndefined();
    expect(error.requestId).toBe("req-12345678");
    expect(error.message).toBe("App not found");
  });

  it("never puts a non-JSON body into the message", () => {
    const error = errorFromResponse({ status: 500, rawBody: "<html>secret stack</html>" });
    expect(error.message).toBe("Unexpected HTTP status 500");
    expect(error.rawBody).toBe("<html>secret stack</html>");
  });

  it("names errors after their class", () => {
    expect(errorFromResponse({ status: 402, rawBody: body("x", "subscription_inactive") }).name).toBe("InactiveSubscriptionException");
  });
});
