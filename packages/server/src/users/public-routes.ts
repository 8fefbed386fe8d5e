import { ErrorBodySchema, UserAttributesBodySchema, UserAttributesResultSchema } from "@tidings/protocol";
import type { FastifyRequest } from "fastify";
import Type from "typebox";
import { requirePublicApp } from "../apps/public-app.js";
import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import type { App } from "../http/types.js";
import { enforceRateLimit } from "../rate-limit/enforce.js";
import { malformedBodyField, parseCompanyReport, reportedCurrency } from "../companies/company-report.js";
import { SIGNATURE_MAX_SKEW_SECONDS, signatureMatches } from "./attribute-signature.js";
import { writeAttributes } from "./attributes.js";
import { resolveIdentity } from "./identity.js";
import { userProfileRoute } from "./profile-route.js";

const tags = ["public: users"];
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 422: ErrorBodySchema, 429: ErrorBodySchema };

/** The body token when present and non-empty, else `X-User-Token` (§5 line 3). */
function resolvedToken(request: FastifyRequest, bodyToken: string | undefined): string | undefined {
  const fromBody = bodyToken?.trim();
  if (fromBody !== undefined && fromBody !== "") return fromBody;
  const header = request.headers["x-user-token"];
  return typeof header === "string" ? header.trim() : undefined;
}

/** `PUT …/user` (signed attributes) and `GET /api/v1/users/<id>/profile`, both on the `user` budget. */
export function userPublicRoutes(app: App, ctx: Context): void {
  app.put(
    "/api/v1/public/apps/:appKey/user",
    {
      schema: {
        tags,
        summary: "Report the end user's attributes (isPaying, plan, mrr and company signed; currency alone unsigned)", readsHeaders: ["X-User-Token"],
        description:
          "`isPaying`, `plan` and `mrr` are signed with cpt-user-attrs-v1; a body with `company` (null: the user leaves their company) with cpt-user-attrs-v2 (docs/identifying-users.md). A company's `mrr` must be finite and 0–1,000,000,000 (`invalid_mrr`), currencies ISO 4217 codes (`unknown_currency`), its `attributes` at most 50 keys and 8 KB (`company_attributes_too_large`).",
        params: Type.Object({ appKey: Type.String({ maxLength: 128 }) }),
        body: UserAttributesBodySchema,
        response: { 200: UserAttributesResultSchema, ...errors },
      },
      // The budget is spent before the body is read, so malformed floods are limited too. A
      // company's values are checked before the schema, so that a negative or infinite MRR is
      // `invalid_mrr` here as in an SSO claim, not the schema's generic refusal.
      preValidation: async (request) => {
        await enforceRateLimit(ctx, request, "user");
        const raw: unknown = request.body;
        if (typeof raw === "object" && raw !== null && "company" in raw && raw.company !== undefined && raw.company !== null) {
          parseCompanyReport(raw.company, malformedBodyField);
        }
      },
    },
    async (request) => {
      const body = request.body;
      const { app: appRow } = await requirePublicApp(ctx, request.params.appKey);
      const token = resolvedToken(request, body.userToken);
      if (token === undefined) throw new ApiError("user_token_required");
      resolveIdentity({ "x-user-token": token }, appRow.signingSecret);

      // Bad values are refused before the signature is looked at, and before anything is written.
      const currency = body.currency === undefined ? undefined : reportedCurrency(body.currency);
      const company = body.company === undefined || body.company === null ? body.company : parseCompanyReport(body.company, malformedBodyField);
      const needsSignature = body.isPaying !== undefined || body.plan !== undefined || body.mrr !== undefined || body.company !== undefined;
      if (needsSignature && (body.signature === undefined || body.timestamp === undefined)) {
        throw new ApiError("payment_attributes_require_signature");
      }
      // Nothing is minted or written before a signature that came verifies.
      if (body.signature !== undefined || body.timestamp !== undefined) {
        if (body.signature === undefined || body.timestamp === undefined) throw new ApiError("invalid_signature");
        const nowSeconds = Math.floor(ctx.clock.now().getTime() / 1000);
        if (Math.abs(nowSeconds - body.timestamp) > SIGNATURE_MAX_SKEW_SECONDS) throw new ApiError("stale_signature");
        const signed = {
          appKey: appRow.appKey,
          userToken: token,
          isPaying: body.isPaying,
          plan: body.plan,
          mrr: body.mrr,
          currency: body.currency,
          company: body.company,
          timestamp: body.timestamp,
        };
        if (!signatureMatches(appRow.signingSecret, signed, body.signature)) throw new ApiError("invalid_signature");
      }
      const { updatedAt } = await ctx.db.kysely
        .transaction()
        .execute((trx) =>
          writeAttributes(trx, ctx.clock, appRow.id, token, {
            isPaying: body.isPaying,
            plan: body.plan,
            mrr: body.mrr,
            currency,
            // A company is only ever written with a verified signature, so the timestamp is there.
            company: company === undefined || body.timestamp === undefined ? undefined : { report: company, reportedAt: body.timestamp },
          }),
        );
      return { ok: true, updatedAt };
    },
  );

  userProfileRoute(app, ctx);
}
