import http from "node:http";
import https from "node:https";
import net from "node:net";
import { addressAllowed, guardedLookup, parseWebhookUrl, RefusedAddressError, urlHost, type WebhookAllowList } from "./address-guard.js";

/** How a delivery attempt ended. */
export type AttemptOutcome = "success" | "http_error" | "network_error" | "timeout" | "refused";

/** What one attempt learnt: the final status and the first bytes of the answer. */
export interface SendResult {
  outcome: AttemptOutcome;
  statusCode: number | null;
  latencyMs: number;
  /** The start of the answer's body (or the error), at most {@link EXCERPT_CHARS} characters. */
  excerpt: string;
}

/** How long a receiver has for one attempt, redirects included. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Redirects followed (each re-checked) before giving up. */
export const MAX_REDIRECTS = 3;
/** Bytes of an answer read; the rest is never downloaded. */
const MAX_ANSWER_BYTES = 8 * 1024;
const EXCERPT_CHARS = 1024;

export interface SendOptions {
  allow: WebhookAllowList;
  /** @default WEBHOOK_TIMEOUT_MS */
  timeoutMs?: number;
}

interface Answer {
  status: number;
  location: string | undefined;
  body: string;
}

function postOnce(url: URL, headers: Record<string, string>, body: string, allow: WebhookAllowList, signal: AbortSignal): Promise<Answer> {
  const host = urlHost(url);
  // A literal address is never looked up, so it is judged here instead.
  if (net.isIP(host) !== 0 && !allow.hosts.has(host) && !addressAllowed(host, allow)) {
    return Promise.reject(new RefusedAddressError(`${host} is a private, loopback, link-local or reserved address`));
  }
  const request = url.protocol === "https:" ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
        lookup: guardedLookup(allow),
        signal,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = () => {
          res.destroy();
          resolve({ status: res.statusCode ?? 0, location: res.headers.location, body: Buffer.concat(chunks).toString("utf8") });
        };
        res.on("data", (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= MAX_ANSWER_BYTES) finish();
        });
        res.on("end", finish);
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * POSTs a webhook body: every hop's address is checked as it is connected to, redirects are
 * followed by hand (at most {@link MAX_REDIRECTS}, each URL re-checked), the whole attempt has
 * `timeoutMs`, and at most 8 KiB of the answer is read. Never throws: failures are outcomes.
 *
 * @example
 * ```ts
 * const result = await postWebhook("https://hooks.example.com/in", { "content-type": "application/json" }, body, { allow });
 * ```
 */
export async function postWebhook(target: string, headers: Record<string, string>, body: string, options: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), options.timeoutMs ?? WEBHOOK_TIMEOUT_MS);
  const result = (outcome: AttemptOutcome, statusCode: number | null, text: string): SendResult => ({
    outcome,
    statusCode,
    latencyMs: Math.round(performance.now() - started),
    excerpt: text.slice(0, EXCERPT_CHARS),
  });
  // The redirect being followed, so a refusal or failure on its hop names it.
  let redirect: { status: number; location: string } | undefined;
  try {
    let url = parseWebhookUrl(target);
    for (let hop = 0; ; hop++) {
      const answer = await postOnce(url, headers, body, options.allow, timeout.signal);
      const isRedirect = answer.status >= 300 && answer.status < 400 && answer.location !== undefined;
      if (!isRedirect) return result(answer.status >= 200 && answer.status < 300 ? "success" : "http_error", answer.status, answer.body);
      if (hop >= MAX_REDIRECTS) return result("http_error", answer.status, `Too many redirects (last to ${answer.location})`);
      redirect = { status: answer.status, location: answer.location! };
      url = parseWebhookUrl(new URL(answer.location!, url).toString());
    }
  } catch (error) {
    const status = redirect?.status ?? null;
    const prefix = redirect === undefined ? "" : `Redirect to ${redirect.location}: `;
    if (error instanceof RefusedAddressError) return result("refused", status, prefix + error.reason);
    if (timeout.signal.aborted) return result("timeout", status, `${prefix}No answer within ${(options.timeoutMs ?? WEBHOOK_TIMEOUT_MS) / 1000} s`);
    return result("network_error", status, prefix + (error instanceof Error ? error.message : String(error)));
  } finally {
    clearTimeout(timer);
  }
}
