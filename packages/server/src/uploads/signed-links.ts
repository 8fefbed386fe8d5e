import { createHmac, timingSafeEqual } from "node:crypto";
import type { Context } from "../context.js";
import { instanceSecret } from "../instance-secrets.js";

/** How long a download link works. */
export const DOWNLOAD_LINK_TTL_MS = 60 * 60_000;


/**
 * The instance's download-link secret: made once, kept in `server_settings`, so links survive
 * restarts and every instance on the database signs alike. Read once per database handle.
 */
export function downloadLinkSecret(ctx: Pick<Context, "db" | "clock">): Promise<string> {
  return instanceSecret(ctx, "download_link_secret");
}

function signature(secret: string, uploadId: string, expires: number): string {
  return createHmac("sha256", secret).update(`download:${uploadId}:${expires}`).digest("hex");
}

/**
 * A link to the stored file of `uploadId`, valid for {@link DOWNLOAD_LINK_TTL_MS}: absolute on
 * `PUBLIC_URL` when set, else a path on this server.
 *
 * @example
 * ```ts
 * await downloadUrl(ctx, "upl_0123…"); // "/api/v1/files/upl_0123…?expires=1767229200&sig=9f…"
 * ```
 */
export async function downloadUrl(ctx: Pick<Context, "db" | "clock" | "config">, uploadId: string): Promise<string> {
  const expires = Math.floor((ctx.clock.now().getTime() + DOWNLOAD_LINK_TTL_MS) / 1000);
  const sig = signature(await downloadLinkSecret(ctx), uploadId, expires);
  return `${ctx.config.publicUrl ?? ""}/api/v1/files/${uploadId}?expires=${expires}&sig=${sig}`;
}

/** True when `sig` signs (`uploadId`, `expires`) and `expires` (Unix seconds) has not passed. */
export async function verifyDownloadLink(
  ctx: Pick<Context, "db" | "clock">,
  uploadId: string,
  expires: number,
  sig: string,
): Promise<boolean> {
  if (!/^[0-9a-f]{64}$/.test(sig) || !Number.isSafeInteger(expires)) return false;
  const expected = Buffer.from(signature(await downloadLinkSecret(ctx), uploadId, expires), "hex");
  if (!timingSafeEqual(expected, Buffer.from(sig, "hex"))) return false;
  return expires * 1000 > ctx.clock.now().getTime();
}
