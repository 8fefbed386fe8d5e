import Type, { type Static } from "typebox";
import { MAX_SAFE_INTEGER, StringEnum, Timestamp } from "./common.js";

/** The most active (not archived) custom fields one app may have. */
export const MAX_FIELDS_PER_APP = 30;
/** The most options one single or multi select may offer. */
export const MAX_FIELD_OPTIONS = 50;
/** The longest a `text` value may be (its `maxLength` may only lower it). */
export const MAX_TEXT_LENGTH = 1000;
/** The longest a `long_text` value may be (its `maxLength` may only lower it). */
export const MAX_LONG_TEXT_LENGTH = 10_000;

/**
 * What a custom field holds: one line of text, a longer text, a number, one option, any number
 * of options, or a yes/no checkbox.
 */
export const CUSTOM_FIELD_TYPES = ["text", "long_text", "number", "single_select", "multi_select", "checkbox"] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];
export const CustomFieldTypeSchema = StringEnum(CUSTOM_FIELD_TYPES);

/** The forms a field is asked on: proposing a feature request, sending feedback. */
export const CUSTOM_FIELD_FORMS = ["feature_request", "feedback"] as const;
export type CustomFieldForm = (typeof CUSTOM_FIELD_FORMS)[number];
export const CustomFieldFormSchema = StringEnum(CUSTOM_FIELD_FORMS);

/**
 * A field's key, as request bodies and console filters name it: lowercase letters and digits,
 * words joined by `-` or `_`. It never changes once the field exists.
 */
export const CustomFieldKeySchema = Type.String({ minLength: 1, maxLength: 64, pattern: "^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$" });

/** One choice of a select: `value` is what bodies send and what is stored, `label` what people read. */
export const CustomFieldOptionSchema = Type.Object(
  {
    value: Type.String({ minLength: 1, maxLength: 100 }),
    label: Type.String({ minLength: 1, maxLength: 100 }),
  },
  { additionalProperties: Type.Never() },
);
export type CustomFieldOption = Static<typeof CustomFieldOptionSchema>;

/**
 * The bounds a value must keep, by type: `maxLength` (text: 1–1000, default 1000; long text:
 * 1–10 000, default 10 000, in characters), `min`, `max` and `integer` (number), `maxSelected`
 * (multi select, 1–50). A limit that does not fit the field's type is refused.
 */
export const CustomFieldLimitsSchema = Type.Object(
  {
    maxLength: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LONG_TEXT_LENGTH })),
    min: Type.Optional(Type.Number({ minimum: -MAX_SAFE_INTEGER, maximum: MAX_SAFE_INTEGER })),
    max: Type.Optional(Type.Number({ minimum: -MAX_SAFE_INTEGER, maximum: MAX_SAFE_INTEGER })),
    integer: Type.Optional(Type.Boolean()),
    maxSelected: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_FIELD_OPTIONS })),
  },
  { additionalProperties: Type.Never() },
);
export type CustomFieldLimits = Static<typeof CustomFieldLimitsSchema>;

/** A field as a form renders it (the public route). */
export const PublicCustomFieldSchema = Type.Object({
  key: Type.String(),
  label: Type.String(),
  description: Type.String(),
  type: CustomFieldTypeSchema,
  required: Type.Boolean(),
  appliesTo: Type.Array(CustomFieldFormSchema),
  /** Selects only; empty for the other types. */
  options: Type.Array(CustomFieldOptionSchema),
  limits: CustomFieldLimitsSchema,
  position: Type.Integer(),
});
export type PublicCustomField = Static<typeof PublicCustomFieldSchema>;

/** A field definition as the console shows it. */
export const CustomFieldSchema = Type.Object({
  id: Type.String(),
  appId: Type.String(),
  /** The one board whose proposals ask for it, or null for every board (and feedback). */
  boardId: Type.Union([Type.String(), Type.Null()]),
  ...PublicCustomFieldSchema.properties,
  /** Archived fields are asked nowhere; the values stored for them stay readable. */
  archived: Type.Boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type CustomField = Static<typeof CustomFieldSchema>;

export const CustomFieldsResponseSchema = Type.Object({ fields: Type.Array(CustomFieldSchema) });
export const PublicCustomFieldsResponseSchema = Type.Object({ fields: Type.Array(PublicCustomFieldSchema) });

export const CustomFieldListQuerySchema = Type.Object({
  /** Archived fields too, after the active ones. */
  includeArchived: Type.Optional(Type.Boolean()),
});

export const PublicCustomFieldsQuerySchema = Type.Object({
  /** The board's slug; default: the board proposals go to when they name none. */
  board: Type.Optional(Type.String({ maxLength: 64 })),
});

const FieldLabel = Type.String({ minLength: 1, maxLength: 80 });
const FieldDescription = Type.String({ maxLength: 500 });
const FieldForms = Type.Array(CustomFieldFormSchema, { minItems: 1, maxItems: CUSTOM_FIELD_FORMS.length, uniqueItems: true });
const FieldOptions = Type.Array(CustomFieldOptionSchema, { maxItems: MAX_FIELD_OPTIONS });

export const CreateCustomFieldBodySchema = Type.Object(
  {
    label: FieldLabel,
    /** Derived from the label when left out. */
    key: Type.Optional(CustomFieldKeySchema),
    description: Type.Optional(FieldDescription),
    type: CustomFieldTypeSchema,
    required: Type.Optional(Type.Boolean()),
    appliesTo: FieldForms,
    /** A board of the app: the field is asked on its proposals only. Default: every board. */
    boardId: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 64 })])),
    options: Type.Optional(FieldOptions),
    limits: Type.Optional(CustomFieldLimitsSchema),
  },
  { additionalProperties: Type.Never() },
);
export type CreateCustomFieldBody = Static<typeof CreateCustomFieldBodySchema>;

/**
 * Type and key never change: stored values keep their meaning and clients their names. Unknown
 * properties are refused, not stripped, so an attempt to change them does not pass silently.
 */
export const UpdateCustomFieldBodySchema = Type.Object(
  {
    label: Type.Optional(FieldLabel),
    description: Type.Optional(FieldDescription),
    required: Type.Optional(Type.Boolean()),
    appliesTo: Type.Optional(FieldForms),
    boardId: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 64 })])),
    /** Replaces the options; values stored for a removed option are kept and shown as stored. */
    options: Type.Optional(FieldOptions),
    /** Replaces the limits; values stored before are kept even when outside the new ones. */
    limits: Type.Optional(CustomFieldLimitsSchema),
    /** `false` brings an archived field back, last in the order. */
    archived: Type.Optional(Type.Literal(false)),
  },
  { additionalProperties: Type.Never(), minProperties: 1 },
);
export type UpdateCustomFieldBody = Static<typeof UpdateCustomFieldBodySchema>;

export const ReorderCustomFieldsBodySchema = Type.Object({
  fieldIds: Type.Array(Type.String(), { minItems: 1, maxItems: MAX_FIELDS_PER_APP }),
});

/**
 * The `fields` of a proposal or feedback body: values by field key. Each is checked against the
 * app's definitions (type, required, limits, options); a bad one is `400 validation_failed`
 * naming `fields.<key>`.
 */
export const CustomFieldValuesBodySchema = Type.Record(Type.String({ maxLength: 64 }), Type.Unknown(), {
  maxProperties: MAX_FIELDS_PER_APP,
  description: "Custom field values by key: a string (text, long_text, single_select), a number, a boolean (checkbox) or an array of strings (multi_select)",
});

/** A stored value: as the body sent it, text trimmed. */
export const CustomFieldValueSchema = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Array(Type.String())]);
export type CustomFieldValue = Static<typeof CustomFieldValueSchema>;

/**
 * A value stored on a request or a submission, with its field as it stands now. A value outside
 * the field's current options or limits (changed since) is shown as stored.
 */
export const RecordFieldSchema = Type.Object({
  id: Type.String(),
  key: Type.String(),
  label: Type.String(),
  type: CustomFieldTypeSchema,
  value: CustomFieldValueSchema,
  archived: Type.Boolean(),
});
export type RecordField = Static<typeof RecordFieldSchema>;
