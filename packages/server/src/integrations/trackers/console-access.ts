import type { FastifyRequest } from "fastify";
import { findAppInWorkspace } from "../../apps/apps.js";
import { workspaceAccess } from "../../console/auth.js";
import { requireCapability, type Capability } from "../../console/capabilities.js";
import type { Context } from "../../context.js";
import { findRequestInWorkspace } from "../../feature-requests/triage.js";

/** Resolves a console request's workspace access, with a capability when one is needed. */
export function consoleAccess(ctx: Context) {
  const db = ctx.db.kysely;
  return {
    app: async (request: FastifyRequest, wsId: string, appId: string, capability?: Capability) => {
      const { role } = await workspaceAccess(ctx, request, wsId);
      if (capability !== undefined) requireCapability(role, capability);
      await findAppInWorkspace(db, wsId, appId);
    },
    request: async (request: FastifyRequest, wsId: string, id: string, capability?: Capability) => {
      const { role } = await workspaceAccess(ctx, request, wsId);
      if (capability !== undefined) requireCapability(role, capability);
      return findRequestInWorkspace(db, wsId, id);
    },
  };
}
