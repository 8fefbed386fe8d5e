import type { Board, BoardAccessRule, PublicBoard } from "@tidings/protocol";
import type { BoardRow } from "./boards.js";

/** The stored access rule of a private board; null admits every identified user. */
export function accessRuleOf(row: BoardRow): BoardAccessRule | null {
  return row.accessRule === null ? null : (JSON.parse(row.accessRule) as BoardAccessRule);
}

/** A board as the public API shows it. */
export function toPublicBoard(row: BoardRow): PublicBoard {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    position: row.position,
    visibility: row.visibility,
    isDefault: row.isDefault === 1,
  };
}

/** A board as the console shows it, with its rule and how many requests it holds. */
export function toBoard(row: BoardRow, requestCount: number): Board {
  return {
    ...toPublicBoard(row),
    appId: row.appId,
    accessRule: row.visibility === "private" ? accessRuleOf(row) : null,
    requestCount,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
