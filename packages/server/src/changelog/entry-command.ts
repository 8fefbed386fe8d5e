import { IdParam } from "@tidings/protocol";
import type { FastifyRequest } from "fastify";
import type { Kysely } from "kysely";
import Type from "typebox";
import { workspaceAccess } from "../console/auth.js";
import { requireCapability, type Capability } from "../console/capabilities.js";
import { appTag, type Context } from "../context.js";
import type { Database } from "../db/schema.js";
import type { JobRunner } from "../jobs/runner.js";
import { findEntryInWorkspace } from "./entries.js";
import { toAdminEntries } from "./entry-shapes.js";

export const tags = ["console: changelog"];
export const EntryParams = Type.Object({ wsId: IdParam("ws"), id: IdParam("cl") });

/**
 * A console write to a release: checks the caller's capabilities, runs `work` in one transaction,
 * drops the app's cached public answers, wakes the job runner (publishing queues mail), and
 * answers the release as the console shows it.
 */
export async function entryCommand(
  ctx: Context,
  runner: JobRunner,
  request: FastifyRequest,
  wsId: string,
  capabilities: readonly Capability[],
  work: (trx: Kysely<Database>) => Promise<{ id: string; appId: string }>,
) {
  const db = ctx.db.kysely;
  const { role } = await workspaceAccess(ctx, request, wsId);
  for (const capability of capabilities) requireCapability(role, capability);
  const { id, appId } = await db.transaction().execute(work);
  await ctx.cache.invalidateTag(appTag(appId));
  runner.kick();
  const [entry] = await toAdminEntries(db, [await findEntryInWorkspace(db, wsId, id)]);
  return entry!;
}
