import { describe, expect, it } from "vitest";
import { createTestApp } from "../testing/test-app.js";
import { testDialects } from "../testing/test-database.js";
import { enqueueJobs } from "./queue.js";

describe.each(testDialects())("draining the job runner on %s", (dialect) => {
  it("finishes the job in progress and leaves the rest for another instance", async () => {
    const t = await createTestApp(dialect, { demo: false });
    try {
      const ran: string[] = [];
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let started!: () => void;
      const first = new Promise<void>((resolve) => (started = resolve));
      t.app.jobs.handle("probe", async (payload) => {
        ran.push(payload as string);
        if (ran.length === 1) {
          started();
          await gate;
        }
      });
      const db = t.database.db.kysely;
      await enqueueJobs(db, t.clock, ["a", "b", "c"].map((name) => ({ kind: "probe", dedupeKey: `probe:${name}`, payload: name })));
      const tick = t.app.jobs.tick();
      await first;
      const stopping = t.app.jobs.stop();
      release();
      await Promise.all([tick, stopping]);
      expect(ran).toHaveLength(1);
      const rows = await db.selectFrom("jobs").select(["payload", "status"]).where("kind", "=", "probe").execute();
      expect(rows.map((row) => [JSON.parse(row.payload), row.status]).sort()).toEqual(
        ["a", "b", "c"].map((name) => [name, name === ran[0] ? "done" : "pending"]),
      );
    } finally {
      await t.close();
    }
  });
});
