import { ruleCondition } from "../segments/rule.js";
import { findSegmentInApp, ruleOf } from "../segments/segments.js";
import { MAX_LIST_OFFSET, PageOffset } from "@tidings/protocol";
import Type from "typebox";
import { AppParams } from "../apps/console-routes.js";
import { findAppInWorkspace } from "../apps/apps.js";
import { workspaceAccess } from "../console/auth.js";
import type { Context } from "../context.js";
import type { App } from "../http/types.js";

const tags = ["console: end users"];

const EndUserSchema = Type.Object({
  id: Type.String(),
  publicId: Type.String(),
  displayName: Type.Union([Type.String(), Type.Null()]),
  isPaying: Type.Union([Type.Boolean(), Type.Null()]),
  plan: Type.Union([Type.String(), Type.Null()]),
  mrr: Type.Union([Type.Number(), Type.Null()]),
  currency: Type.Union([Type.String(), Type.Null()]),
  /** The company the host last reported the user in. */
  company: Type.Union([Type.Object({ id: Type.String(), externalId: Type.String(), name: Type.Union([Type.String(), Type.Null()]) }), Type.Null()]),
  voteCount: Type.Integer(),
  createdAt: Type.String(),
  lastSeenAt: Type.String(),
  attributesUpdatedAt: Type.Union([Type.String(), Type.Null()]),
});
const EndUserListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
  offset: Type.Optional(PageOffset(MAX_LIST_OFFSET)),
  sort: Type.Optional(Type.Union([Type.Literal("last_seen"), Type.Literal("newest"), Type.Literal("mrr")])),
  payer: Type.Optional(Type.Literal("only")),
  /** End users this segment (`seg_…`) of the app holds. */
  segmentId: Type.Optional(Type.String({ maxLength: 64 })),
});

/** End users of an app with their signed attributes (paying, plan, MRR) and activity. Any member may read. */
export function endUserConsoleRoutes(app: App, ctx: Context): void {
  const db = ctx.db.kysely;

  app.get(
    "/workspaces/:wsId/apps/:appId/end-users",
    {
      schema: {
        tags,
        summary: "End users of an app with their attributes and activity",
        description:
          "`sort`: `last_seen` (default, most recent first), `newest`, `mrr` (highest first); `payer=only` keeps paying users; `segmentId` keeps the members of one of the app's segments (`404 segment_not_found` otherwise); `limit` 1–200 (default 50). `mrr` is in currency units.",
        params: AppParams,
        querystring: EndUserListQuery,
        response: { 200: Type.Object({ users: Type.Array(EndUserSchema), total: Type.Integer() }) },
      },
    },
    async (request) => {
      const { wsId, appId } = request.params;
      await workspaceAccess(ctx, request, wsId);
      await findAppInWorkspace(db, wsId, appId);
      const { limit = 50, offset = 0, sort = "last_seen", payer, segmentId } = request.query;
      let base = db.selectFrom("endUsers as u").where("u.appId", "=", appId);
      if (payer === "only") base = base.where("u.isPaying", "=", 1);
      if (segmentId !== undefined) base = base.where(ruleCondition(db, appId, ruleOf(await findSegmentInApp(db, appId, segmentId))));
      const { n } = await base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
      let query = base
        .leftJoin("companies as c", "c.id", "u.companyId")
        .select(["u.id", "u.publicId", "u.displayName", "u.isPaying", "u.plan", "u.mrrCents", "u.currency", "u.createdAt", "u.lastSeenAt", "u.attributesUpdatedAt"])
        .select(["c.id as companyId", "c.externalId as companyExternalId", "c.name as companyName"])
        .select((eb) =>
          eb.selectFrom("featureRequestVotes as v").whereRef("v.endUserId", "=", "u.id").select((e) => e.fn.countAll<number>().as("c")).as("voteCount"),
        );
      if (sort === "mrr") query = query.orderBy((eb) => eb.fn.coalesce("u.mrrCents", eb.lit(-1)), "desc");
      query = sort === "newest" ? query.orderBy("u.createdAt", "desc") : query.orderBy("u.lastSeenAt", "desc");
      const rows = await query.orderBy("u.id", "desc").limit(limit).offset(offset).execute();
      return {
        users: rows.map(({ mrrCents, isPaying, voteCount, companyId, companyExternalId, companyName, ...u }) => ({
          ...u,
          company: companyId === null ? null : { id: companyId, externalId: companyExternalId ?? "", name: companyName },
          isPaying: isPaying === null ? null : Boolean(isPaying),
          mrr: mrrCents === null ? null : mrrCents / 100,
          voteCount: Number(voteCount ?? 0),
        })),
        total: Number(n),
      };
    },
  );
}
