/** What a custom field holds: one line of text, a longer text, a number, one option, several, or a checkbox. */
export type CustomFieldType = "text" | "long_text" | "number" | "single_select" | "multi_select" | "checkbox";

/** The forms a custom field is asked on: proposing a feature request, sending feedback. */
export type CustomFieldForm = "feature_request" | "feedback";

/** One choice of a select: `value` is what is sent, `label` what people read. */
export interface CustomFieldOption {
  value: string;
  label: string;
}

/**
 * The bounds a value must keep: `maxLength` (text and long text, in characters as the server
 * counts them, code points), `min`, `max` and `integer` (number), `maxSelected` (multi select).
 */
export interface CustomFieldLimits {
  maxLength?: number;
  min?: number;
  max?: number;
  integer?: boolean;
  maxSelected?: number;
}

/** A custom field a form asks for (`GET /public/apps/<APP_KEY>/fields`). */
export interface CustomField {
  /** The name the value is sent under in `fields`; it never changes. */
  key: string;
  label: string;
  /** Help text under the label; may be empty. */
  description: string;
  type: CustomFieldType;
  /** A required checkbox is one that must be ticked. */
  required: boolean;
  appliesTo: CustomFieldForm[];
  /** Selects only; empty for the other types. */
  options: CustomFieldOption[];
  limits: CustomFieldLimits;
  position: number;
}

/**
 * A value sent for a custom field: text (text, long text, a single select's option value), a
 * number, a boolean (checkbox) or a list of option values (multi select).
 */
export type CustomFieldValue = string | number | boolean | string[];

/** Custom field values by key, as proposals and feedback send them in `fields`. */
export type CustomFieldValues = Record<string, CustomFieldValue>;
