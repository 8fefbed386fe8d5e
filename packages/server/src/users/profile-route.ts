import { ErrorBodySchema, UserProfileSchema } from "@tidings/protocol";
import type { FastifyRequest } from "fastify";
import Type from "typebox";
import type { Context } from "../context.js";
import type { App } from "../http/types.js";
import { enforceRateLimit } from "../rate-limit/enforce.js";
import { loadProfile } from "./profile.js";

const tags = ["public: users"];
const PROFILE_NOT_FOUND = JSON.stringify({ error: "User profile not found" });
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 422: ErrorBodySchema, 429: ErrorBodySchema };

/** The app key a profile read names: `appKey` in the query, else `X-App-Key`; blank is none. */
function appKeyOf(request: FastifyRequest, queryKey: string | undefined): string | undefined {
  const header = request.headers["x-app-key"];
  for (const candidate of [queryKey, typeof header === "string" ? header : undefined]) {
    const key = candidate?.trim();
    if (key !== undefined && key !== "") return key;
  }
  return undefined;
}

/** `GET /api/v1/users/<id>/profile`, on the `user` budget it shares with `PUT …/user`. */
export function userProfileRoute(app: App, ctx: Context): void {
  app.get(
    "/api/v1/users/:userId/profile",
    {
      schema: {
        tags,
        summary: "Public profile of an end user (`u_…`) or a team member (`usr_…`)", readsHeaders: ["X-App-Key"],
        description:
          "No app key needed; an `appKey` (query, or `X-App-Key`) that is sent must be the end user's app. Unknown ids, users of private apps and a mismatched key all answer the same 404.",
        params: Type.Object({ userId: Type.String({ maxLength: 128 }) }),
        querystring: Type.Object({ appKey: Type.Optional(Type.String({ maxLength: 128 })) }),
        response: { 200: UserProfileSchema, ...errors },
      },
    },
    async (request, reply) => {
      await enforceRateLimit(ctx, request, "user");
      const profile = await loadProfile(ctx, request.params.userId, appKeyOf(request, request.query.appKey));
      // Exactly the production body (no code), as the SDKs compare it.
      if (profile === undefined) return reply.code(404).type("application/json; charset=utf-8").send(PROFILE_NOT_FOUND as never);
      return profile;
    },
  );
}
