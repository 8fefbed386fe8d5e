import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeClock } from "@tidings/testing/fake-clock";
import { openTestDatabase, testDialects, type TestDatabase } from "@tidings/testing/test-database";
import {
  IDEMPOTENCY_LEASE_MS,
  keepAnswer,
  markWritten,
  reserve,
  settleRefusal,
  type Reservation,
} from "./idempotency-store.js";

describe.each(testDialects())("idempotency key store on %s", (dialect) => {
  let t: TestDatabase;
  const clock = new FakeClock();
  beforeAll(async () => {
    t = await openTestDatabase(dialect);
  });
  afterAll(() => t.cleanup());

  const sealKey = randomBytes(32);
  /** A reservation of one scope and key by one attempt; `of` shares another's scope and key. */
  const attempt = (of?: Reservation): Reservation => ({
    scopeHash: of?.scopeHash ?? randomBytes(32).toString("hex"),
    keyHash: of?.keyHash ?? randomBytes(32).toString("hex"),
    attempt: randomBytes(16).toString("hex"),
    sealKey,
  });
  const answer = { statusCode: 201, headers: { "content-type": "application/json; charset=utf-8" }, body: '{"ok":true}' };
  const rowOf = (r: Reservation) =>
    t.db.kysely.selectFrom("idempotencyKeys").selectAll().where("scopeHash", "=", r.scopeHash).where("keyHash", "=", r.keyHash).executeTakeFirst();
  /** A write of the request (a server setting) with its mark, in one transaction. */
  const writeWith = (r: Reservation, name: string) =>
    t.db.kysely.transaction().execute(async (trx) => {
      await trx.insertInto("serverSettings").values({ key: name, value: "1", createdAt: clock.now().toISOString() }).execute();
      await markWritten(trx, r);
    });
  const written = async (name: string) => (await t.db.kysely.selectFrom("serverSettings").select("key").where("key", "=", name).executeTakeFirst()) !== undefined;

  it("lets exactly one of ten concurrent requests take a key", async () => {
    const first = attempt();
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => reserve(t.db.kysely, clock, attempt(first), "fp")));
    expect(outcomes.filter((o) => o.kind === "reserved")).toHaveLength(1);
    expect(outcomes.filter((o) => o.kind === "in_use")).toHaveLength(9);
  });

  it("replays a kept answer for the same fingerprint and refuses another", async () => {
    const r = attempt();
    expect(await reserve(t.db.kysely, clock, r, "fp")).toEqual({ kind: "reserved" });
    await keepAnswer(t.db.kysely, r, answer);
    expect(await reserve(t.db.kysely, clock, attempt(r), "fp")).toEqual({ kind: "replay", answer });
    expect(await reserve(t.db.kysely, clock, attempt(r), "other")).toEqual({ kind: "reused" });
    // Kept sealed: neither the body nor a header in clear. (The sealed text is base64url, which
    // held "ok" by chance in about one run of eighty; it cannot hold a quote or a brace.)
    const kept = (await rowOf(r))?.responseBody;
    expect(kept).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(kept).not.toContain(answer.body);
    expect(kept).not.toContain("application/json");
  });

  it("refuses the write of a request whose abandoned reservation a retry took over", async () => {
    const slow = attempt();
    await reserve(t.db.kysely, clock, slow, "fp");
    clock.advance(IDEMPOTENCY_LEASE_MS);
    const retry = attempt(slow);
    expect(await reserve(t.db.kysely, clock, retry, "fp")).toEqual({ kind: "reserved" });
    await expect(writeWith(slow, `slow-${dialect}`)).rejects.toMatchObject({ code: "idempotency_key_in_use" });
    expect(await written(`slow-${dialect}`)).toBe(false);
    await writeWith(retry, `retry-${dialect}`);
    expect(await written(`retry-${dialect}`)).toBe(true);
    // Written: no lease makes it runnable again.
    clock.advance(IDEMPOTENCY_LEASE_MS * 10);
    expect(await reserve(t.db.kysely, clock, attempt(slow), "fp")).toEqual({ kind: "in_use" });
  });

  it("frees a refused request's key when it wrote nothing, and keeps its answer when it did", async () => {
    const refused = attempt();
    await reserve(t.db.kysely, clock, refused, "fp");
    await settleRefusal(t.db.kysely, refused, { ...answer, statusCode: 400 });
    expect(await rowOf(refused)).toBeUndefined();

    const failedAfterWrite = attempt();
    await reserve(t.db.kysely, clock, failedAfterWrite, "fp");
    await writeWith(failedAfterWrite, `after-${dialect}`);
    const failure = { ...answer, statusCode: 500, body: '{"error":"Internal error"}' };
    await settleRefusal(t.db.kysely, failedAfterWrite, failure);
    expect(await reserve(t.db.kysely, clock, attempt(failedAfterWrite), "fp")).toEqual({ kind: "replay", answer: failure });
  });
});
