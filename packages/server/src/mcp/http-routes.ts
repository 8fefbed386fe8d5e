import { bearerToken } from "../console/auth.js";
import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import { CONSOLE_BODY_LIMIT, type App } from "../http/types.js";
import { publicBase } from "../mail/compose.js";
import { enforceRateLimit } from "../rate-limit/enforce.js";
import { mcpAccess } from "./access.js";
import type { ToolContext } from "./tool.js";

/** The JSON-RPC answer to GET and DELETE: a stateless server has no stream to open nor session to end. */
const METHOD_NOT_ALLOWED = { jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: this MCP server is stateless, send POST" }, id: null };

/**
 * `POST /mcp`: the MCP server over Streamable HTTP, stateless (every request carries its own
 * token and gets a fresh server, answered in JSON). Spends the `mcp` rate-limit bucket, reads
 * bodies up to the console API's 1 MB, and refuses a missing, unknown or revoked token with 401
 * in the API's envelope before any MCP work. Left out of the OpenAPI document: it speaks JSON-RPC,
 * described in docs/mcp.md. The MCP SDK and the tools are loaded by the first request, not at
 * start: an instance no agent calls does not hold them (about 29 MB of resident memory).
 */
export function mcpHttpRoutes(app: App, ctx: Context): void {
  const tools: ToolContext = { db: ctx.db, clock: ctx.clock, cache: ctx.cache, publicBase: publicBase(ctx.config) };

  app.post("/mcp", { schema: { hide: true }, bodyLimit: CONSOLE_BODY_LIMIT }, async (request, reply) => {
    await enforceRateLimit(ctx, request, "mcp");
    const access = await mcpAccess(ctx, bearerToken(request.headers.authorization)).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 401) void reply.header("WWW-Authenticate", 'Bearer realm="tidings"');
      throw error;
    });
    const [{ createMcpServer }, { StreamableHTTPServerTransport }] = await Promise.all([
      import("./server.js"),
      import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
    ]);
    const server = createMcpServer({
      ctx: tools,
      scope: access.scope,
      authorize: () => Promise.resolve(access),
      log: (err) => request.log.error({ err }, "MCP tool failed"),
    });
    // No session id generator: stateless.
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    // The transport writes the answer itself: the headers every answer carries go on first.
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
    reply.hijack();
    reply.raw.on("close", () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (err) {
      request.log.error({ err }, "MCP request failed");
      if (!reply.raw.headersSent) reply.raw.writeHead(500, { "content-type": "application/json" });
      if (!reply.raw.writableEnded) reply.raw.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32603, message: "Internal error" }, id: null }));
    }
  });

  for (const method of ["GET", "DELETE"] as const) {
    app.route({
      method,
      url: "/mcp",
      schema: { hide: true },
      handler: async (_request, reply) => reply.code(405).header("Allow", "POST").send(METHOD_NOT_ALLOWED),
    });
  }
}
