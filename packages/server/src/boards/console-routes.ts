import {
  BoardSchema,
  BoardsResponseSchema,
  CreateBoardBodySchema,
  IdParam,
  MoveRequestsBodySchema,
  MoveRequestsResponseSchema,
  ReorderBoardsBodySchema,
  UpdateBoardBodySchema,
} from "@tidings/protocol";
import type { Kysely } from "kysely";
import Type from "typebox";
import { AppParams } from "../apps/console-routes.js";
import { findAppInWorkspace } from "../apps/apps.js";
import { actorOf, principalOf, workspaceAccess } from "../console/auth.js";
import { requireCapability } from "../console/capabilities.js";
import type { Context } from "../context.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import type { App } from "../http/types.js";
import { deleteBoard, reorderBoards, updateBoard } from "./board-changes.js";
import { moveRequests, type BoardMove } from "./board-moves.js";
import { toBoard } from "./board-views.js";
import { createBoard, findBoardInWorkspace, listBoards, requestCounts, type BoardRow } from "./boards.js";
import { writeAppRow } from "../console/app-writes.js";

const BoardParams = Type.Object({ wsId: IdParam("ws"), boardId: IdParam("brd") });
const Success = Type.Object({ success: Type.Boolean() });
const tags = ["console: boards"];

/** Boards of an app. Reads need membership; managing boards needs `app.configure`; moving requests `content.manage`. */
export function boardConsoleRoutes(
  app: App,
  ctx: Context,
  /** What other areas do in the same transaction when a board goes (custom fields archive the board's own). */
  hooks: {
    boardDeleted?: (trx: Kysely<Database>, clock: Context["clock"], boardId: string) => Promise<void>;
    /** Requests changed board (moved, or handed to the default by a deleted board): their history records it. */
    requestsMoved?: (trx: Kysely<Database>, clock: Context["clock"], move: { appId: string; toBoardId: string; moves: readonly BoardMove[]; actor: string }) => Promise<void>;
  } = {},
): void {
  const db = ctx.db.kysely;

  /** Runs a write in one transaction, then drops the cached public answers of the board's app. */
  const write = <T extends { appId: string }>(work: (trx: Kysely<Database>) => Promise<T>) => writeAppRow(ctx, work);
  const withCount = async (row: BoardRow) => toBoard(row, (await requestCounts(db, row.appId)).get(row.id) ?? 0);

  app.get(
    "/workspaces/:wsId/apps/:appId/boards",
    { schema: { tags, summary: "Every board of an app, private ones included, by position", params: AppParams, response: { 200: BoardsResponseSchema } } },
    async (request) => {
      await workspaceAccess(ctx, request, request.params.wsId);
      const appRow = await findAppInWorkspace(db, request.params.wsId, request.params.appId);
      const [rows, counts] = await Promise.all([listBoards(db, appRow.id), requestCounts(db, appRow.id)]);
      return { boards: rows.map((row) => toBoard(row, counts.get(row.id) ?? 0)) };
    },
  );

  app.post(
    "/workspaces/:wsId/apps/:appId/boards",
    { schema: { tags, summary: "Add a board to an app", params: AppParams, body: CreateBoardBodySchema, response: { 201: BoardSchema } } },
    async (request, reply) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "app.configure");
      const appRow = await findAppInWorkspace(db, request.params.wsId, request.params.appId);
      const row = await write((trx) => createBoard(trx, ctx.clock, appRow.id, request.body));
      return reply.code(201).send(toBoard(row, 0));
    },
  );

  app.post(
    "/workspaces/:wsId/apps/:appId/boards/reorder",
    { schema: { tags, summary: "Set the order of every board of the app", params: AppParams, body: ReorderBoardsBodySchema, response: { 200: BoardsResponseSchema } } },
    async (request) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "app.configure");
      const appRow = await findAppInWorkspace(db, request.params.wsId, request.params.appId);
      const { rows } = await write(async (trx) => ({ appId: appRow.id, rows: await reorderBoards(trx, ctx.clock, appRow.id, request.body.boardIds) }));
      const counts = await requestCounts(db, appRow.id);
      return { boards: rows.map((row) => toBoard(row, counts.get(row.id) ?? 0)) };
    },
  );

  app.get(
    "/workspaces/:wsId/boards/:boardId",
    { schema: { tags, summary: "One board", params: BoardParams, response: { 200: BoardSchema } } },
    async (request) => {
      await workspaceAccess(ctx, request, request.params.wsId);
      return withCount(await findBoardInWorkspace(db, request.params.wsId, request.params.boardId));
    },
  );

  app.patch(
    "/workspaces/:wsId/boards/:boardId",
    {
      schema: {
        tags,
        summary: "Rename, describe, change the visibility or access rule of a board, or make it the default",
        params: BoardParams,
        body: UpdateBoardBodySchema,
        response: { 200: BoardSchema },
      },
    },
    async (request) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "app.configure");
      return withCount(await write((trx) => updateBoard(trx, ctx.clock, request.params.wsId, request.params.boardId, request.body)));
    },
  );

  app.delete(
    "/workspaces/:wsId/boards/:boardId",
    { schema: { tags, summary: "Delete a board; its requests move to the default board and its own custom fields are archived", params: BoardParams, response: { 200: Success } } },
    async (request) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "app.configure");
      await write(async (trx) => {
        const board = await deleteBoard(trx, ctx.clock, request.params.wsId, request.params.boardId);
        await hooks.requestsMoved?.(trx, ctx.clock, { appId: board.appId, toBoardId: board.movedTo.id, moves: board.moves, actor: actorOf(principalOf(request)) });
        // Its requests move to the default board with their values; its own fields are asked no more.
        await hooks.boardDeleted?.(trx, ctx.clock, board.id);
        return board;
      });
      return { success: true };
    },
  );

  app.post(
    "/workspaces/:wsId/apps/:appId/feature-requests/move",
    {
      schema: {
        tags,
        summary: "Move requests to another board of the app",
        description: "Votes, comments and followers stay with each request. Ids that are not requests of this app are skipped; `moved` counts the requests that changed board.",
        params: AppParams,
        body: MoveRequestsBodySchema,
        response: { 200: MoveRequestsResponseSchema },
      },
    },
    async (request) => {
      const { role } = await workspaceAccess(ctx, request, request.params.wsId);
      requireCapability(role, "content.manage");
      const appRow = await findAppInWorkspace(db, request.params.wsId, request.params.appId);
      const board = await findBoardInWorkspace(db, request.params.wsId, request.body.boardId);
      if (board.appId !== appRow.id) throw new ApiError("board_not_found");
      const moved = await write(async (trx) => {
        const moves = await moveRequests(trx, ctx.clock, board, request.body.featureRequestIds);
        await hooks.requestsMoved?.(trx, ctx.clock, { appId: appRow.id, toBoardId: board.id, moves, actor: actorOf(principalOf(request)) });
        return { appId: appRow.id, moves };
      });
      return { moved: moved.moves.length };
    },
  );
}
