import Type from "typebox";
import { workspaceAccess } from "../console/auth.js";
import { WorkspaceParams } from "../console/workspace-params.js";
import type { Context } from "../context.js";
import type { App } from "../http/types.js";
import { renderMarkdown } from "./markdown.js";

const tags = ["console: changelog"];

/** The release editor's live preview: Markdown rendered as the release will show it. Needs membership. */
export function changelogPreviewRoute(app: App, ctx: Context): void {
  app.post(
    "/workspaces/:wsId/changelog/preview",
    {
      schema: {
        tags,
        summary: "Render Markdown as a release would show it (sanitised HTML); for the editor's live preview",
        params: WorkspaceParams,
        body: Type.Object({ body: Type.String({ maxLength: 100_000 }) }),
        response: { 200: Type.Object({ html: Type.String() }) },
      },
    },
    async (request) => {
      await workspaceAccess(ctx, request, request.params.wsId);
      return { html: renderMarkdown(request.body.body) };
    },
  );
}
