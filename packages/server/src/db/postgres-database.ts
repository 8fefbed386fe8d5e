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
 * Settings of every pooled connection. JIT compilation is off: PostgreSQL compiles a statement
 * whose estimated cost passes `jit_above_cost` at each execution, and estimates go stale while a
 * table grows faster than it is analysed (a new board filling, a bulk import). A 100-row update of
 * the bench's seed, estimated at 2.7M, took 368 ms, 278 ms of it compiling, and 13 ms without. Our
 * statements are short and indexed, the kind JIT never pays back. A URL's own `options` parameter
 * replaces these (node-postgres lets the URL win), so an operator can turn it back on.
 */
const CONNECTION_SETTINGS = "-c jit=off";

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
    options: [CONNECTION_SETTINGS, searchPath].filter((o) => o !== undefined).join(" "),
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
