import { createHmac } from "node:crypto";
import type { Kysely } from "kysely";
import type { Context } from "../context.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { instanceSecret } from "../instance-secrets.js";
import { sameSecret } from "./auth.js";

/** Crockford's base32 in lower case: no i, l, o or u, so a retyped code is not misread. */
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/** True while first-run setup is open: no console user has a password yet. */
export async function setupRequired(db: Kysely<Database>): Promise<boolean> {
  const withPassword = await db.selectFrom("consoleUsers").select("id").where("passwordHash", "is not", null).limit(1).executeTakeFirst();
  return withPassword === undefined;
}

/**
 * The one-time code first-run setup asks for: `TIDINGS_SETUP_CODE` when set, else a code derived
 * from a secret kept in the database, so every instance on that database accepts the same code
 * whichever one printed it. 20 characters (100 bits), in groups of five.
 *
 * @example
 * ```ts
 * const code = await setupCode(ctx); // "k7r2m-…"
 * ```
 */
export async function setupCode(ctx: Pick<Context, "db" | "clock" | "config">): Promise<string> {
  if (ctx.config.setupCode !== null) return ctx.config.setupCode;
  const secret = await instanceSecret(ctx, "console_setup_secret");
  const digest = createHmac("sha256", secret).update("tidings first-run setup code").digest();
  // 256 is a multiple of 32, so each byte picks a character without bias.
  const chars = [...digest.subarray(0, 20)].map((byte) => ALPHABET[byte % 32]);
  return [0, 5, 10, 15].map((at) => chars.slice(at, at + 5).join("")).join("-");
}

/** Throws 403 `invalid_setup_code` unless `sent` is the setup code (compared in constant time). */
export async function requireSetupCode(ctx: Pick<Context, "db" | "clock" | "config">, sent: string | undefined): Promise<void> {
  const expected = await setupCode(ctx);
  if (sent === undefined || !sameSecret(sent.trim(), expected)) throw new ApiError("invalid_setup_code");
}

/**
 * The dashboard link that opens first-run setup with `code` filled in.
 *
 * @example
 * ```ts
 * setupLink("http://localhost:8787", code); // "http://localhost:8787/admin/?setup=k7r2m-…"
 * ```
 */
export function setupLink(base: string, code: string): string {
  return `${base}/admin/?setup=${encodeURIComponent(code)}`;
}
