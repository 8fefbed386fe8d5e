import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { FakeClock } from "@tidings/testing/fake-clock";
import { openTestDatabase, testDialects } from "@tidings/testing/test-database";
import { seedDemo } from "./seed-demo.js";

describe.each(testDialects())("demo workspace on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it("gives the demo app a realistic board of requests, votes and comments", async () => {
    const res = await t.app.inject({ url: "/api/v1/feature-requests?appKey=app_demo&sort=top&limit=200" });
    expect(res.statusCode).toBe(200);
    const { requests, total } = res.json();
    expect(total).toBe(11); // one more waits for approval
    expect(requests[0]).toMatchObject({ title: "Dark mode", voteCount: 42, status: "shipped", commentCount: 2 });
    expect(new Set(requests.map((r: { status: string }) => r.status))).toEqual(new Set(["under-review", "planned", "in-progress", "shipped"]));
    const search = await t.app.inject({ url: "/api/v1/feature-requests?appKey=app_demo&q=cafe" });
    expect(search.json().requests.map((r: { title: string }) => r.title)).toEqual(["Café mode: larger buttons"]);
  });

  it("seeds only into an empty database", async () => {
    expect(await seedDemo(t.database.db.kysely, t.clock, t.database.db.dialect)).toBe(false);
  });

  it("seeds once when several instances start on one empty database at the same time", async () => {
    const database = await openTestDatabase(dialect);
    try {
      const clock = new FakeClock();
      const seeded = await Promise.all(Array.from({ length: 4 }, () => seedDemo(database.db.kysely, clock, database.db.dialect)));
      expect(seeded.filter(Boolean)).toHaveLength(1);
      const workspaces = await database.db.kysely.selectFrom("workspaces").select("slug").execute();
      expect(workspaces).toEqual([{ slug: "demo" }]);
    } finally {
      await database.cleanup();
    }
  });
});
