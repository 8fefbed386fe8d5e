import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { SharedCache } from "../cache/shared-cache.js";
import type { Clock } from "../clock.js";
import type { Db } from "../db/database.js";
import { ApiError } from "../http/errors.js";
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

/** The answer of a tool: its result as JSON text for the model, and as structured content. */
export function toolResult(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value, null, 2) }], structuredContent: value };
}

/** Field names an {@link ApiError}'s details point at (`fieldErrors` keys). */
function fieldsOf(error: ApiError): string[] {
  const details = error.options.details as { fieldErrors?: Record<string, unknown> } | undefined;
  return Object.keys(details?.fieldErrors ?? {});
}

/**
 * A refusal as a tool error: the registry code, the message and the fields it names, as the
 * console API's envelope would carry them. Anything else is not the caller's mistake: it is
 * reported as an internal error without its message (which may hold SQL), and logged.
 */
export function toolError(error: unknown, log: (error: unknown) => void): CallToolResult {
  if (!(error instanceof ApiError)) {
    log(error);
    return { content: [{ type: "text", text: JSON.stringify({ error: "Internal error", code: "internal_error" }) }], isError: true };
  }
  const fields = fieldsOf(error);
  const text = JSON.stringify({ ...error.body(), ...(fields.length === 0 ? {} : { fields }) });
  return { content: [{ type: "text", text }], isError: true };
}

/**
 * Runs a lookup whose 404 is about one input field, naming the field in the refusal.
 *
 * @example
 * ```ts
 * await inField("boardId", findBoardInWorkspace(db, wsId, input.boardId)); // board_not_found, fields ["boardId"]
 * ```
 */
export async function inField<T>(field: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (!(error instanceof ApiError) || fieldsOf(error).length > 0) throw error;
    throw new ApiError(error.code, { message: error.message, details: { formErrors: [], fieldErrors: { [field]: [error.message] } } });
  }
}

/** An id of a kind (`fr`, `brd`, …), as the console API's paths check them. */
export function idOf(prefix: string) {
  return z.string().regex(new RegExp(`^${prefix}_[0-9a-z]{26}$`), `an id starting with ${prefix}_`);
}

/** At most `max` characters of a text, cut at a word where it can be, for a listing. */
export function excerpt(text: string, max = 280): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const cut = chars.slice(0, max).join("");
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

const DAY_OR_TIME = /^(\d{4}-\d{2}-\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** True for a real calendar day (`2026-02-30` is not one, though `Date.parse` takes it). */
function realDay(value: string): boolean {
  const day = DAY_OR_TIME.exec(value)?.[1];
  if (day === undefined || Number.isNaN(Date.parse(value))) return false;
  return new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) === day;
}

/** A day (`2026-03-01`, midnight UTC) or an ISO timestamp with its offset, as an ISO timestamp in UTC. */
export function dateInput() {
  return z
    .string()
    .regex(DAY_OR_TIME, "a day (2026-03-01) or an ISO 8601 time with its offset (2026-03-01T09:00:00Z)")
    .refine(realDay, "not a real date")
    .transform((value) => new Date(value).toISOString());
}
