import {
  CreateCustomFieldBodySchema,
  CustomFieldListQuerySchema,
  CustomFieldSchema,
  CustomFieldsResponseSchema,
  IdParam,
  ReorderCustomFieldsBodySchema,
  UpdateCustomFieldBodySchema,
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
import { archiveField } from "./field-archive.js";
import { createField, updateField } from "./definitions.js";
import { findFieldInWorkspace, listFields } from "./field-reads.js";
import { reorderFields } from "./field-order.js";
import { toCustomField } from "./field-rows.js";
import { writeAppRow } from "../console/app-writes.js";

const FieldParams = Type.Object({ wsId: IdParam("ws"), fieldId: IdParam("fld") });
const ArchivedAnswer = Type.Object({ success: Type.Boolean(), archived: Type.Boolean() });
const tags = ["console: custom fields"];

/** Custom fields of an app. Reads need membership; managing fields needs `app.configure`. */
export function customFieldConsoleRoutes(app: App, ctx: Context): void {
  const db = ctx.db.kysely;

  /** Runs a write in one transaction, then drops the cached public answers of the field's app. */
  const write = <T extends { appId: string }>(work: (trx: Kysely<Database>) => Promise<T>) => writeAppRow(ctx, work);

  app.get(
    "/workspaces/:wsId/apps/:appId/fields",
    {
      schema: {
        tags,
        summary: "The custom fields of an app, by position",
        description: "Active fields by position; with `includeArchived=true`, the archived ones after them.",
        params: AppParams,
        querystring: CustomFieldListQuerySchema,
        response: { 200: CustomFieldsResponseSchema },
      },
    },
    async (request) => {
      await workspaceAccess(ctx, request, request.params.wsId);
      const appRow = await findAppInWorkspace(db, request.params.wsId, request.params.appId);
      return { fields: (await listFields(db, appRow.id, request.query.includeArchived === true)).map(toCustomField) };
    },
  );

  app.post(
    "/workspaces/:wsId/apps/:appId/fields",
    {
      schema: {
        tags,
        summary: "Add a custom field to an app's forms",
        description:
          "Up to 30 active fields per app (400 `too_many_fields`), 50 options per select. The key (derived from the label when left out) is unique among the app's active fields (409 `slug_taken`) and never changes; neither does the type.",
        params: AppParams,
        body: CreateCustomFieldBodySchema,
        response: { 201: CustomFieldSchema },
      },
    },
    async (request, reply) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "app.configure");
      const appRow = await findAppInWorkspace(db, request.params.wsId, request.params.appId);
      const row = await write((trx) => createField(trx, ctx.clock, appRow.id, request.body));
      return reply.code(201).send(toCustomField(row));
    },
  );

  app.post(
    "/workspaces/:wsId/apps/:appId/fields/reorder",
    {
      schema: { tags, summary: "Set the order of every active custom field of the app", params: AppParams, body: ReorderCustomFieldsBodySchema, response: { 200: CustomFieldsResponseSchema } },
    },
    async (request) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "app.configure");
      const appRow = await findAppInWorkspace(db, request.params.wsId, request.params.appId);
      const { rows } = await write(async (trx) => ({ appId: appRow.id, rows: await reorderFields(trx, ctx.clock, appRow.id, request.body.fieldIds) }));
      return { fields: rows.map(toCustomField) };
    },
  );

  app.get(
    "/workspaces/:wsId/fields/:fieldId",
    { schema: { tags, summary: "One custom field", params: FieldParams, response: { 200: CustomFieldSchema } } },
    async (request) => {
      await workspaceAccess(ctx, request, request.params.wsId);
      return toCustomField(await findFieldInWorkspace(db, request.params.wsId, request.params.fieldId));
    },
  );

  app.patch(
    "/workspaces/:wsId/fields/:fieldId",
    {
      schema: {
        tags,
        summary: "Relabel a custom field, change its options, limits, forms or board, or bring it back from the archive",
        description: "Values stored before a change are kept as they are, even outside new options or limits.",
        params: FieldParams,
        body: UpdateCustomFieldBodySchema,
        response: { 200: CustomFieldSchema },
      },
    },
    async (request) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "app.configure");
      return toCustomField(await write((trx) => updateField(trx, ctx.clock, request.params.wsId, request.params.fieldId, request.body)));
    },
  );

  app.delete(
    "/workspaces/:wsId/fields/:fieldId",
    {
      schema: {
        tags,
        summary: "Archive a custom field",
        description: "Forms stop asking for it and its key is free again; the values stored for it stay on their requests and submissions, shown as archived.",
        params: FieldParams,
        response: { 200: ArchivedAnswer },
      },
    },
    async (request) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "app.configure");
      await write((trx) => archiveField(trx, ctx.clock, request.params.wsId, request.params.fieldId));
      return { success: true, archived: true };
    },
  );
}
