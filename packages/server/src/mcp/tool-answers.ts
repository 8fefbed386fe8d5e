import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ApiError } from "../http/errors.js";

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
