import {
  CreateSegmentBodySchema,
  ErrorBodySchema,
  IdParam,
  SegmentDetailSchema,
  SegmentMembersQuerySchema,
  SegmentMembersSchema,
  SegmentSchema,
  SegmentsResponseSchema,
  UpdateSegmentBodySchema,
} from "@tidings/protocol";
import type { Kysely } from "kysely";
import Type from "typebox";
import { AppParams } from "../apps/console-routes.js";
import { findAppInWorkspace } from "../apps/apps.js";
import { workspaceAccess } from "../console/auth.js";
import { requireCapability } from "../console/capabilities.js";
import type { Context } from "../context.js";
import type { Database } from "../db/schema.js";
import type { App } from "../http/types.js";
import { memberCount, memberPage } from "./members.js";
import { createSegment, deleteSegment, findSegmentInWorkspace, listSegments, ruleOf, toSegment, updateSegment } from "./segments.js";
import { writeAppRow } from "../console/app-writes.js";

const SegmentParams = Type.Object({ wsId: IdParam("ws"), segmentId: IdParam("seg") });
const Success = Type.Object({ success: Type.Boolean() });
const errors = { 400: ErrorBodySchema, 404: ErrorBodySchema };
const tags = ["console: segments"];
const RULE_HELP =
  "A rule is a conjunction: `user` (`plans`, `isPaying`, `mrr`) and `company` (`ids`: the host's ids, `plans`, `mrr`, `attributes`: `[{key, in}]`) conditions must all hold; an empty rule holds every end user. `mrr` ranges are `{min?, max?, currency}` in currency units, never converted. At most 20 conditions and 100 values per list; unknown keys are `400 validation_failed` naming the path, an unknown currency `400 unknown_currency`.";

/** Segments of an app and their members. Reads need membership; managing segments needs `app.configure`. */
export function segmentConsoleRoutes(app: App, ctx: Context): void {
  const db = ctx.db.kysely;

  /** Runs a write in one transaction, then drops the app's cached public answers (a private board may follow a segment). */
  const write = <T extends { appId: string }>(work: (trx: Kysely<Database>) => Promise<T>) => writeAppRow(ctx, work);

  app.get(
    "/workspaces/:wsId/apps/:appId/segments",
    { schema: { tags, summary: "Every segment of an app, by name", params: AppParams, response: { 200: SegmentsResponseSchema, 404: ErrorBodySchema } } },
    async (request) => {
      await workspaceAccess(ctx, request, request.params.wsId);
      const appRow = await findAppInWorkspace(db, request.params.wsId, request.params.appId);
      return { segments: (await listSegments(db, appRow.id)).map(toSegment) };
    },
  );

  app.post(
    "/workspaces/:wsId/apps/:appId/segments",
    {
      schema: {
        tags,
        summary: "Add a segment to an app",
        description: `${RULE_HELP} An app has at most 50 segments (\`400 too_many_segments\`).`,
        params: AppParams,
        body: CreateSegmentBodySchema,
        response: { 201: SegmentSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "app.configure");
      const appRow = await findAppInWorkspace(db, request.params.wsId, request.params.appId);
      const row = await write((trx) => createSegment(trx, ctx.clock, appRow.id, request.body));
      return reply.code(201).send(toSegment(row));
    },
  );

  app.get(
    "/workspaces/:wsId/segments/:segmentId",
    { schema: { tags, summary: "One segment with how many end users it holds now", params: SegmentParams, response: { 200: SegmentDetailSchema, 404: ErrorBodySchema } } },
    async (request) => {
      await workspaceAccess(ctx, request, request.params.wsId);
      const row = await findSegmentInWorkspace(db, request.params.wsId, request.params.segmentId);
      return { ...toSegment(row), memberCount: await memberCount(db, row.appId, ruleOf(row)) };
    },
  );

  app.patch(
    "/workspaces/:wsId/segments/:segmentId",
    { schema: { tags, summary: "Rename a segment or change its rule", description: RULE_HELP, params: SegmentParams, body: UpdateSegmentBodySchema, response: { 200: SegmentSchema, ...errors } } },
    async (request) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "app.configure");
      return toSegment(await write((trx) => updateSegment(trx, ctx.clock, request.params.wsId, request.params.segmentId, request.body)));
    },
  );

  app.delete(
    "/workspaces/:wsId/segments/:segmentId",
    {
      schema: {
        tags,
        summary: "Delete a segment",
        description: "Refused with `409 segment_in_use` (its `details` list the `boards` and `releases`) while a private board's access rule or a release not yet mailed names the segment.",
        params: SegmentParams,
        response: { 200: Success, 404: ErrorBodySchema, 409: ErrorBodySchema },
      },
    },
    async (request) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "app.configure");
      await write((trx) => deleteSegment(trx, request.params.wsId, request.params.segmentId));
      return { success: true };
    },
  );

  app.get(
    "/workspaces/:wsId/segments/:segmentId/members",
    {
      schema: {
        tags,
        summary: "The end users a segment holds now, newest first",
        description: "`limit` 1–200 (default 50); pass `nextCursor` back as `cursor` for the next page (`400 invalid_cursor` for one this did not hand out). `total` counts every member.",
        params: SegmentParams,
        querystring: SegmentMembersQuerySchema,
        response: { 200: SegmentMembersSchema, ...errors },
      },
    },
    async (request) => {
      await workspaceAccess(ctx, request, request.params.wsId);
      const row = await findSegmentInWorkspace(db, request.params.wsId, request.params.segmentId);
      const rule = ruleOf(row);
      const page = await memberPage(db, row.appId, rule, { limit: request.query.limit ?? 50, cursor: request.query.cursor });
      return { ...page, total: await memberCount(db, row.appId, rule) };
    },
  );
}
