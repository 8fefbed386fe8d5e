import { afterEach, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { openDatabase } from "../db/database.js";
import { GENEROUS_RATE_LIMITS, createTestApp, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import { setupCode } from "./setup-code.js";

const OWNER = { email: "owner@acme.example", password: "correct horse battery", name: "Olivia Owner" };
const SETUP = "/api/v1/console/auth/setup";

describe.each(testDialects())("first-run setup code on %s", (dialect) => {
  let t: TestApp;
  const closing: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
  });
  const open = async (...args: Parameters<typeof createTestApp> extends [unknown, ...infer R] ? R : never) => {
    t = await createTestApp(dialect, ...args);
    closing.push(() => t.close());
    return t;
  };
  const post = async (app: TestApp["app"], payload: Record<string, unknown>) => {
    const res = await app.inject({ method: "POST", url: SETUP, payload });
    return { status: res.statusCode, body: res.json() };
  };
  const nobodyYet = async () => {
    const users = await t.database.db.kysely.selectFrom("consoleUsers").select("id").execute();
    const session = await t.app.inject({ url: "/api/v1/console/auth/session" });
    return { users: users.length, setupRequired: session.json().setupRequired };
  };

  it("refuses setup without the code or with a wrong one, and writes nothing", async () => {
    await open({ rateLimits: GENEROUS_RATE_LIMITS });
    const code = await setupCode(t.app.ctx);
    expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{5}(-[0-9a-hjkmnp-tv-z]{5}){3}$/);
    for (const setupCode of [undefined, "", "wrong", code.toUpperCase(), `${code}x`, code.slice(0, -1), " ".repeat(20)]) {
      const res = await post(t.app, { ...OWNER, ...(setupCode === undefined ? {} : { setupCode }) });
      expect([res.status, res.body.code], String(setupCode)).toEqual([403, "invalid_setup_code"]);
    }
    expect(await nobodyYet()).toEqual({ users: 0, setupRequired: true });
    expect((await post(t.app, { ...OWNER, setupCode: ` ${code} ` })).status).toBe(201);
    // Done: the code no longer opens anything.
    const again = await post(t.app, { ...OWNER, email: "second@acme.example", setupCode: code });
    expect([again.status, again.body.code]).toEqual([409, "setup_done"]);
  });

  it("counts code attempts in the login bucket of the address", async () => {
    await open({ rateLimits: { ...GENEROUS_RATE_LIMITS, login: { limit: 3, windowSeconds: 60 } } });
    const code = await setupCode(t.app.ctx);
    for (const guess of ["guess-1", "guess-2", "guess-3"]) expect((await post(t.app, { ...OWNER, setupCode: guess })).status).toBe(403);
    const limited = await post(t.app, { ...OWNER, setupCode: code });
    expect([limited.status, limited.body.code]).toEqual([429, "rate_limited"]);
    expect(await nobodyYet()).toEqual({ users: 0, setupRequired: true });
    t.clock.advance(61_000);
    expect((await post(t.app, { ...OWNER, setupCode: code })).status).toBe(201);
  });

  it("accepts on every instance of a database the code any one of them printed", async () => {
    await open({ rateLimits: GENEROUS_RATE_LIMITS });
    // A second process: its own database handle and app, the same database.
    const db = openDatabase(t.database.url, t.database.schema === undefined ? {} : { schema: t.database.schema });
    const other = await buildApp({ ...t.app.ctx.config }, { db, clock: t.clock, logger: false });
    closing.push(async () => {
      await other.close();
      await db.destroy();
    });
    const printedByOther = await setupCode(other.ctx);
    expect(await setupCode(t.app.ctx)).toBe(printedByOther);
    expect((await post(t.app, { ...OWNER, setupCode: printedByOther })).status).toBe(201);
  });

  it("takes the code from TIDINGS_SETUP_CODE when set, and only that one", async () => {
    await open({ rateLimits: GENEROUS_RATE_LIMITS, setupCode: "operator-chosen-code-42" });
    // The code this database would give without the variable.
    const generated = await setupCode({ ...t.app.ctx, config: { ...t.app.ctx.config, setupCode: null } });
    expect((await post(t.app, { ...OWNER, setupCode: generated })).status).toBe(403);
    expect((await post(t.app, { ...OWNER, setupCode: "operator-chosen-code-42" })).status).toBe(201);
  });
});
