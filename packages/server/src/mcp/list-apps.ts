import { listBoards } from "../boards/boards.js";
import { listColumns } from "../roadmap/columns.js";
import { listTags } from "../tags/tags.js";
import { workspaceLinks } from "./links.js";
import { defineTool } from "./tool.js";

/** The workspace's apps with their boards, columns and tags: the ids the other tools filter by. */
export const listAppsTool = defineTool({
  name: "list_apps",
  title: "List apps, boards, columns and tags",
  description:
    "Lists the workspace's apps, each with its boards, its roadmap columns (a column of kind `done` holds shipped requests) and its tags. " +
    "Use the ids it returns to filter search_requests and search_feedback.",
  writes: false,
  input: {},
  async run({ ctx, access }) {
    const db = ctx.db.kysely;
    const apps = await db.selectFrom("apps").select(["id", "name", "appKey"]).where("workspaceId", "=", access.workspaceId).orderBy("createdAt").orderBy("id").execute();
    const links = await workspaceLinks(db, ctx.publicBase, access.workspaceId);
    return {
      workspace: { id: access.workspaceId, name: access.workspaceName },
      apps: await Promise.all(
        apps.map(async (app) => {
          const [boards, columns, tags] = await Promise.all([listBoards(db, app.id), listColumns(db, app.id), listTags(db, app.id)]);
          return {
            id: app.id,
            name: app.name,
            appKey: app.appKey,
            portalUrl: links.appPortalUrl(app.id),
            boards: boards.map((b) => ({ id: b.id, name: b.name, slug: b.slug, visibility: b.visibility, isDefault: b.isDefault === 1 })),
            columns: columns.map((c) => ({ id: c.id, name: c.name, slug: c.slug, kind: c.kind })),
            tags: tags.map((t) => ({ id: t.id, name: t.name, slug: t.slug, visibility: t.visibility })),
          };
        }),
      ),
    };
  },
});
