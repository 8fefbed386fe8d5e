import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, GENEROUS_RATE_LIMITS, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import { MAX_LOGIN_FAILURES } from "./login-lockout.js";
import { hashPassword } from "./passwords.js";

const EMAIL = "owner@acme.example";
const PASSWORD = "correct horse battery";

describe.each(testDialects())("sign-in lockout under a burst of guesses on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { rateLimits: GENEROUS_RATE_LIMITS });
    const now = t.clock.now().toISOString();
    await t.database.db.kysely
      .insertInto("consoleUsers")
      .values({ id: "usr_owner", email: EMAIL, displayName: null, passwordHash: await hashPassword(PASSWORD), createdAt: now, updatedAt: now })
      .execute();
  });
  afterAll(() => t.close());

  const login = (password: string) =>
    t.app.inject({ method: "POST", url: "/api/v1/console/auth/login", headers: { host: "localhost:80" }, payload: { email: EMAIL, password } });

  it("counts every one of many wrong passwords sent at once, so the account locks", async () => {
    const guesses = await Promise.all(Array.from({ length: 6 * MAX_LOGIN_FAILURES }, (_, i) => login(`guess ${i}`)));
    const refused = guesses.filter((r) => r.statusCode === 401).length;
    expect(guesses.every((r) => r.statusCode === 401 || r.statusCode === 429)).toBe(true);
    const row = await t.database.db.kysely.selectFrom("consoleLoginFailures").select("failures").where("email", "=", EMAIL).executeTakeFirstOrThrow();
    expect(row.failures).toBe(refused);
    const right = await login(PASSWORD);
    expect(right.statusCode).toBe(429);
    expect(right.json().code).toBe("rate_limited");
  }, 60_000);
});
