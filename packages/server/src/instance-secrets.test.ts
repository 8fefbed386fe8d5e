import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INSTANCE_SECRET_KEYS } from "./instance-secrets.js";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";

describe.each(testDialects())("instance secrets on %s", (dialect) => {
  let t: TestApp;
  const settings = async () =>
    (await t.database.db.kysely.selectFrom("serverSettings").select(["key", "value"]).orderBy("key").execute()).map((row) => `${row.key}=${row.value}`);

  beforeAll(async () => {
    t = await createTestApp(dialect, { demo: false });
  });
  afterAll(() => t.close());

  it("are all made when the app is built, before any request", async () => {
    const keys = (await settings()).map((entry) => entry.split("=")[0]);
    expect(keys).toEqual([...INSTANCE_SECRET_KEYS].sort());
  });

  it("are not written by a refused first-run setup", async () => {
    const before = await settings();
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/console/auth/setup",
      payload: { email: "owner@example.com", password: "a long enough password", name: "Owner", setupCode: "wrong-code-0000000000" },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: "invalid_setup_code" });
    expect(await settings()).toEqual(before);
  });
});
