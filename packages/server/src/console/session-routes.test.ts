import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { App } from "../http/types.js";
import { GENEROUS_RATE_LIMITS, createTestApp, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import { MAX_LOGIN_FAILURES } from "./login-lockout.js";
import { SESSION_IDLE_MS } from "./sessions.js";
import { setupCode } from "./setup-code.js";

const OWNER = { email: "Owner@Acme.example", password: "correct horse battery", name: "Olivia Owner" };
const ORIGIN = "http://localhost:80";

/** A browser in tests: keeps the session cookie and CSRF token, sends the Origin a browser would. */
function browser(app: App) {
  let cookie: string | undefined;
  let csrf: string | undefined;
  const call = async (method: string, url: string, payload?: unknown, headers: Record<string, string> = {}) => {
    const res = await app.inject({
      method: method as "GET",
      url,
      headers: {
        host: "localhost:80",
        ...(method === "GET" ? {} : { origin: ORIGIN }),
        ...(cookie === undefined ? {} : { cookie }),
        ...(csrf === undefined || method === "GET" ? {} : { "x-csrf-token": csrf }),
        ...headers,
      },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    const setCookie = res.headers["set-cookie"];
    const line = Array.isArray(setCookie) ? setCookie[0] : setCookie;
    if (line !== undefined) {
      const value = /^tidings_session=([^;]*)/.exec(line)?.[1] ?? "";
      cookie = value === "" ? undefined : `tidings_session=${value}`;
    }
    const body = res.body.length > 0 && res.headers["content-type"]?.toString().includes("json") ? res.json() : undefined;
    if (typeof body?.csrfToken === "string") csrf = body.csrfToken;
    return { status: res.statusCode, body, headers: res.headers, setCookie: line };
  };
  return {
    call,
    get: (url: string) => call("GET", url),
    post: (url: string, payload: unknown = {}, headers?: Record<string, string>) => call("POST", url, payload, headers),
    put: (url: string, payload: unknown, headers?: Record<string, string>) => call("PUT", url, payload, headers),
    get cookie() {
      return cookie;
    },
    forgetCsrf: () => (csrf = undefined),
  };
}

const AUTH = "/api/v1/console/auth";

describe.each(testDialects())("console sign-in on %s", (dialect) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(dialect, { rateLimits: GENEROUS_RATE_LIMITS });
  });
  afterEach(() => t.close());

  /** A setup body with the code this server printed. */
  const withCode = async (body: Record<string, unknown>) => ({ ...body, setupCode: await setupCode(t.app.ctx) });

  /**
   * Sends `requests` at once; on PostgreSQL new console accounts are held back until `writers` of
   * them wait to be inserted, so they all insert at the same moment and clash on the email.
   * (SQLite writes one transaction at a time, so there they simply run in parallel.)
   */
  async function atOnce<T>(writers: number, requests: () => Promise<T>): Promise<T> {
    if (dialect !== "postgres") return requests();
    const db = t.app.ctx.db.kysely;
    let sent: Promise<T> | undefined;
    await db.transaction().execute(async (trx) => {
      await sql`lock table console_users in share mode`.execute(trx);
      sent = requests();
      for (let polls = 0; ; polls++) {
        const waiting = await sql<{ n: number }>`select count(*)::int as n from pg_locks where relation = 'console_users'::regclass and not granted`.execute(db);
        if (waiting.rows[0]!.n >= writers) break;
        if (polls > 5000) throw new Error(`fewer than ${writers} requests came to create the account`);
      }
    });
    return sent!;
  }

  async function setUp() {
    const b = browser(t.app);
    const res = await b.post(`${AUTH}/setup`, await withCode(OWNER));
    expect(res.status).toBe(201);
    return b;
  }

  it("opens first-run setup once, makes the first person owner of the demo workspace and signs them in", async () => {
    const b = browser(t.app);
    expect((await b.get(`${AUTH}/session`)).body).toMatchObject({ setupRequired: true, user: null, csrfToken: null });
    const setup = await b.post(`${AUTH}/setup`, await withCode(OWNER));
    expect(setup.status).toBe(201);
    expect(setup.body.user).toMatchObject({ email: "owner@acme.example", displayName: "Olivia Owner" });
    expect(setup.setCookie).toMatch(/^tidings_session=[A-Za-z0-9_-]{43}; Path=\/api\/v1\/console; Max-Age=604800; HttpOnly; SameSite=Strict$/);

    const me = await b.get("/api/v1/console/me");
    expect(me.status).toBe(200);
    expect(me.body.workspaces).toHaveLength(1);
    expect(me.body.workspaces[0]).toMatchObject({ workspace: { slug: "demo" }, membership: { role: "owner" } });

    const again = await browser(t.app).post(`${AUTH}/setup`, await withCode({ ...OWNER, email: "intruder@evil.example" }));
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("setup_done");
    expect((await browser(t.app).get(`${AUTH}/session`)).body.setupRequired).toBe(false);
    // Only the hash of the session token is stored.
    const token = b.cookie!.split("=")[1]!;
    const rows = await t.database.db.kysely.selectFrom("consoleSessions").select("tokenHash").execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).not.toContain(token);
  });

  it("creates a workspace at setup when there is no demo workspace, and marks the cookie Secure behind https", async () => {
    await t.close();
    t = await createTestApp(dialect, { demo: false, publicUrl: "https://tidings.acme.example", rateLimits: GENEROUS_RATE_LIMITS });
    const b = browser(t.app);
    const setup = await b.post(`${AUTH}/setup`, await withCode({ ...OWNER, workspaceName: "Acme Inc" }), { origin: "https://tidings.acme.example" });
    expect(setup.status).toBe(201);
    expect(setup.setCookie).toContain("; Secure");
    const me = await b.get("/api/v1/console/me");
    expect(me.body.workspaces[0]).toMatchObject({ workspace: { name: "Acme Inc", slug: "acme-inc" }, membership: { role: "owner" } });
  });

  it("signs in with the right password, refuses a wrong one or an unknown email alike, and signs out", async () => {
    await setUp();
    const b = browser(t.app);
    const wrong = await b.post(`${AUTH}/login`, { email: OWNER.email, password: "wrong password!" });
    const unknown = await b.post(`${AUTH}/login`, { email: "nobody@acme.example", password: "wrong password!" });
    expect([wrong.status, wrong.body.code]).toEqual([401, "invalid_credentials"]);
    expect(unknown.body).toEqual(wrong.body);
    expect(b.cookie).toBeUndefined();

    const ok = await b.post(`${AUTH}/login`, { email: " owner@acme.EXAMPLE ", password: OWNER.password });
    expect(ok.status).toBe(200);
    expect(ok.body.user.email).toBe("owner@acme.example");
    expect((await b.get("/api/v1/console/me")).status).toBe(200);

    const out = await b.post(`${AUTH}/logout`);
    expect(out.status).toBe(200);
    expect(out.setCookie).toContain("Max-Age=0");
    // The old cookie value no longer works even if a copy was kept.
    const replay = await t.app.inject({ url: "/api/v1/console/me", headers: { cookie: `tidings_session=${ok.setCookie!.split(/[=;]/)[1]}` } });
    expect(replay.statusCode).toBe(401);
  });

  it(`locks an account after ${MAX_LOGIN_FAILURES} failures, even for the right password, until 15 minutes pass`, async () => {
    await setUp();
    const b = browser(t.app);
    for (let i = 0; i < MAX_LOGIN_FAILURES; i++) {
      expect((await b.post(`${AUTH}/login`, { email: OWNER.email, password: `wrong password ${i}` })).status).toBe(401);
    }
    const locked = await b.post(`${AUTH}/login`, { email: OWNER.email, password: OWNER.password });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe("rate_limited");
    expect(Number(locked.headers["retry-after"])).toBe(15 * 60);

    t.clock.advance(14 * 60 * 1000);
    expect((await b.post(`${AUTH}/login`, { email: OWNER.email, password: OWNER.password })).status).toBe(429);
    t.clock.advance(61 * 1000);
    expect((await b.post(`${AUTH}/login`, { email: OWNER.email, password: OWNER.password })).status).toBe(200);
  });

  it("limits sign-in attempts per address with the login bucket", async () => {
    await t.close();
    t = await createTestApp(dialect, { rateLimits: { ...GENEROUS_RATE_LIMITS, login: { limit: 2, windowSeconds: 60 } } });
    const b = browser(t.app);
    for (const email of ["a@acme.example", "b@acme.example"]) {
      expect((await b.post(`${AUTH}/login`, { email, password: "whatever123" })).status).toBe(401);
    }
    const third = await b.post(`${AUTH}/login`, { email: "c@acme.example", password: "whatever123" });
    expect(third.status).toBe(429);
    expect(third.headers["retry-after"]).toBe("60");
  });

  it("refuses cookie writes without the CSRF token or from another origin, and keeps bearer tokens working", async () => {
    const b = await setUp();
    const me = await b.get("/api/v1/console/me");
    const wsId: string = me.body.workspaces[0].workspace.id;

    const forged = await b.post("/api/v1/console/workspaces", { name: "X", slug: "forged" }, { "x-csrf-token": "nope" });
    expect([forged.status, forged.body.code]).toEqual([403, "csrf_failed"]);
    const crossSite = await b.put(`/api/v1/console/workspaces/${wsId}`, { name: "Pwned" }, { origin: "https://evil.example" });
    expect([crossSite.status, crossSite.body.code]).toEqual([403, "csrf_failed"]);
    b.forgetCsrf();
    const missing = await b.put(`/api/v1/console/workspaces/${wsId}`, { name: "Pwned" });
    expect([missing.status, missing.body.code]).toEqual([403, "csrf_failed"]);
    expect((await t.app.inject({ url: `/api/v1/console/workspaces/${wsId}`, headers: t.admin })).json().name).toBe("Demo workspace");

    // The token the session endpoint hands out makes the same write go through.
    await b.get(`${AUTH}/session`);
    const renamed = await b.put(`/api/v1/console/workspaces/${wsId}`, { name: "Acme" });
    expect([renamed.status, renamed.body.name]).toEqual([200, "Acme"]);

    const bearer = await t.app.inject({ method: "PUT", url: `/api/v1/console/workspaces/${wsId}`, headers: t.admin, payload: { name: "Acme 2" } });
    expect(bearer.statusCode).toBe(200);
  });

  it("ends a session after a day without use, and refuses unknown cookies with 401", async () => {
    const b = await setUp();
    t.clock.advance(SESSION_IDLE_MS - 60_000);
    expect((await b.get("/api/v1/console/me")).status).toBe(200);
    t.clock.advance(SESSION_IDLE_MS - 60_000);
    expect((await b.get("/api/v1/console/me")).status).toBe(200);
    t.clock.advance(SESSION_IDLE_MS + 1);
    const expired = await b.get("/api/v1/console/me");
    expect([expired.status, expired.body.code]).toEqual([401, "unauthorized"]);
    expect((await b.get(`${AUTH}/session`)).body).toMatchObject({ setupRequired: false, user: null });

    const bogus = await t.app.inject({ url: "/api/v1/console/me", headers: { cookie: "tidings_session=not-a-real-session-token-at-all" } });
    expect(bogus.statusCode).toBe(401);
  });

  it("ends a session seven days after sign-in however active it is", async () => {
    const b = await setUp();
    const halfDay = SESSION_IDLE_MS / 2;
    for (let step = 1; step < 14; step++) {
      t.clock.advance(halfDay);
      expect((await b.get("/api/v1/console/me")).status).toBe(200);
    }
    t.clock.advance(halfDay);
    expect((await b.get("/api/v1/console/me")).status).toBe(401);
  });

  it("invites a member by link; the member signs in and is refused a settings change with capability_required", async () => {
    const owner = await setUp();
    const me = await owner.get("/api/v1/console/me");
    const wsId: string = me.body.workspaces[0].workspace.id;
    const apps = await owner.get(`/api/v1/console/workspaces/${wsId}/apps`);
    const appId: string = apps.body.apps[0].appId;

    const invite = await owner.post(`/api/v1/console/workspaces/${wsId}/invitations`, { email: "Mia@Acme.example", role: "member" });
    expect(invite.status).toBe(201);
    expect(invite.body.url).toMatch(/^http:\/\/localhost:80\/admin\/accept-invite#token=inv_/);
    const token: string = invite.body.token;
    expect((await owner.get(`/api/v1/console/workspaces/${wsId}/invitations`)).body.invitations).toHaveLength(1);

    const mia = browser(t.app);
    const preview = await mia.get(`${AUTH}/invitation?token=${token}`);
    expect(preview.body).toEqual({ email: "mia@acme.example", role: "member", workspaceName: "Demo workspace", existingUser: false });
    const accepted = await mia.post(`${AUTH}/accept-invite`, { token, password: "mia's long password", name: "Mia" });
    expect(accepted.status).toBe(200);
    expect((await browser(t.app).post(`${AUTH}/accept-invite`, { token, password: "another password" })).body.code).toBe("invalid_invitation");

    const refused = await mia.put(`/api/v1/console/workspaces/${wsId}/apps/${appId}/settings`, { allowPublic: false });
    expect([refused.status, refused.body.code]).toEqual([403, "capability_required"]);
    const settings = await owner.get(`/api/v1/console/workspaces/${wsId}/settings`);
    expect(settings.body.apps[0].settings.allowPublic).toBe(true);
    // What members may do still works through the cookie.
    const requests = await mia.get(`/api/v1/console/workspaces/${wsId}/feature-requests?appId=${appId}`);
    expect(requests.status).toBe(200);
    // Signing in later works with the password chosen at acceptance.
    expect((await browser(t.app).post(`${AUTH}/login`, { email: "mia@acme.example", password: "mia's long password" })).status).toBe(200);
  });

  it("lets only owners invite owners, refuses members inviting, and expires invitations after a week", async () => {
    const owner = await setUp();
    const wsId: string = (await owner.get("/api/v1/console/me")).body.workspaces[0].workspace.id;
    const adminInvite = await owner.post(`/api/v1/console/workspaces/${wsId}/invitations`, { email: "ada@acme.example", role: "admin" });
    const ada = browser(t.app);
    await ada.post(`${AUTH}/accept-invite`, { token: adminInvite.body.token, password: "ada's long password" });
    const ownerByAdmin = await ada.post(`/api/v1/console/workspaces/${wsId}/invitations`, { email: "x@acme.example", role: "owner" });
    expect([ownerByAdmin.status, ownerByAdmin.body.code]).toEqual([403, "capability_required"]);

    const late = await owner.post(`/api/v1/console/workspaces/${wsId}/invitations`, { email: "late@acme.example", role: "member" });
    t.clock.advance(7 * 24 * 60 * 60 * 1000 + 1);
    const b = browser(t.app);
    const expired = await b.post(`${AUTH}/accept-invite`, { token: late.body.token, password: "late long password" });
    expect([expired.status, expired.body.code]).toEqual([400, "invalid_invitation"]);
  });

  it("needs the existing password when the invited email already has an account", async () => {
    const owner = await setUp();
    const ws = await owner.post("/api/v1/console/workspaces", { name: "Second", slug: "second" });
    const wsId: string = ws.body.workspace.id;
    const invite = await owner.post(`/api/v1/console/workspaces/${wsId}/invitations`, { email: OWNER.email, role: "admin" });
    const b = browser(t.app);
    const takeover = await b.post(`${AUTH}/accept-invite`, { token: invite.body.token, password: "attacker password" });
    expect([takeover.status, takeover.body.code]).toEqual([401, "invalid_credentials"]);
    expect((await browser(t.app).post(`${AUTH}/login`, { email: OWNER.email, password: OWNER.password })).status).toBe(200);
  });

  it("accepts two invitations for one new email sent at once, as when sent one after the other", async () => {
    const owner = await setUp();
    const first: string = (await owner.get("/api/v1/console/me")).body.workspaces[0].workspace.id;
    const second: string = (await owner.post("/api/v1/console/workspaces", { name: "Second", slug: "second" })).body.workspace.id;
    const invite = async (wsId: string, role: string) => (await owner.post(`/api/v1/console/workspaces/${wsId}/invitations`, { email: "nia@acme.example", role })).body.token as string;
    const tokens = [await invite(first, "member"), await invite(second, "admin")];
    const password = "nia's long password";
    const accepted = await atOnce(2, () => Promise.all(tokens.map((token) => browser(t.app).post(`${AUTH}/accept-invite`, { token, password, name: "Nia" }))));
    expect(accepted.map((res) => [res.status, res.body.code])).toEqual([
      [200, undefined],
      [200, undefined],
    ]);
    expect(accepted[0]!.body.user.id).toBe(accepted[1]!.body.user.id);
    const nia = browser(t.app);
    expect((await nia.post(`${AUTH}/login`, { email: "nia@acme.example", password })).status).toBe(200);
    const roles = (await nia.get("/api/v1/console/me")).body.workspaces.map((w: { workspace: { id: string }; membership: { role: string } }) => [w.workspace.id, w.membership.role]);
    expect(new Map(roles)).toEqual(
      new Map([
        [first, "member"],
        [second, "admin"],
      ]),
    );
  });

  it("needs the first one's password from the second of two acceptances sent at once, as one after the other would", async () => {
    const owner = await setUp();
    const first: string = (await owner.get("/api/v1/console/me")).body.workspaces[0].workspace.id;
    const second: string = (await owner.post("/api/v1/console/workspaces", { name: "Second", slug: "second" })).body.workspace.id;
    const invite = async (wsId: string) => (await owner.post(`/api/v1/console/workspaces/${wsId}/invitations`, { email: "ivy@acme.example", role: "member" })).body.token as string;
    const tokens = [await invite(first), await invite(second)];
    const passwords = ["ivy's first password", "someone else's password"];
    const answers = await atOnce(2, () => Promise.all(tokens.map((token, i) => browser(t.app).post(`${AUTH}/accept-invite`, { token, password: passwords[i] }))));
    const outcomes = answers.map((res) => [res.status, res.body.code]).sort();
    expect(outcomes).toEqual([
      [200, undefined],
      [401, "invalid_credentials"],
    ]);
    const winner = passwords[answers.findIndex((res) => res.status === 200)]!;
    const loser = passwords.find((p) => p !== winner)!;
    expect((await browser(t.app).post(`${AUTH}/login`, { email: "ivy@acme.example", password: winner })).status).toBe(200);
    expect((await browser(t.app).post(`${AUTH}/login`, { email: "ivy@acme.example", password: loser })).status).toBe(401);
  });

  it("accepts an invitation while the same new email is added to another workspace at once", async () => {
    const owner = await setUp();
    const first: string = (await owner.get("/api/v1/console/me")).body.workspaces[0].workspace.id;
    const second: string = (await owner.post("/api/v1/console/workspaces", { name: "Second", slug: "second" })).body.workspace.id;
    const token: string = (await owner.post(`/api/v1/console/workspaces/${first}/invitations`, { email: "leo@acme.example", role: "member" })).body.token;
    const [accepted, added] = await atOnce(2, () =>
      Promise.all([
        browser(t.app).post(`${AUTH}/accept-invite`, { token, password: "leo's long password" }),
        owner.post(`/api/v1/console/workspaces/${second}/members`, { email: "leo@acme.example", role: "admin" }),
      ]),
    );
    expect([accepted.status, accepted.body.code, added.status, added.body.code]).toEqual([200, undefined, 201, undefined]);
    const leo = browser(t.app);
    expect((await leo.post(`${AUTH}/login`, { email: "leo@acme.example", password: "leo's long password" })).status).toBe(200);
    const roles = (await leo.get("/api/v1/console/me")).body.workspaces.map((w: { workspace: { id: string }; membership: { role: string } }) => [w.workspace.id, w.membership.role]);
    expect(new Map(roles)).toEqual(
      new Map([
        [first, "member"],
        [second, "admin"],
      ]),
    );
  });

  it("validates setup input with field errors", async () => {
    const res = await browser(t.app).post(`${AUTH}/setup`, await withCode({ email: "not-an-email", password: "short", name: "" }));
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.details.fieldErrors).sort()).toEqual(["email", "name", "password"]);
  });
});
