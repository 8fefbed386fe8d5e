import { IdParam, VoteOnBehalfBodySchema, VoteOnBehalfResultSchema } from "@tidings/protocol";
import Type from "typebox";
import { principalOf, workspaceAccess } from "../console/auth.js";
import { requireCapability } from "../console/capabilities.js";
import { appTag, type Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import type { App } from "../http/types.js";
import { voteOnBehalf, type OnBehalfOf } from "./votes-on-behalf.js";

const RequestParams = Type.Object({ wsId: IdParam("ws"), id: IdParam("fr") });
const tags = ["console: feature requests"];

/** `POST W/feature-requests/:id/votes`: the team votes on a customer's behalf. Needs `triage`. */
export function voteOnBehalfConsoleRoutes(app: App, ctx: Context): void {
  app.post(
    "/workspaces/:wsId/feature-requests/:id/votes",
    {
      schema: {
        tags,
        summary: "Vote on a customer's behalf",
        description:
          "Name exactly one of `endUserId` (public id), `email` (the address an end user's SSO token carried) or `companyId` (the vote is one of its users': the one who voted already, else its earliest known user; a vote is always a person's, as in Canny). " +
          "The vote counts like any, shows in the voters list as `addedByTeam` with the `note`, and is idempotent (`added: false` when the customer voted already; their vote stays as it was). " +
          "The customer follows the request: at once by their SSO address, after a confirmation mail by the address they typed on their feedback, never again once they stopped following it. " +
          "An unknown user or email is 404 `end_user_not_found` naming it; nothing is written.",
        params: RequestParams,
        body: VoteOnBehalfBodySchema,
        response: { 200: VoteOnBehalfResultSchema },
      },
    },
    async (request) => {
      const { wsId, id } = request.params;
      const { role } = await workspaceAccess(ctx, request, wsId);
      requireCapability(role, "triage");
      const { endUserId, email, companyId, note } = request.body;
      const named: OnBehalfOf[] = [
        ...(endUserId === undefined ? [] : [{ endUserId }]),
        ...(email === undefined ? [] : [{ email }]),
        ...(companyId === undefined ? [] : [{ companyId }]),
      ];
      if (named.length !== 1) throw new ApiError("validation_failed", { details: { formErrors: ["Name exactly one of endUserId, email or companyId"], fieldErrors: {} } });
      const principal = principalOf(request);
      const addedBy = principal.kind === "admin" ? "admin" : principal.userId;
      const { appId, ...result } = await voteOnBehalf(ctx, wsId, id, named[0]!, { addedBy, note: note?.trim() || null });
      if (result.added) await ctx.cache.invalidateTag(appTag(appId));
      return result;
    },
  );
}
