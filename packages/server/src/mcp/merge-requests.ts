import { requireCapability } from "../console/capabilities.js";
import { appTag } from "../context.js";
import { getAdminFeatureRequest } from "../feature-requests/admin-records.js";
import { mergeRequests } from "../feature-requests/request-merge.js";
import { findRequestInWorkspace } from "../feature-requests/triage.js";
import { ApiError } from "../http/errors.js";
import { workspaceLinks } from "./links.js";
import { requestShape } from "./request-shape.js";
import { inField } from "./tool-answers.js";
import { idOf } from "./tool-inputs.js";
import { defineTool } from "./tool.js";

/** The triage rule's refusal about `id` (the console API's path) is about `duplicateId` here. */
async function asDuplicateField<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    const details = error instanceof ApiError ? (error.options.details as { fieldErrors?: Record<string, string[]> } | undefined) : undefined;
    const about = details?.fieldErrors?.id;
    if (error instanceof ApiError && about !== undefined) {
      throw new ApiError(error.code, { message: error.message, details: { formErrors: [], fieldErrors: { duplicateId: about } } });
    }
    throw error;
  }
}

/**
 * Merges a duplicate into another request of the same app with the console's own rule: votes move
 * (once per voter), comments move, the duplicate disappears from the portal. Merging again what is
 * already merged into the same request changes nothing and says so, so a retried call writes once.
 */
export const mergeRequestsTool = defineTool({
  name: "merge_requests",
  title: "Merge a duplicate request",
  description:
    "Merges the feature request `duplicateId` into `intoId` (both of one app): its votes move over (a voter of both counts once), its comments move, " +
    "and the duplicate disappears from the portal, keeping `mergedIntoId`. Refused for a request merged elsewhere already, a target that is itself merged, or requests of different apps. " +
    "Calling it again for a pair already merged changes nothing (`alreadyMerged: true`).",
  writes: true,
  idempotent: true,
  input: {
    duplicateId: idOf("fr").describe("The duplicate, which disappears"),
    intoId: idOf("fr").describe("The request that keeps the votes and comments"),
  },
  async run({ ctx, access }, input) {
    requireCapability(access.role, "triage");
    const db = ctx.db.kysely;
    const ws = access.workspaceId;
    const { merged, appId } = await db.transaction().execute(async (trx) => {
      const duplicate = await inField("duplicateId", findRequestInWorkspace(trx, ws, input.duplicateId));
      await inField("intoId", findRequestInWorkspace(trx, ws, input.intoId));
      if (duplicate.mergedIntoId === input.intoId) return { merged: false, appId: duplicate.appId };
      const t = { trx, clock: ctx.clock, dialect: ctx.db.dialect, workspaceId: ws, actor: access.actor };
      return { merged: true, appId: (await asDuplicateField(mergeRequests(t, input.duplicateId, input.intoId))).appId };
    });
    if (merged) await ctx.cache.invalidateTag(appTag(appId));
    const [duplicate, target, links] = await Promise.all([
      getAdminFeatureRequest(db, ws, input.duplicateId),
      getAdminFeatureRequest(db, ws, input.intoId),
      workspaceLinks(db, ctx.publicBase, ws),
    ]);
    return { merged, alreadyMerged: !merged, duplicate: requestShape(duplicate, links), target: requestShape(target, links) };
  },
});
