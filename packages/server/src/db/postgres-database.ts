import { Kysely, PostgresDialect, type LogEvent } from "kysely";
import pg from "pg";
import { isDeadlock } from "./constraint-violations.js";
import { createGroupCommit } from "./group-commit.js";
import { useNamedStatements } from "./named-statements.js";
import { listenOn } from "./postgres-listen.js";
import { ShapedCamelCase } from "./postgres-rows.js";
import type { Database } from "./schema.js";

const INT8_OID = 20;

/**
 * Shared transactions PostgreSQL runs at once (each holds a pooled connection while it runs).
 * While one waits for its commit to be flushed, the others fill up. Since the votes of a
 * transaction are applied in one round trip (`apply_votes`), fewer lanes make larger batches:
 * four gave 1.2–1.3× the votes of eight over HTTP with 100 clients (docs/postgresql.md).
 */
export const POSTGRES_COMMIT_LANES = 4;

/** Connections of the PostgreSQL pool: one per commit lane, and six for reads. */
const POSTGRES_POOL_SIZE = POSTGRES_COMMIT_LANES + 6;

/**
 * The PostgreSQL side of `openDatabase`: a pool whose bigints read as numbers, named statements
 * on each connection, {@link POSTGRES_COMMIT_LANES} shared transactions at once, and LISTEN.
 * `schema` becomes the search path.
 */
export function openPostgres(url: string, schema: string | undefined, log: { log?: (event: LogEvent) => void }) {
  const searchPath = schema === undefined ? undefined : `-c search_path=${schema}`;
  const pool = new pg.Pool({
    connectionString: url,
    max: POSTGRES_POOL_SIZE,
    ...(searchPath === undefined ? {} : { options: searchPath }),
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === INT8_OID ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as "text")) as never,
    },
  });
  pool.on("connect", useNamedStatements);
  const kysely = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    plugins: [new ShapedCamelCase()],
    ...log,
  });
  return {
    kysely,
    sharedTransaction: createGroupCommit(kysely, { lanes: POSTGRES_COMMIT_LANES, retryable: isDeadlock }),
    listen: (channel: string, onNotify: () => void, onLost: (error: Error) => void) => listenOn({ connectionString: url, ...(searchPath === undefined ? {} : { options: searchPath }) }, channel, onNotify, onLost),
    destroy: () => kysely.destroy(),
  };
}
