import { MAX_BOARDS_PER_APP } from "@tidings/protocol";
import type { Kysely } from "kysely";
import { createBoard, listBoards, type BoardRow } from "../boards/boards.js";
import type { Clock } from "../clock.js";
import type { Database } from "../db/schema.js";
import { ImportMappingError } from "./import-errors.js";
import type { SourceBoard } from "./import-records.js";
import { nameKey } from "./source-values.js";

/** Longest board name, as the console takes it. */
const MAX_BOARD_NAME = 80;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Where an import puts requests, from `--board` and `--board-map`. */
export interface BoardPlacement {
  /** The board (slug or name) of requests whose source names none; default: the app's default board. */
  target: string | undefined;
  /** A source board's name → a board of the app (slug or name). */
  map: Record<string, string>;
}

/**
 * The app's boards an import's requests land on. A source board lands on the board `--board-map`
 * names for it, else on the app's board of the same name or slug, else on a new board of that
 * name, created once in the import's transaction, but only when the source says the board is
 * public. A board private there, or whose access the input does not tell (a CSV, Canny posts
 * without `boards*.json`), is never created and never poured into a public board: who may read it
 * is the team's decision (a private board here admits identified users by a rule, which no source
 * carries), so the import stops and says how to place it. Such boards are collected while the
 * input is read and {@link problems} names them all at once.
 */
export class ImportedBoards {
  /** Names of the boards this import created. */
  readonly created: string[] = [];
  readonly #boards: BoardRow[];
  readonly #resolved = new Map<string, string | null>();
  readonly #problems: string[] = [];

  private constructor(
    private readonly trx: Kysely<Database>,
    private readonly clock: Clock,
    private readonly appId: string,
    boards: BoardRow[],
    private readonly target: BoardRow,
    private readonly mapped: Map<string, BoardRow>,
    private readonly note: (message: string) => void,
  ) {
    this.#boards = boards;
  }

  /** Reads the app's boards and checks the options' boards; throws {@link ImportMappingError} for one the app has not. */
  static async open(trx: Kysely<Database>, clock: Clock, appId: string, placement: BoardPlacement, note: (message: string) => void): Promise<ImportedBoards> {
    const boards = await listBoards(trx, appId);
    const named = (option: string, ref: string): BoardRow => {
      const board = findBoard(boards, ref, null);
      if (board === undefined) throw new ImportMappingError(`${option}: "${ref}" is not a board of the app (its boards: ${boards.map((b) => b.slug).join(", ")})`);
      return board;
    };
    const target = placement.target === undefined ? boards.find((b) => b.isDefault === 1)! : named("--board", placement.target);
    const mapped = new Map(Object.entries(placement.map).map(([from, to]) => [nameKey(from), named("--board-map", to)]));
    return new ImportedBoards(trx, clock, appId, boards, target, mapped, note);
  }

  /** Source boards that could not be placed, one message each; the import must not be kept when there are any. */
  get problems(): readonly string[] {
    return this.#problems;
  }

  /**
   * The id of the board a request of `board` goes to, creating the board the first time it is
   * needed; null when the board cannot be placed (named in {@link problems}).
   */
  async resolve(board: SourceBoard | null): Promise<string | null> {
    if (board === null) return this.target.id;
    const key = nameKey(board.name);
    const known = this.#resolved.get(key);
    if (known !== undefined) return known;
    const id = this.mapped.get(key)?.id ?? (await this.#place(board));
    this.#resolved.set(key, id);
    return id;
  }

  async #place(board: SourceBoard): Promise<string | null> {
    const place = `place it with --board-map "${board.name}=<board>"`;
    const existing = findBoard(this.#boards, board.name, board.slug);
    if (existing !== undefined) {
      if (board.private === true && existing.visibility === "public") {
        return this.#problem(`board "${board.name}" is private there, but the app's board "${existing.slug}" is public: make that board private in the console, or ${place}`);
      }
      return existing.id;
    }
    if (board.private !== false) {
      return this.#problem(
        board.private === true
          ? `board "${board.name}" is private there and the app has no board by that name: create it in the console with the access it should have, or ${place}`
          : `board "${board.name}" is not a board of the app, and the input does not say whether it is public: create it in the console, or ${place} (Canny: save its boards/list page as boards-0.json)`,
      );
    }
    const name = board.name.trim();
    if ([...name].length > MAX_BOARD_NAME) return this.#problem(`board "${board.name}" has a name longer than ${MAX_BOARD_NAME} characters: ${place}`);
    if (this.#boards.length >= MAX_BOARDS_PER_APP) return this.#problem(`board "${board.name}" would be one board too many (an app has at most ${MAX_BOARDS_PER_APP}): ${place}`);
    const row = await createBoard(this.trx, this.clock, this.appId, { name, visibility: "public", ...(board.slug !== null && SLUG.test(board.slug) && board.slug.length <= 64 ? { slug: board.slug } : {}) });
    this.#boards.push(row);
    this.created.push(row.name);
    this.note(`board "${row.name}" created (public, as it is there)`);
    return row.id;
  }

  #problem(message: string): null {
    this.#problems.push(message);
    return null;
  }
}

/** The board named by `ref` (a name, case-insensitive, or a slug), or by the source's own slug. */
function findBoard(boards: readonly BoardRow[], ref: string, slug: string | null): BoardRow | undefined {
  const key = nameKey(ref);
  return boards.find((b) => nameKey(b.name) === key) ?? boards.find((b) => b.slug === key || (slug !== null && b.slug === slug));
}
