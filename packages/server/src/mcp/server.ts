import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ApiTokenScope } from "@tidings/protocol";
import { z } from "zod";
import { ApiError } from "../http/errors.js";
import type { McpAccess } from "./access.js";
import { draftChangelogTool } from "./draft-changelog.js";
import { getCompanyTool } from "./get-company.js";
import { getFeedbackTool } from "./get-feedback.js";
import { getRequestTool } from "./get-request.js";
import { linkFeedbackTool, unlinkFeedbackTool } from "./link-feedback.js";
import { listAppsTool } from "./list-apps.js";
import { mergeRequestsTool } from "./merge-requests.js";
import { searchFeedbackTool } from "./search-feedback.js";
import { searchRequestsTool } from "./search-requests.js";
import { summarizeChangesTool } from "./summarize-changes.js";
import { toolError, toolResult } from "./tool-answers.js";
import type { McpTool, ToolContext } from "./tool.js";

/**
 * Every tool, read tools first; `writes` ones are offered to `read-write` tokens only. (The cast
 * forgets each tool's own input type: the SDK validates the input against that tool's schema
 * before `run` sees it.)
 */
export const MCP_TOOLS: readonly McpTool[] = [
  listAppsTool,
  searchRequestsTool,
  getRequestTool,
  getCompanyTool,
  searchFeedbackTool,
  getFeedbackTool,
  summarizeChangesTool,
  mergeRequestsTool,
  linkFeedbackTool,
  unlinkFeedbackTool,
  draftChangelogTool,
] as unknown as readonly McpTool[];

const INSTRUCTIONS =
  "Tidings holds a product team's feature requests (with votes, the voters' companies and their monthly revenue, and the feedback linked to them as evidence), roadmap, feedback inbox and release notes. " +
  "Start with list_apps for the ids of apps, boards, columns and tags. Results carry ids and links: portalUrl is the public page, dashboardUrl the team's. " +
  "Writing tools (merge_requests, link_feedback, unlink_feedback, draft_changelog) are offered to read-write tokens only; draft_changelog never publishes.";

/** What one MCP server instance needs: the tools' context and how each call is authorised. */
export interface McpServerOptions {
  ctx: ToolContext;
  /** The scope of the token the connection was opened with: which tools are listed. */
  scope: ApiTokenScope;
  /** The access of one call, checked again each time, so a revoked token stops at once. */
  authorize: () => Promise<McpAccess>;
  /** Where failures that are not the caller's mistake are reported. */
  log: (error: unknown) => void;
}

/**
 * An MCP server offering the tools a token's scope allows. Each call is authorised anew, its
 * input validated strictly (a wrong or unknown field is a tool error naming it, and nothing is
 * written), and its refusals answered as tool errors carrying the console API's error codes.
 *
 * @example
 * ```ts
 * const server = createMcpServer({ ctx, scope: access.scope, authorize: () => mcpAccess(ctx, token), log: console.error });
 * await server.connect(new StdioServerTransport());
 * ```
 */
export function createMcpServer(options: McpServerOptions): McpServer {
  const server = new McpServer({ name: "tidings", title: "Tidings", version: "0.1.0" }, { instructions: INSTRUCTIONS });
  for (const tool of MCP_TOOLS) {
    if (tool.writes && options.scope !== "read-write") continue;
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: z.strictObject(tool.input),
        annotations: { title: tool.title, readOnlyHint: !tool.writes, destructiveHint: false, idempotentHint: tool.idempotent ?? !tool.writes, openWorldHint: false },
      },
      async (input: Record<string, unknown>) => {
        try {
          const access = await options.authorize();
          if (tool.writes && access.scope !== "read-write") throw new ApiError("token_read_only");
          return toolResult(await tool.run({ ctx: options.ctx, access }, input));
        } catch (error) {
          return toolError(error, options.log);
        }
      },
    );
  }
  return server;
}
