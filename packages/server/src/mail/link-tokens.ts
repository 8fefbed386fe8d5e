import { createHmac, timingSafeEqual } from "node:crypto";
import type { Context } from "../context.js";
import { instanceSecret } from "../instance-secrets.js";

/** What a link token is for; the purpose is signed, so one kind is never accepted as another. */
export type LinkPurpose = "confirm" | "unsubscribe" | "preferences";

/** A signed token's content: the subscription, an optional single-use nonce, expiry in ms. */
export interface LinkPayload {
  s: string;
  n?: string;
  exp: number;
}


/** The instance's mail-link secret, made once and kept in `server_settings` (links survive restarts). */
export function mailLinkSecret(ctx: Pick<Context, "db" | "clock">): Promise<string> {
  return instanceSecret(ctx, "mail_link_secret");
}

function mac(secret: string, purpose: LinkPurpose, body: string): Buffer {
  return createHmac("sha256", secret).update(`tidings.${purpose}.v1.${body}`).digest();
}

/**
 * `base64url(json).base64url(hmac)`.
 *
 * @example
 * ```ts
 * signLinkToken(secret, "unsubscribe", { s: "sub_…", exp: Date.now() + 90 * 86_400_000 });
 * ```
 */
export function signLinkToken(secret: string, purpose: LinkPurpose, payload: LinkPayload): string {
  const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
  return `${body}.${mac(secret, purpose, body).toString("base64url")}`;
}

/** The payload of an authentic token of `purpose`, whatever its expiry; undefined for anything else. */
export function readLinkToken(secret: string, purpose: LinkPurpose, token: string): LinkPayload | undefined {
  const match = /^([A-Za-z0-9_-]{1,1000})\.([A-Za-z0-9_-]{43})$/.exec(token.trim());
  if (match === null) return undefined;
  const [, body, sig] = match as unknown as [string, string, string];
  const given = Buffer.from(sig, "base64url");
  const expected = mac(secret, purpose, body);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Partial<LinkPayload>;
    if (typeof payload.s !== "string" || typeof payload.exp !== "number") return undefined;
    return { s: payload.s, exp: payload.exp, ...(typeof payload.n === "string" ? { n: payload.n } : {}) };
  } catch {
    return undefined;
  }
}
