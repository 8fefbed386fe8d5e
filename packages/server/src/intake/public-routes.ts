import { AltchaChallengeQuerySchema, AltchaChallengeSchema, ErrorBodySchema } from "@tidings/protocol";
import Type from "typebox";
import { requirePublicApp } from "../apps/public-app.js";
import type { Context } from "../context.js";
import type { App } from "../http/types.js";
import { createAltchaChallenge } from "./altcha.js";

/** `GET /api/v1/public/apps/:appKey/verification/challenge`: a fresh built-in altcha challenge. */
export function intakePublicRoutes(app: App, ctx: Context): void {
  app.get(
    "/api/v1/public/apps/:appKey/verification/challenge",
    {
      schema: {
        tags: ["public"],
        summary: "A built-in (altcha) human-verification challenge",
        description:
          "Solve it and send `base64(JSON.stringify({challenge, solution}))` as the verification token of one " +
          "intake submission. Valid for 10 minutes, once. Used when the app's provider is `altcha`, and in " +
          "production for apps without a provider. `solver=js` asks for the lighter challenge meant for clients " +
          "without Web Crypto (React Native on Hermes), which derive PBKDF2 in plain JavaScript.",
        params: Type.Object({ appKey: Type.String() }),
        querystring: AltchaChallengeQuerySchema,
        response: { 200: AltchaChallengeSchema, 400: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema },
      },
    },
    async (request, reply) => {
      const { app: appRow } = await requirePublicApp(ctx, request.params.appKey);
      // Every challenge is single-use: no cache may hand the same one to two clients.
      void reply.header("Cache-Control", "no-store");
      return createAltchaChallenge(ctx, appRow, request.query.solver);
    },
  );
}
