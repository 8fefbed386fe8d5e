import Type, { type Static } from "typebox";
import { StringEnum, Timestamp } from "./common.js";
import { SlugSchema } from "./console.js";

export const COLUMN_KINDS = ["pending_review", "normal", "done"] as const;
/** Column kind: the review queue, an ordinary stage, or shipped. */
export type ColumnKind = (typeof COLUMN_KINDS)[number];
export const ColumnKindSchema = StringEnum(COLUMN_KINDS);

export const ColorSchema = Type.String({ pattern: "^#[0-9a-fA-F]{6}$" });

/** A roadmap column (wire-contract §7.2). */
export const BoardColumnSchema = Type.Object(
  {
    id: Type.String(),
    appId: Type.String(),
    name: Type.String(),
    slug: Type.String(),
    position: Type.Integer(),
    isVisible: Type.Boolean(),
    isSystem: Type.Boolean(),
    kind: ColumnKindSchema,
    color: Type.Union([ColorSchema, Type.Null()]),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
);
export type BoardColumn = Static<typeof BoardColumnSchema>;

/** A release version (wire-contract §7.3). */
export const AppVersionSchema = Type.Object(
  {
    id: Type.String(),
    appId: Type.String(),
    label: Type.String(),
    position: Type.Integer(),
    released: Type.Boolean(),
    releasedAt: Type.Union([Timestamp, Type.Null()]),
    description: Type.Union([Type.String(), Type.Null()]),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
);
export type AppVersion = Static<typeof AppVersionSchema>;

export const ColumnsResponseSchema = Type.Object({ columns: Type.Array(BoardColumnSchema) });
export const VersionsResponseSchema = Type.Object({ versions: Type.Array(AppVersionSchema) });

export const CreateColumnBodySchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 60 }),
  slug: Type.Optional(SlugSchema),
  kind: Type.Optional(ColumnKindSchema),
  color: Type.Optional(Type.Union([ColorSchema, Type.Null()])),
  isVisible: Type.Optional(Type.Boolean()),
  /** Accepted for compatibility; the path names the app. */
  appId: Type.Optional(Type.String()),
});
export const UpdateColumnBodySchema = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 60 })),
  color: Type.Optional(Type.Union([ColorSchema, Type.Null()])),
  isVisible: Type.Optional(Type.Boolean()),
  position: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
});
export const ReorderColumnsBodySchema = Type.Object({
  columnIds: Type.Array(Type.String(), { minItems: 1, maxItems: 200 }),
});

export const CreateVersionBodySchema = Type.Object({
  label: Type.String({ minLength: 1, maxLength: 60 }),
  released: Type.Optional(Type.Boolean()),
  releasedAt: Type.Optional(Type.Union([Timestamp, Type.Null()])),
  description: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
  appId: Type.Optional(Type.String()),
});
export const UpdateVersionBodySchema = Type.Object({
  label: Type.Optional(Type.String({ minLength: 1, maxLength: 60 })),
  released: Type.Optional(Type.Boolean()),
  releasedAt: Type.Optional(Type.Union([Timestamp, Type.Null()])),
  description: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
  position: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
});
