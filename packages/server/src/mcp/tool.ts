import type { z } from "zod";
import type { SharedCache } from "../cache/shared-cache.js";
import type { Clock } from "../clock.js";
import type { Db } from "../db/database.js";
import type { McpAccess } from "./access.js";

/** What the tools work with, over HTTP (the app's context) as in `tidings mcp` (its own). */
export interface ToolContext {
  db: Db;
  clock: Clock;
  /** Writes drop the app's cached public answers, as the console API's do. */
  cache: Pick<SharedCache, "invalidateTag">;
  /** Where links point: `PUBLIC_URL`, or this instance's local address. */
  publicBase: string;
}

/** One call of a tool: the context and the access of the token behind it. */
export interface ToolCall {
  ctx: ToolContext;
  access: McpAccess;
}

/**
 * A tool as the MCP server offers it: its name, what it tells the model, its input (a zod shape,
 * validated strictly: an unknown field is an error, not ignored) and what it does. `writes` tools
 * are offered to `read-write` tokens only.
 */
export interface McpTool<Shape extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  writes: boolean;
  /** Calling it again with the same input changes nothing more. @default true for reads, false for writes */
  idempotent?: boolean;
  input: Shape;
  run(call: ToolCall, input: z.output<z.ZodObject<Shape>>): Promise<Record<string, unknown>>;
}

/**
 * Declares a tool, keeping its input's type for `run`.
 *
 * @example
 * ```ts
 * export const ping = defineTool({ name: "ping", title: "Ping", description: "…", writes: false, input: {}, run: async () => ({ ok: true }) });
 * ```
 */
export function defineTool<Shape extends z.ZodRawShape>(tool: McpTool<Shape>): McpTool<Shape> {
  return tool;
}
