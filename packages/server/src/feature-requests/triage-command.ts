import { IdParam } from "@tidings/protocol";
import type { FastifyRequest } from "fastify";
import Type from "typebox";
import { actorOf, principalOf, workspaceAccess, type Principal } from "../console/auth.js";
import { requireCapability, type Capability } from "../console/capabilities.js";
import { appTag, type Context } from "../context.js";
import type { Triage } from "./triage.js";

/** The params of a request's console routes. */
export const RequestParams = Type.Object({ wsId: IdParam("ws"), id: IdParam("fr") });
/** The OpenAPI tag of the console's feature request and comment routes. */
export const tags = ["console: feature requests"];

/** A console command: checks access and capabilities, runs `work` in one transaction, then drops the cached public answers of the apps it names. */
export type TriageCommand = <T extends { appIds: readonly string[] }>(
  request: FastifyRequest,
  wsId: string,
  capabilities: readonly Capability[],
  work: (t: Triage, principal: Principal) => Promise<T>,
) => Promise<T>;

/** The {@link TriageCommand} of `ctx`. */
export function triageCommand(ctx: Context): TriageCommand {
  return async (request, wsId, capabilities, work) => {
    const { role } = await workspaceAccess(ctx, request, wsId);
    for (const capability of capabilities) requireCapability(role, capability);
    const principal = principalOf(request);
    const result = await ctx.db.kysely
      .transaction()
      .execute((trx) => work({ trx, clock: ctx.clock, dialect: ctx.db.dialect, workspaceId: wsId, actor: actorOf(principal) }, principal));
    for (const appId of result.appIds) await ctx.cache.invalidateTag(appTag(appId));
    return result;
  };
}
