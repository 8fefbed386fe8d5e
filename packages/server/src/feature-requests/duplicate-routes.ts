import {
  DismissDuplicateBodySchema,
  DismissDuplicateResultSchema,
  DuplicateListQuerySchema,
  DuplicateListSchema,
  MergeDuplicateBodySchema,
  MergeFeatureRequestResultSchema,
} from "@tidings/protocol";
import type { FastifyRequest } from "fastify";
import { AppParams } from "../apps/console-routes.js";
import { findAppInWorkspace } from "../apps/apps.js";
import { actorOf, principalOf, workspaceAccess } from "../console/auth.js";
import { requireCapability } from "../console/capabilities.js";
import { appTag, type Context } from "../context.js";
import type { App } from "../http/types.js";
import { getAdminFeatureRequest } from "./admin-records.js";
import { dismissPair, mergePair } from "./duplicate-actions.js";
import { DUPLICATE_WINDOW, listDuplicatePairs, MIN_SCORE, PAGE_WALK, PAIRS_PER_REQUEST } from "./duplicates.js";
import type { Triage } from "./triage.js";

const tags = ["console: feature requests"];

/**
 * The duplicates queue of an app: likely duplicate pairs, newest first, to merge or to mark "not
 * a duplicate". Reading needs membership; both actions need `triage` and run in one transaction.
 */
export function duplicateConsoleRoutes(app: App, ctx: Context): void {
  const db = ctx.db.kysely;

  /** Checks access, `triage` and the app, then runs `work` in one transaction. */
  const command = async <T>(request: FastifyRequest, params: { wsId: string; appId: string }, work: (t: Triage, appId: string) => Promise<T>): Promise<T> => {
    const { wsId, appId } = params;
    const { role } = await workspaceAccess(ctx, request, wsId);
    requireCapability(role, "triage");
    const actor = actorOf(principalOf(request));
    return db.transaction().execute(async (trx) => {
      const appRow = await findAppInWorkspace(trx, wsId, appId);
      return work({ trx, clock: ctx.clock, dialect: ctx.db.dialect, workspaceId: wsId, actor }, appRow.id);
    });
  };

  app.get(
    "/workspaces/:wsId/apps/:appId/duplicates",
    {
      schema: {
        tags,
        summary: "Likely duplicate pairs of an app's requests, newest first",
        description:
          `Pairs of open requests (not merged, not declined; every board) whose titles share most of their words, each listed once under its newer request, newest first, then most alike. ` +
          `Bounded whatever the app's size: the ${DUPLICATE_WINDOW} newest open requests are examined, at most ${PAGE_WALK} per page, each against the 200 open requests before it and the older public requests the search index finds for its title, keeping its ${PAIRS_PER_REQUEST} best pairs scoring at least ${MIN_SCORE}. ` +
          "A page may hold fewer pairs than `limit` and still have a `nextCursor`. Pairs marked not a duplicate never come back.",
        params: AppParams,
        querystring: DuplicateListQuerySchema,
        response: { 200: DuplicateListSchema },
      },
    },
    async (request) => {
      const { wsId, appId } = request.params;
      await workspaceAccess(ctx, request, wsId);
      const appRow = await findAppInWorkspace(db, wsId, appId);
      return listDuplicatePairs(db, ctx.db.dialect, { appId: appRow.id, limit: request.query.limit ?? 20, cursor: request.query.cursor });
    },
  );

  app.post(
    "/workspaces/:wsId/apps/:appId/duplicates/dismiss",
    {
      schema: {
        tags,
        summary: "Mark a pair as not a duplicate",
        description:
          "The pair never shows in the queue again (idempotent: marking it again answers the first `dismissedAt`). `400 duplicate_pair_same_request` for one id twice, `400 duplicate_pair_other_app` for a request of another app, `404 feature_request_not_found` for an unknown one; nothing is written then.",
        params: AppParams,
        body: DismissDuplicateBodySchema,
        response: { 200: DismissDuplicateResultSchema },
      },
    },
    async (request) => {
      const [first = "", second = ""] = request.body.requestIds;
      return command(request, request.params, (t, appId) => dismissPair(t, appId, [first, second]));
    },
  );

  app.post(
    "/workspaces/:wsId/apps/:appId/duplicates/merge",
    {
      schema: {
        tags,
        summary: "Merge one request of a pair into the other",
        description:
          "The console's merge: `intoId` stays and receives the duplicate's votes (once per end user), comments and followers; the duplicate keeps `mergedIntoId` and leaves the queue and the public pages. `400 duplicate_pair_same_request`, `400 duplicate_pair_other_app`, `404 feature_request_not_found`, `409 request_already_merged`; nothing is written then.",
        params: AppParams,
        body: MergeDuplicateBodySchema,
        response: { 200: MergeFeatureRequestResultSchema },
      },
    },
    async (request) => {
      const { wsId } = request.params;
      const { duplicateId, intoId } = request.body;
      const { appId } = await command(request, request.params, (t, appId) => mergePair(t, appId, duplicateId, intoId));
      await ctx.cache.invalidateTag(appTag(appId));
      const [duplicate, target] = await Promise.all([getAdminFeatureRequest(db, wsId, duplicateId), getAdminFeatureRequest(db, wsId, intoId)]);
      return { duplicate, target };
    },
  );
}
