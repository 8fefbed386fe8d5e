/** The verification vendors whose siteverify API Tidings calls. */
export type VendorProvider = "turnstile" | "hcaptcha" | "recaptcha";

/** What a siteverify call needs and what the answer must match. */
export interface VendorCheck {
  /** The provider's siteverify URL (configurable so tests and proxies can stand in). */
  url: string;
  /** The app's verification secret. */
  secret: string;
  /** The token the widget gave the client. */
  token: string;
  /** The submitter's IP; omitted when empty. */
  remoteIp: string;
  /** The app's site key; hCaptcha checks the token was issued for it. */
  siteKey: string | null;
  /** The `action` the widget must have been rendered with (Turnstile, reCAPTCHA v3). */
  action: string;
  /** The Turnstile `cdata` the widget must carry: the app key. */
  cdata: string;
  timeoutMs: number;
}

/** reCAPTCHA v3 scores below this are treated as automated traffic (Google's suggested default). */
export const RECAPTCHA_MIN_SCORE = 0.5;

interface SiteverifyAnswer {
  success?: unknown;
  action?: unknown;
  cdata?: unknown;
  score?: unknown;
}

const present = (value: unknown): value is string => typeof value === "string" && value !== "";

/**
 * Asks the vendor whether `check.token` is a valid, fresh human-verification token. Any doubt
 * (network failure, timeout, non-2xx, unreadable answer, binding mismatch) is a refusal: a
 * verifier that fails open would let bots through whenever the vendor is slow.
 *
 * @example
 * ```ts
 * const ok = await verifyWithVendor("turnstile", { url, secret, token, remoteIp, siteKey: null, action: "feedback", cdata: appKey, timeoutMs: 5000 });
 * ```
 */
export async function verifyWithVendor(provider: VendorProvider, check: VendorCheck): Promise<boolean> {
  const form = new URLSearchParams({ secret: check.secret, response: check.token });
  if (check.remoteIp !== "") form.set("remoteip", check.remoteIp);
  if (provider === "hcaptcha" && check.siteKey !== null) form.set("sitekey", check.siteKey);
  let answer: SiteverifyAnswer;
  try {
    // The timeout signal also covers reading the body, so a vendor that stalls mid-answer is refused too.
    const res = await fetch(check.url, { method: "POST", body: form, signal: AbortSignal.timeout(check.timeoutMs) });
    if (!res.ok) return false;
    answer = (await res.json()) as SiteverifyAnswer;
  } catch {
    return false;
  }
  if (answer === null || typeof answer !== "object" || answer.success !== true) return false;
  // Bindings are checked where the vendor reports them: a token minted for another surface or
  // another app must not be spent here.
  if (present(answer.action) && answer.action !== check.action) return false;
  if (provider === "turnstile" && present(answer.cdata) && answer.cdata !== check.cdata) return false;
  // hCaptcha Enterprise also reports a score, but there higher means riskier: only reCAPTCHA's is read.
  if (provider === "recaptcha" && typeof answer.score === "number" && answer.score < RECAPTCHA_MIN_SCORE) return false;
  return true;
}
