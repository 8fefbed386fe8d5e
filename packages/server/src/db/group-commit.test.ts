import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql, type Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeClock } from "@tidings/testing/fake-clock";
import { openTestDatabase, testDialects, type TestDatabase } from "@tidings/testing/test-database";
import { createWorkspace } from "../workspaces/workspaces.js";
import { openDatabase, type Db } from "./database.js";
import { createGroupCommit } from "./group-commit.js";
import type { Batch, Outcome } from "./shared-work.js";
import type { Database } from "./schema.js";

const clock = new FakeClock();

/** A promise settled from outside, and whether it has settled. */
function deferred() {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A sync that settles only when the test says so, and every sync asked for so far. */
function heldSyncs() {
  const syncs: Array<ReturnType<typeof deferred>> = [];
  const sync = () => {
    const d = deferred();
    syncs.push(d);
    return d.promise;
  };
  return { syncs, sync };
}

function track<T>(promise: Promise<T>) {
  const state = { settled: false };
  promise.then(
    () => (state.settled = true),
    () => (state.settled = true),
  );
  return state;
}

const slugs = async (db: Db, prefix: string) =>
  (await db.kysely.selectFrom("workspaces").select("slug").where("slug", "like", `${prefix}%`).orderBy("slug").execute()).map((r) => r.slug);

describe.each(testDialects())("shared transactions on %s", (dialect) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase(dialect);
  });
  afterAll(() => t.cleanup());

  it("a unit that fails rolls back its own writes only", async () => {
    const results = await Promise.allSettled(
      ["keep-a", "drop-b", "keep-c"].map((slug) =>
        t.db.sharedTransaction(async (trx) => {
          await createWorkspace(trx, clock, { name: slug, slug }, null);
          if (slug.startsWith("drop")) throw new Error(`refused ${slug}`);
          return slug;
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(results[1]).toMatchObject({ reason: new Error("refused drop-b") });
    expect(await slugs(t.db, "keep-")).toEqual(["keep-a", "keep-c"]);
    expect(await slugs(t.db, "drop-")).toEqual([]);
  });

  it("runs the units of a batch in one call, in order, and settles each with its own outcome", async () => {
    const calls: string[][] = [];
    const batch: Batch<string, string> = {
      async run(trx, inputs) {
        calls.push(inputs);
        const outcomes: Array<Outcome<string>> = [];
        for (const slug of inputs) {
          if (slug.startsWith("batch-drop")) outcomes.push({ ok: false, error: new Error(`refused ${slug}`) });
          else {
            await createWorkspace(trx, clock, { name: slug, slug }, null);
            outcomes.push({ ok: true, value: slug.toUpperCase() });
          }
        }
        return outcomes;
      },
    };
    // One key: every unit in the same transaction, a plain unit between the batch's units.
    const results = await Promise.allSettled([
      t.db.sharedTransaction({ batch, input: "batch-a" }, "k"),
      t.db.sharedTransaction(async (trx) => (await createWorkspace(trx, clock, { name: "plain", slug: "batch-plain" }, null)).workspace.slug, "k"),
      t.db.sharedTransaction({ batch, input: "batch-drop-b" }, "k"),
      t.db.sharedTransaction({ batch, input: "batch-c" }, "k"),
    ]);
    expect(calls).toEqual([["batch-a", "batch-drop-b", "batch-c"]]);
    expect(results).toEqual([
      { status: "fulfilled", value: "BATCH-A" },
      { status: "fulfilled", value: "batch-plain" },
      { status: "rejected", reason: new Error("refused batch-drop-b") },
      { status: "fulfilled", value: "BATCH-C" },
    ]);
    expect(await slugs(t.db, "batch-")).toEqual(["batch-a", "batch-c", "batch-plain"]);
  });

  it("rolls back the whole call and fails its units only when a batch throws", async () => {
    const batch: Batch<string, string> = {
      async run(trx, inputs) {
        for (const slug of inputs) await createWorkspace(trx, clock, { name: slug, slug }, null);
        throw new Error("the batch broke");
      },
    };
    const results = await Promise.allSettled([
      t.db.sharedTransaction({ batch, input: "broken-a" }, "k"),
      t.db.sharedTransaction(async (trx) => (await createWorkspace(trx, clock, { name: "kept", slug: "broken-kept" }, null)).workspace.slug, "k"),
      t.db.sharedTransaction({ batch, input: "broken-b" }, "k"),
    ]);
    expect(results.map((r) => (r.status === "fulfilled" ? r.value : (r.reason as Error).message))).toEqual(["the batch broke", "broken-kept", "the batch broke"]);
    expect(await slugs(t.db, "broken-")).toEqual(["broken-kept"]);
  });
});

describe("group commit on SQLite", () => {
  let dir: string;
  let db: Db;
  beforeAll(async () => {
    const opened = await openTestDatabase("sqlite");
    db = opened.db;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-gc-"));
    return () => opened.cleanup();
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("units of one turn share one commit and settle only once it is synced", async () => {
    const { syncs, sync } = heldSyncs();
    const shared = createGroupCommit(db.kysely, { sync });
    const units = ["gc-1", "gc-2", "gc-3"].map((slug) => shared(async (trx) => (await createWorkspace(trx, clock, { name: slug, slug }, null)).workspace.slug));
    const states = units.map(track);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Committed, but not acknowledged before the sync.
    expect(await slugs(db, "gc-")).toEqual(["gc-1", "gc-2", "gc-3"]);
    expect(syncs).toHaveLength(1);
    expect(states.map((s) => s.settled)).toEqual([false, false, false]);
    syncs[0]!.resolve();
    expect(await Promise.all(units)).toEqual(["gc-1", "gc-2", "gc-3"]);
    // Back to fully synchronous commits for everything else on the connection.
    const mode = await sql<{ synchronous: number }>`pragma synchronous`.execute(db.kysely);
    expect(mode.rows[0]?.synchronous).toBe(2);
  });

  it("each transaction waits for its own sync only, not for one already in flight", async () => {
    const { syncs, sync } = heldSyncs();
    const shared = createGroupCommit(db.kysely, { sync });
    const early = shared((trx) => createWorkspace(trx, clock, { name: "early", slug: "gf-early" }, null));
    const earlyState = track(early);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const late = shared((trx) => createWorkspace(trx, clock, { name: "late", slug: "gf-late" }, null));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(syncs).toHaveLength(2);
    syncs[1]!.resolve();
    await late;
    expect(earlyState.settled).toBe(false);
    syncs[0]!.resolve();
    await early;
  });

  it("a failed sync rejects every unit of its transaction", async () => {
    const shared = createGroupCommit(db.kysely, { sync: () => Promise.reject(new Error("EIO: sync failed")) });
    const results = await Promise.allSettled(["gs-1", "gs-2"].map((slug) => shared((trx) => createWorkspace(trx, clock, { name: slug, slug }, null))));
    expect(results.map((r) => (r.status === "rejected" ? String(r.reason) : "ok"))).toEqual(["Error: EIO: sync failed", "Error: EIO: sync failed"]);
  });

  it("the real sync makes a file database's commits durable before answering", async () => {
    const file = path.join(dir, "real.db");
    const real = openDatabase(`sqlite:${file}`);
    try {
      await sql`create table notes (body text not null)`.execute(real.kysely);
      const written = await Promise.all([1, 2, 3].map((n) => real.sharedTransaction((trx) => sql`insert into notes (body) values (${`n${n}`})`.execute(trx))));
      expect(written).toHaveLength(3);
      expect(fs.existsSync(`${file}-wal`)).toBe(true);
      const rows = await sql<{ body: string }>`select body from notes order by body`.execute(real.kysely);
      expect(rows.rows.map((r) => r.body)).toEqual(["n1", "n2", "n3"]);
    } finally {
      await real.destroy();
    }
  });
});

describe.skipIf(!testDialects().includes("postgres"))("group commit on PostgreSQL", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase("postgres");
  });
  afterAll(() => t.cleanup());

  const txid = (trx: Kysely<Database>) =>
    sql<{ id: string }>`select txid_current()::text as id`.execute(trx).then((r) => r.rows[0]!.id);

  it("units of one turn with one key share one transaction; other keys may run beside it", async () => {
    const same = await Promise.all(Array.from({ length: 6 }, () => t.db.sharedTransaction(txid, "fr_same")));
    expect(new Set(same).size).toBe(1);
    const spread = await Promise.all(Array.from({ length: 40 }, (_, i) => t.db.sharedTransaction(txid, `fr_${i}`)));
    expect(new Set(spread).size).toBeGreaterThan(1);
  });

  it("runs a unit again in a later transaction after a retryable error, and only then", async () => {
    const shared = createGroupCommit(t.db.kysely, { lanes: 2, retryable: (error) => error instanceof Error && error.message === "deadlock" });
    const runs: string[] = [];
    const retried = shared(async (trx) => {
      runs.push(await txid(trx));
      await createWorkspace(trx, clock, { name: `retried ${runs.length}`, slug: `gr-retried-${runs.length}` }, null);
      if (runs.length === 1) throw new Error("deadlock");
      return runs.length;
    });
    const failed = expect(shared(() => Promise.reject(new Error("refused")))).rejects.toThrow("refused");
    expect(await retried).toBe(2);
    await failed;
    expect(new Set(runs).size).toBe(2);
    // The first run's writes were rolled back with it.
    expect(await slugs(t.db, "gr-")).toEqual(["gr-retried-2"]);
  });
  /** Whether two statements on `db` ran in transactions of their own. */
  const ownTransactions = async (db: Kysely<Database>) => (await txid(db)) !== (await txid(db));

  it("sends a batch alone, as its own transaction, when the transaction would hold its units and nothing else", async () => {
    const shared = createGroupCommit(t.db.kysely, { lanes: 1 });
    const calls: Array<{ via: string; inputs: string[]; own: boolean }> = [];
    const batch: Batch<string, string> = {
      async run(trx, inputs) {
        calls.push({ via: "run", inputs, own: await ownTransactions(trx) });
        return inputs.map((input) => ({ ok: true, value: input }));
      },
      async alone(db, inputs) {
        calls.push({ via: "alone", inputs, own: await ownTransactions(db) });
        return inputs[0] === "declined" ? undefined : inputs.map((input) => ({ ok: true, value: input.toUpperCase() }));
      },
    };
    expect(await Promise.all([shared({ batch, input: "a" }), shared({ batch, input: "b" })])).toEqual(["A", "B"]);
    // Another unit in the same transaction: the batch runs inside it.
    expect(await Promise.all([shared({ batch, input: "c" }), shared(async () => "plain")])).toEqual(["c", "plain"]);
    // Declined: the transaction runs after all.
    expect(await shared({ batch, input: "declined" })).toBe("declined");
    expect(calls).toEqual([
      { via: "alone", inputs: ["a", "b"], own: true },
      { via: "run", inputs: ["c"], own: false },
      { via: "alone", inputs: ["declined"], own: true },
      { via: "run", inputs: ["declined"], own: false },
    ]);
  });

  it("fails every unit of a batch sent alone with the statement's error, and runs it no other way", async () => {
    const shared = createGroupCommit(t.db.kysely, { lanes: 1 });
    let runs = 0;
    const batch: Batch<string, string> = {
      async run() {
        runs++;
        return [];
      },
      async alone(db) {
        await sql`select 1 / 0`.execute(db);
        return [];
      },
    };
    const results = await Promise.allSettled([shared({ batch, input: "x" }), shared({ batch, input: "y" })]);
    expect(results.map((r) => (r.status === "rejected" ? (r.reason as Error).message : "fulfilled"))).toEqual(["division by zero", "division by zero"]);
    expect(runs).toBe(0);
  });
});
