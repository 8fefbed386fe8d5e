import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { openRedisCache } from "../cache/redis-cache.js";
import { cacheLimits, MemoryCache } from "../cache/memory-cache.js";
import { systemClock } from "../clock.js";
import { commandConfig, type CommandIo } from "../command-io.js";
import { migrateToLatest } from "../db/migrate.js";
import { openDatabase } from "../db/database.js";
import { ApiError } from "../http/errors.js";
import { publicBase } from "../mail/compose.js";
import { mcpAccess } from "./access.js";
import { createMcpServer } from "./server.js";

export const MCP_USAGE = `Usage: tidings mcp

Runs the Tidings MCP server on stdin and stdout, for an assistant that starts it (Claude Desktop,
Claude Code, Cursor, …). It acts with the console API token in TIDINGS_TOKEN, in that token's
workspace, on the database the server uses (DATABASE_URL, default DATA_DIR/tidings.db) and with
its PUBLIC_URL for links: the same settings as \`tidings serve\`. A read token gets the read tools
only. Only the protocol goes to stdout; messages go to stderr. See docs/mcp.md.

Exit codes: 0 the assistant closed the connection, 1 failed, 2 invalid configuration or token.`;

/**
 * `tidings mcp`: the MCP server on stdio until the client ends its input. The token is checked
 * before the first message (a bad one exits with 2 and says why on stderr) and again on every
 * tool call, so revoking it stops the tools at once. Writes drop the server's cached answers
 * through Redis when REDIS_URL is set; without it, the server's in-memory cache lets them show
 * within its TTLs (30 s at most).
 *
 * @example
 * ```ts
 * process.exitCode = await mcpCommand([], { env: process.env, stdout: process.stdout, stderr: process.stderr });
 * ```
 */
export async function mcpCommand(args: string[], io: CommandIo, stdin: Readable = process.stdin): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout.write(`${MCP_USAGE}\n`);
    return 0;
  }
  if (args.length > 0) {
    io.stderr.write(`Unknown argument "${args[0]}".\n\n${MCP_USAGE}\n`);
    return 2;
  }
  const config = commandConfig(io);
  if (config === undefined) return 2;
  const token = io.env.TIDINGS_TOKEN;
  if (token === undefined || token.trim() === "") {
    io.stderr.write("TIDINGS_TOKEN is not set: create a console API token (dashboard, API tokens) and pass it in the environment.\n");
    return 2;
  }
  const clock = systemClock;
  const db = openDatabase(config.databaseUrl);
  const log = { warn: (details: object, message: string) => io.stderr.write(`${message} ${JSON.stringify(details)}\n`) };
  const redis = config.redisUrl === null ? undefined : await openRedisCache(config.redisUrl, clock, { warn: log.warn, info: () => {} }, undefined, cacheLimits(config));
  try {
    await migrateToLatest(db);
    const ctx = { config, db, clock };
    let access;
    try {
      access = await mcpAccess(ctx, token.trim());
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      io.stderr.write(`TIDINGS_TOKEN cannot be used: ${error.message} (${error.code}).\n`);
      return 2;
    }
    const server = createMcpServer({
      ctx: { db, clock, cache: redis?.cache ?? new MemoryCache(clock, cacheLimits(config)), publicBase: publicBase(config) },
      scope: access.scope,
      authorize: () => mcpAccess(ctx, token.trim()),
      log: (error) => io.stderr.write(`MCP tool failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`),
    });
    const closed = new Promise<void>((resolve) => {
      server.server.onclose = resolve;
      // The transport does not watch for the end of its input: the client closing it is the end.
      stdin.once("end", () => void server.close());
      stdin.once("close", () => void server.close());
    });
    await server.connect(new StdioServerTransport(stdin, io.stdout as Writable));
    io.stderr.write(`Tidings MCP server ready: workspace "${access.workspaceName}" (${access.workspaceId}), ${access.scope} token.\n`);
    await closed;
    return 0;
  } finally {
    await redis?.close();
    await db.destroy();
  }
}
