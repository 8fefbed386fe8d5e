import Type, { type Static } from "typebox";
import { StringEnum, Timestamp } from "./common.js";

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
