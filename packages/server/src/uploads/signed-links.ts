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

/**
 * Who a link is for. A `public` link (upload answers, handed to the end user) stops working when
 * its app turns private; a `console` link (the inbox's attachment links) keeps working for the
 * team. Both stop when the upload, its feedback or its app is gone.
 */
export type LinkAudience = "public" | "console";

/** The query parameter that marks a console link. */
export const CONSOLE_LINK_PARAM = "for=console";

function signature(secret: string, uploadId: string, expires: number, audience: LinkAudience): string {
  // Public links keep the original message, so links handed out before audiences existed still verify.
  const message = audience === "public" ? `download:${uploadId}:${expires}` : `download-${audience}:${uploadId}:${expires}`;
  return createHmac("sha256", secret).update(message).digest("hex");
}

/**
 * A link to the stored file of `uploadId` for `audience`, valid for {@link DOWNLOAD_LINK_TTL_MS}:
 * absolute on `PUBLIC_URL` when set, else a path on this server. The download route checks the
 * upload, its feedback and its app again on every request.
 *
 * @example
 * ```ts
 * await downloadUrl(ctx, "upl_0123…"); // "/api/v1/files/upl_0123…?expires=1767229200&sig=9f…"
 * await downloadUrl(ctx, "upl_0123…", "console"); // "…&sig=4c…&for=console"
 * ```
 */
export async function downloadUrl(ctx: Pick<Context, "db" | "clock" | "config">, uploadId: string, audience: LinkAudience = "public"): Promise<string> {
  const expires = Math.floor((ctx.clock.now().getTime() + DOWNLOAD_LINK_TTL_MS) / 1000);
  const sig = signature(await downloadLinkSecret(ctx), uploadId, expires, audience);
  const marker = audience === "console" ? `&${CONSOLE_LINK_PARAM}` : "";
  return `${ctx.config.publicUrl ?? ""}/api/v1/files/${uploadId}?expires=${expires}&sig=${sig}${marker}`;
}

/** True when `sig` signs (`uploadId`, `expires`, `audience`) and `expires` (Unix seconds) has not passed. */
export async function verifyDownloadLink(
  ctx: Pick<Context, "db" | "clock">,
  uploadId: string,
  expires: number,
  sig: string,
  audience: LinkAudience = "public",
): Promise<boolean> {
  if (!/^[0-9a-f]{64}$/.test(sig) || !Number.isSafeInteger(expires)) return false;
  const expected = Buffer.from(signature(await downloadLinkSecret(ctx), uploadId, expires, audience), "hex");
  if (!timingSafeEqual(expected, Buffer.from(sig, "hex"))) return false;
  return expires * 1000 > ctx.clock.now().getTime();
}
