import { Kysely, PostgresDialect, type LogEvent } from "kysely";
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
 * How many times a pooled connection is lent out before it is closed and replaced. Under a held
 * load a server whose connections had served for two minutes ran the same mix on the same data at
 * 0.87x the throughput of a server started beside it, and 0.98x once restarted: what slowed down
 * was its connections to PostgreSQL, not the data or the Node process (docs/capacity.md).
 * Counted in uses rather than seconds, so that a quiet instance keeps its connections (a read
 * after a quiet spell would otherwise pay for a new one, see `min` below): under that load ten
 * connections shared about 1,200 statements a second, so 3,000 uses are about 25 s each. A new
 * connection costs a few milliseconds, and each named statement is prepared again on it when
 * first used.
 */
export const POSTGRES_CONNECTION_USES = 3_000;

/**
 * Settings of every pooled connection. JIT compilation is off: PostgreSQL compiles a statement
 * whose estimated cost passes `jit_above_cost` at each execution, and estimates go stale while a
 * table grows faster than it is analysed (a new board filling, a bulk import). A 100-row update of
 * the bench's seed, estimated at 2.7M, took 368 ms, 278 ms of it compiling, and 13 ms without. Our
 * statements are short and indexed, the kind JIT never pays back. A URL's own `options` are
 * applied after these, so an operator can turn it back on (see {@link connectionOptions}).
 */
const CONNECTION_SETTINGS = "-c jit=off";

/**
 * The PostgreSQL side of `openDatabase`: a pool whose bigints read as numbers, named statements
 * on each connection, {@link POSTGRES_COMMIT_LANES} shared transactions at once, and LISTEN.
 * `schema` becomes the search path.
 */
export function openPostgres(url: string, schema: string | undefined, log: { log?: (event: LogEvent) => void }) {
  const connection = connectionOptions(url, schema);
  // node-postgres is loaded when the pool makes its first connection, not when the server starts:
  // an instance on SQLite never loads it (see docs/capacity.md, "A server at rest").
  const pool = async () => {
    const { default: pg } = await import("pg");
    const created = new pg.Pool({
      ...connection,
      max: POSTGRES_POOL_SIZE,
      // Idle connections stay open: closed after pg's default 10 s, a quiet spell's next read paid
      // for a new connection and, on it, for preparing each named statement again.
      min: POSTGRES_POOL_SIZE,
      maxUses: POSTGRES_CONNECTION_USES,
      types: {
        getTypeParser: ((oid: number, format?: string) =>
          oid === INT8_OID ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as "text")) as never,
      },
    });
    created.on("connect", useNamedStatements);
    return created;
  };
  const kysely = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    plugins: [new ShapedCamelCase()],
    ...log,
  });
  return {
    kysely,
    sharedTransaction: createGroupCommit(kysely, { lanes: POSTGRES_COMMIT_LANES, retryable: isDeadlock }),
    listen: (channel: string, onNotify: () => void, onLost: (error: Error) => void) => listenOn(connection, channel, onNotify, onLost),
    destroy: () => kysely.destroy(),
  };
}

/**
 * The connection string and the startup options of every connection: {@link CONNECTION_SETTINGS},
 * then the schema's search path, then the URL's own `options` parameter. Later settings win in
 * PostgreSQL, so the URL's do; node-postgres would instead let the URL's parameter replace the
 * others whole, so it is taken out of the connection string and appended.
 */
export function connectionOptions(url: string, schema: string | undefined): { connectionString: string; options: string } {
  const own = [CONNECTION_SETTINGS, ...(schema === undefined ? [] : [`-c search_path=${schema}`])];
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { connectionString: url, options: own.join(" ") };
  }
  const fromUrl = parsed.searchParams.get("options");
  if (fromUrl === null) return { connectionString: url, options: own.join(" ") };
  parsed.searchParams.delete("options");
  return { connectionString: parsed.toString(), options: [...own, fromUrl].join(" ") };
}
