import type { UserCallOptions } from "./call-options.js";
import { FeedbackException } from "./errors.js";
import type { ClientSession } from "./session.js";
import type { CustomField, CustomFieldValue, CustomFieldValues } from "./types.js";

/**
 * Why a custom field's value cannot be sent, found before sending by
 * {@link checkCustomFieldValues} (the same rules the server applies), or `rejected` when the
 * server refused it for a reason the client did not see (its English `message`).
 */
export type CustomFieldProblem =
  | { code: "required" }
  /** A required checkbox left unticked. */
  | { code: "unchecked" }
  /** A line break in a one-line text. */
  | { code: "single_line" }
  | { code: "too_long"; max: number }
  | { code: "not_a_number" }
  | { code: "not_whole" }
  | { code: "below_min"; min: number }
  | { code: "above_max"; max: number }
  /** A select value the field does not offer (its options changed). */
  | { code: "not_an_option" }
  | { code: "too_many"; max: number }
  | { code: "rejected"; message: string };

/** What a form holds for a field: a value, or nothing yet. A number field may hold its text as typed. */
export type CustomFieldInput = CustomFieldValue | null | undefined;

/** The outcome of {@link checkCustomFieldValues}: what to send, and what stops sending, by key. */
export interface CustomFieldCheck {
  /** The values to send as `fields`: text trimmed, numbers parsed, blank ones left out. */
  values: CustomFieldValues;
  /** Problems by field key; empty when the values may be sent. */
  problems: Record<string, CustomFieldProblem>;
}

/** Characters as the server counts them: code points, an emoji is one. */
const codePoints = (text: string) => [...text].length;

/** Decimal text as people type it; a lone comma is a decimal point. Hex, `Infinity` and the like are not numbers here. */
function parseNumber(text: string): number | undefined {
  const normalized = text.includes(".") ? text : text.replace(",", ".");
  return /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(normalized) ? Number(normalized) : undefined;
}

type Outcome = { value: CustomFieldValue } | { problem: CustomFieldProblem } | undefined;

const refused = (code: "not_an_option" | "not_a_number" | "unchecked"): Outcome => ({ problem: { code } });

/** One value given for `field` (not null): what to send, its problem, or undefined when it counts as not given. */
function check(field: CustomField, raw: CustomFieldValue): Outcome {
  const { limits, type } = field;
  const isOption = (value: unknown) => field.options.some((o) => o.value === value);
  if (type === "checkbox") return typeof raw !== "boolean" || (field.required && !raw) ? refused("unchecked") : { value: raw };
  if (type === "multi_select") {
    const values = Array.isArray(raw) ? [...new Set(raw)] : [raw];
    if (values.length === 0) return undefined;
    if (!values.every(isOption)) return refused("not_an_option");
    return limits.maxSelected !== undefined && values.length > limits.maxSelected ? { problem: { code: "too_many", max: limits.maxSelected } } : { value: values as string[] };
  }
  const text = typeof raw === "string" ? raw.trim() : undefined;
  if (text === "") return undefined;
  if (type === "single_select") return isOption(raw) ? { value: raw } : refused("not_an_option");
  if (type === "number") {
    const value = typeof raw === "number" ? raw : text === undefined ? undefined : parseNumber(text);
    if (value === undefined || !Number.isFinite(value)) return refused("not_a_number");
    if (limits.integer === true && !Number.isSafeInteger(value)) return { problem: { code: "not_whole" } };
    if (limits.min !== undefined && value < limits.min) return { problem: { code: "below_min", min: limits.min } };
    if (limits.max !== undefined && value > limits.max) return { problem: { code: "above_max", max: limits.max } };
    return { value };
  }
  if (text === undefined) return { problem: { code: "rejected", message: "Must be a string" } };
  if (type === "text" && /[\r\n]/.test(text)) return { problem: { code: "single_line" } };
  if (limits.maxLength !== undefined && codePoints(text) > limits.maxLength) return { problem: { code: "too_long", max: limits.maxLength } };
  return { value: text };
}

/**
 * Checks a form's values against the fields it asks for, as the server will (its limits, its
 * options, required fields), so a form can point at a problem before sending. Keys of fields not
 * in `fields` are left out of what is sent (a field of another board, or one removed since).
 * Blank text, an empty selection, `null` and `undefined` count as not given. The server stays the
 * authority: a `400 validation_failed` it answers is read with {@link customFieldErrors}.
 *
 * @example
 * ```ts
 * const { values, problems } = checkCustomFieldValues(fields, { plan: "pro", seats: "12" });
 * if (Object.keys(problems).length === 0) await client.submitFeedback({ title, details, fields: values });
 * ```
 */
export function checkCustomFieldValues(fields: readonly CustomField[], input: Readonly<Record<string, CustomFieldInput>>): CustomFieldCheck {
  const values: CustomFieldValues = {};
  const problems: Record<string, CustomFieldProblem> = {};
  for (const field of fields) {
    const raw = Object.hasOwn(input, field.key) ? input[field.key] : undefined;
    const outcome = raw === undefined || raw === null ? undefined : check(field, raw);
    if (outcome === undefined) {
      if (field.required) problems[field.key] = { code: field.type === "checkbox" ? "unchecked" : "required" };
    } else if ("problem" in outcome) {
      problems[field.key] = outcome.problem;
    } else {
      values[field.key] = outcome.value;
    }
  }
  return { values, problems };
}

/**
 * The custom field problems of a `400 validation_failed` the server answered to a proposal or
 * feedback (its `details.fieldErrors`, `fields.<key>`), by field key; undefined for any other
 * error. A key the form does not show means the fields changed since they were read.
 *
 * @example
 * ```ts
 * const byKey = customFieldErrors(error); // { plan: { code: "rejected", message: "Not an option: gold" } }
 * ```
 */
export function customFieldErrors(error: unknown): Record<string, CustomFieldProblem> | undefined {
  if (!(error instanceof FeedbackException) || error.status !== 400 || error.code !== "validation_failed") return undefined;
  const details = (error.body as { details?: { fieldErrors?: unknown } } | undefined)?.details;
  const fieldErrors = details?.fieldErrors;
  if (typeof fieldErrors !== "object" || fieldErrors === null) return undefined;
  const out: Record<string, CustomFieldProblem> = {};
  for (const [name, messages] of Object.entries(fieldErrors)) {
    if (!name.startsWith("fields.")) continue;
    const first: unknown = Array.isArray(messages) ? messages[0] : messages;
    out[name.slice("fields.".length)] = { code: "rejected", message: typeof first === "string" ? first : "Invalid value" };
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

/** The `fields` of a body: left out when there are none, so servers without custom fields get the body they know. */
export function someFields(fields: CustomFieldValues | undefined): CustomFieldValues | undefined {
  return fields !== undefined && Object.keys(fields).length > 0 ? fields : undefined;
}

/** `GET /public/apps/<APP_KEY>/fields`: the fields a board's forms ask for (default: the default board's), by position. */
export async function listCustomFields(s: ClientSession, options: UserCallOptions & { board?: string | undefined }): Promise<CustomField[]> {
  const board = options.board?.trim();
  const data = await s.json<{ fields?: CustomField[] }>(
    { method: "GET", path: s.appPath("fields"), query: { board: board === "" ? undefined : board }, headers: await s.identity.readHeaders(options) },
    options,
  );
  return [...(data.fields ?? [])].sort((a, b) => a.position - b.position);
}
