import type { VerificationProvider } from "@tidings/protocol";
import type { Selectable } from "kysely";
import type { AppsTable } from "../db/schema.js";

/**
 * The provider that must vouch for an intake submission to `app`, or null when none must.
 * Production enforces verification: an app left on `none` gets the built-in altcha unless exempt.
 * An app setting read by its public configuration and by intake alike, so it lives with the app.
 *
 * @example
 * ```ts
 * requiredProvider(app, ctx.config.production); // "turnstile" | "altcha" | … | null
 * ```
 */
export function requiredProvider(
  app: Pick<Selectable<AppsTable>, "verificationExempt" | "verificationProvider">,
  production: boolean,
): VerificationProvider | null {
  if (app.verificationExempt === 1) return null;
  const provider = app.verificationProvider as VerificationProvider;
  if (provider !== "none") return provider;
  return production ? "altcha" : null;
}
