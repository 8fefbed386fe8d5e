import Type, { type Static } from "typebox";
import { StringEnum } from "./common.js";
import { PLANS, SUBSCRIPTION_STATUSES } from "./console.js";

/**
 * `GET /api/v1/public/apps/<APP_KEY>/verification/challenge` answer: an altcha (proof-of-work v2)
 * challenge, signed by the server. Solve it (altcha widget or altcha-lib's `solveChallenge`) and
 * send `base64(JSON.stringify({challenge, solution}))` as the intake verification token.
 *
 * @example
 * ```ts
 * const challenge: AltchaChallenge = await (await fetch(url)).json();
 * ```
 */
export const AltchaChallengeSchema = Type.Object({
  parameters: Type.Object({
    algorithm: Type.String({ description: "Key derivation, e.g. PBKDF2/SHA-256" }),
    nonce: Type.String(),
    salt: Type.String(),
    cost: Type.Integer(),
    keyLength: Type.Integer(),
    keyPrefix: Type.String(),
    keySignature: Type.Optional(Type.String()),
    expiresAt: Type.Integer({ description: "Unix seconds after which a solution is refused" }),
    data: Type.Object({ appKey: Type.String() }),
  }),
  signature: Type.String(),
});
export type AltchaChallenge = Static<typeof AltchaChallengeSchema>;

/** Query of `GET /api/v1/public/apps/<APP_KEY>/verification/challenge`. */
export const AltchaChallengeQuerySchema = Type.Object({
  solver: Type.Optional(
    Type.Literal("js", { description: "The client derives PBKDF2 in plain JavaScript (no Web Crypto): serve the lighter challenge (ALTCHA_JS_COST, ALTCHA_JS_MAX_COUNTER)." }),
  ),
});

/** `GET /api/v1/console/workspaces/<wsId>/usage` answer: intake use in the current UTC month. */
export const WorkspaceUsageSchema = Type.Object({
  /** UTC calendar month, `YYYY-MM`. */
  month: Type.String({ pattern: "^\\d{4}-\\d{2}$" }),
  submissions: Type.Integer(),
  /** Monthly submission quota; null means unlimited. */
  quota: Type.Union([Type.Integer(), Type.Null()]),
  plan: StringEnum(PLANS),
  subscriptionStatus: StringEnum(SUBSCRIPTION_STATUSES),
});
export type WorkspaceUsage = Static<typeof WorkspaceUsageSchema>;
