import { randomBytes } from "node:crypto";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openTestDatabase, testDialects } from "@tidings/testing/test-database";

// Test files run side by side on one PostgreSQL database, each in its own schema, and drop their
// schema when done. Kysely's migrator reads the tables of every schema, so a drop elsewhere used to
// fail a migration that had nothing to do with it (`schema "t_…" does not exist`).
describe.runIf(testDialects().includes("postgres"))("migrations on PostgreSQL while other clients drop their schemas", () => {
  it("migrate every new schema to the latest version", async () => {
    const churn = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await churn.connect();
    let stop = false;
    const churning = (async () => {
      while (!stop) {
        const schema = `churn_${randomBytes(4).toString("hex")}`;
        await churn.query(`create schema ${schema}; create table ${schema}.t (id serial primary key, a text, b text)`);
        await churn.query(`drop schema ${schema} cascade`);
      }
    })();
    try {
      for (let round = 0; round < 3; round++) {
        const databases = await Promise.all([1, 2, 3].map(() => openTestDatabase("postgres")));
        for (const d of databases) await d.cleanup();
        expect(databases).toHaveLength(3);
      }
    } finally {
      stop = true;
      await churning;
      await churn.end();
    }
  }, 60_000);
});
