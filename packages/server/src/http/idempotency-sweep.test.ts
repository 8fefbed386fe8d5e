import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeClock } from "@tidings/testing/fake-clock";
import { openTestDatabase, testDialects, type TestDatabase } from "@tidings/testing/test-database";
import { IDEMPOTENCY_TTL_MS, reserve, type Reservation } from "./idempotency-store.js";
import { sweepIdempotencyKeys } from "./idempotency-sweep.js";

describe.each(testDialects())("idempotency key sweep on %s", (dialect) => {
  let t: TestDatabase;
  const clock = new FakeClock();
  beforeAll(async () => {
    t = await openTestDatabase(dialect);
  });
  afterAll(() => t.cleanup());

  const sealKey = randomBytes(32);
  const attempt = (): Reservation => ({
    scopeHash: randomBytes(32).toString("hex"),
    keyHash: randomBytes(32).toString("hex"),
    attempt: randomBytes(16).toString("hex"),
    sealKey,
  });
  const rowOf = (r: Reservation) =>
    t.db.kysely.selectFrom("idempotencyKeys").selectAll().where("scopeHash", "=", r.scopeHash).where("keyHash", "=", r.keyHash).executeTakeFirst();

  it("sweeps keys past their 24 hours and only those", async () => {
    const old = attempt();
    await reserve(t.db.kysely, clock, old, "fp");
    clock.advance(IDEMPOTENCY_TTL_MS - 1);
    const young = attempt();
    await reserve(t.db.kysely, clock, young, "fp");
    clock.advance(1);
    expect(await sweepIdempotencyKeys(t.db.kysely, clock)).toBeGreaterThanOrEqual(1);
    expect(await rowOf(old)).toBeUndefined();
    expect(await rowOf(young)).toBeDefined();
  });
});
