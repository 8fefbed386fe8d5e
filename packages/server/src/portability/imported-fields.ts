import type { CustomField } from "@tidings/protocol";
import type { Kysely } from "kysely";
import { listBoards } from "../boards/boards.js";
import { listFields } from "../custom-fields/field-reads.js";
import { toCustomField } from "../custom-fields/field-rows.js";
import { checkFieldValues, type StoredFieldValues } from "../custom-fields/values.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { ImportMappingError } from "./import-errors.js";

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;
const TRUE = new Set(["true", "yes", "y", "1", "x", "checked"]);
const FALSE = new Set(["false", "no", "n", "0", "unchecked"]);

/**
 * Custom field values written as text (a CSV's `field.<key>` columns) read against the app's
 * definitions. Every column must name an active field of the app: the import never creates a
 * definition, since a header cannot say a field's type, options and limits. Whether a value fits
 * the request (a field of its board, asked on the request form) is checked row by row.
 */
export class ImportedFields {
  private constructor(
    private readonly fields: Map<string, CustomField>,
    private readonly boardNames: Map<string, string>,
  ) {}

  /** Checks that every key is an active field of the app; throws {@link ImportMappingError} otherwise. */
  static async open(db: Kysely<Database>, appId: string, keys: readonly string[]): Promise<ImportedFields> {
    const active = (await listFields(db, appId)).map(toCustomField);
    const fields = new Map<string, CustomField>();
    for (const key of keys) {
      const field = active.find((f) => f.key === key);
      if (field === undefined) {
        const known = active.filter((f) => f.appliesTo.includes("feature_request")).map((f) => f.key);
        throw new ImportMappingError(
          `column "field.${key}": the app has no active custom field "${key}" (${known.length === 0 ? "it has none for requests" : `its request fields: ${known.join(", ")}`}); create it in the console first`,
        );
      }
      fields.set(key, field);
    }
    const boardNames = new Map((await listBoards(db, appId)).map((b) => [b.id, b.name]));
    return new ImportedFields(fields, boardNames);
  }

  /**
   * The values of one request on `boardId`, as stored, or what is wrong with them (every problem,
   * each named `field.<key>`). Blank cells are left out; `required` is not enforced, since the
   * source never asked for a field created here.
   */
  values(raw: Readonly<Record<string, string>>, boardId: string): { values: StoredFieldValues } | { problem: string } {
    const input: Record<string, unknown> = {};
    const problems: string[] = [];
    for (const [key, text] of Object.entries(raw)) {
      const field = this.fields.get(key);
      if (field === undefined || text.trim() === "") continue;
      // Our export has a column for every field of the app; a feedback field's stays blank.
      if (!field.appliesTo.includes("feature_request")) {
        problems.push(`field.${key}: asked on feedback only, not on feature requests`);
        continue;
      }
      if (field.boardId !== null && field.boardId !== boardId) {
        problems.push(`field.${key}: asked only on the board "${this.boardNames.get(field.boardId) ?? field.boardId}", not on the request's`);
        continue;
      }
      const value = readValue(field, text);
      if (typeof value === "object" && value !== null && "problem" in value) problems.push(`field.${key}: ${value.problem}`);
      else input[key] = value;
    }
    if (problems.length > 0) return { problem: problems.join("; ") };
    const asked = [...this.fields.values()].filter((f) => f.appliesTo.includes("feature_request") && (f.boardId === null || f.boardId === boardId)).map((f) => ({ ...f, required: false }));
    try {
      return { values: checkFieldValues(asked, input) };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const found = (error.options.details as { fieldErrors?: Record<string, string[]> } | undefined)?.fieldErrors ?? {};
      return { problem: Object.entries(found).map(([name, messages]) => `${name.replace(/^fields\./, "field.")}: ${messages.join(", ")}`).join("; ") || error.message };
    }
  }
}

/** A cell's text as the value its field's type holds; select options are found by value or by label. */
function readValue(field: CustomField, text: string): unknown {
  const trimmed = text.trim();
  const option = (word: string) => field.options.find((o) => o.value === word)?.value ?? field.options.find((o) => o.label.toLowerCase() === word.toLowerCase())?.value ?? word;
  switch (field.type) {
    case "number":
      return NUMBER.test(trimmed) ? Number(trimmed) : { problem: `"${trimmed}" is not a number` };
    case "checkbox":
      if (TRUE.has(trimmed.toLowerCase())) return true;
      if (FALSE.has(trimmed.toLowerCase())) return false;
      return { problem: `"${trimmed}" is not true or false` };
    case "single_select":
      return option(trimmed);
    case "multi_select":
      return trimmed
        .split(";")
        .map((w) => w.trim())
        .filter((w) => w !== "")
        .map(option);
    default:
      return text;
  }
}
