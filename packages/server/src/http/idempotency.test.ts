import { createHash, randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { Response } from "light-my-request";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { mailLinkSecret, signLinkToken } from "../mail/link-tokens.js";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { testDialects } from "@tidings/testing/test-database";
import { createUploadTestApp, multipartBody, png, type UploadTestApp } from "@tidings/testing/uploads-kit";
import { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_TTL_MS } from "./idempotency-store.js";

const ALICE = "5f0b1c3e-7a51-4f0e-9d2a-1b2c3d4e5f60";
const BOB = "0a9e8d7c-6b5a-4c3d-8e2f-1a2b3c4d5e6f";

type Workspace = Awaited<ReturnType<typeof createWorkspaceWithApp>>;

/** One public POST: where it goes, a body, another body, and the table its write lands in. */
interface Family {
  name: string;
  url: () => string;
  /** A body; `seed` differs between test cases (for writes that are unique per value). */
  payload: (seed: string) => Record<string, unknown>;
  other: (seed: string) => Record<string, unknown>;
  headers?: Record<string, string>;
  table: string;
}

describe.each(testDialects())("Idempotency-Key on public POSTs on %s", (dialect) => {
  let t: UploadTestApp;
  let acme: Workspace;
  let requestId: string;
  let email = 0;
  beforeAll(async () => {
    t = await createUploadTestApp(dialect);
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
    await acme.console.put(`/workspaces/${acme.wsId}/apps/${acme.appId}/settings`, { moderationPolicy: "none" });
    const proposed = await t.app.inject({ method: "POST", url: "/api/v1/feature-requests", headers: { "x-user-token": ALICE }, payload: { appKey: acme.appKey, title: "Dark mode" } });
    requestId = proposed.json().featureRequestId;
  });
  afterAll(() => t.close());

  const key = () => `key-${randomUUID()}`;
  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) => t.app.inject({ method: "POST", url, payload: payload as never, headers });
  const count = async (table: string) => Number((await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(t.app.ctx.db.kysely)).rows[0]!.n);
  const keys = () => t.app.ctx.db.kysely.selectFrom("idempotencyKeys").selectAll().execute();
  const nextEmail = () => `reader${++email}@example.com`;

  /** The second answer is the first one again, marked as a replay. */
  function expectReplay(first: Response, again: Response): void {
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    expect({ status: again.statusCode, body: again.body, type: again.headers["content-type"] }).toEqual({
      status: first.statusCode,
      body: first.body,
      type: first.headers["content-type"],
    });
    expect(again.headers["idempotent-replayed"]).toBe("true");
  }

  const families: Family[] = [
    {
      name: "feedback",
      url: () => "/api/v1/feedback",
      payload: () => ({ appKey: acme.appKey, title: "Crash on save", platform: "ios" }),
      other: () => ({ appKey: acme.appKey, title: "Crash on load", platform: "ios" }),
      table: "submissions",
    },
    {
      name: "proposal",
      url: () => "/api/v1/feature-requests",
      payload: () => ({ appKey: acme.appKey, title: "Export to CSV" }),
      other: () => ({ appKey: acme.appKey, title: "Export to PDF" }),
      headers: { "x-user-token": BOB },
      table: "feature_requests",
    },
    {
      name: "vote",
      url: () => `/api/v1/feature-requests/${requestId}/vote`,
      payload: () => ({}),
      other: () => ({ shipNotifyEmail: "bob@example.com" }),
      table: "feature_request_votes",
    },
    {
      name: "comment",
      url: () => `/api/v1/feature-requests/${requestId}/comments`,
      payload: () => ({ body: "Yes please" }),
      other: () => ({ body: "No thanks" }),
      headers: { "x-user-token": BOB },
      table: "feature_request_comments",
    },
    {
      name: "upload session",
      url: () => "/api/v1/uploads/sessions",
      payload: () => ({ appKey: acme.appKey, files: [{ filename: "shot.png", mimeType: "image/png", size: 100 }] }),
      other: () => ({ appKey: acme.appKey, files: [{ filename: "log.txt", mimeType: "text/plain", size: 100 }] }),
      headers: { "x-user-token": BOB },
      table: "upload_sessions",
    },
    {
      name: "changelog subscription",
      url: () => `/api/v1/public/apps/${acme.appKey}/changelog/subscribe`,
      payload: (seed) => ({ email: `${seed}@example.com` }),
      other: (seed) => ({ email: `other-${seed}@example.com` }),
      table: "email_subscriptions",
    },
  ];

  it("replays a retry that brings a fresh verification token, since tokens are single-use", async () => {
    const headers = { "x-user-token": `retry-${randomUUID()}`, "idempotency-key": key() };
    const before = await count("submissions");
    const first = await post("/api/v1/feedback", { appKey: acme.appKey, title: "Crash on save", verificationToken: "first-proof" }, headers);
    expect(first.statusCode).toBeLessThan(300);
    const again = await post("/api/v1/feedback", { appKey: acme.appKey, title: "Crash on save", turnstileToken: "second-proof" }, headers);
    expectReplay(first, again);
    expect(await count("submissions")).toBe(before + 1);
  });

  describe.each(families)("$name", (family) => {
    // Votes are per voter: each case votes as a voter of its own so a toggle starts from "no vote".
    let seed = "";
    let headers: Record<string, string> = {};
    beforeEach(() => {
      seed = randomUUID();
      headers = { ...(family.headers ?? { "x-user-token": `voter-${seed}` }), "idempotency-key": key() };
    });

    it("answers a repeat with the first answer and writes one row", async () => {
      const before = await count(family.table);
      const first = await post(family.url(), family.payload(seed), headers);
      expect(first.statusCode).toBeLessThan(300);
      const again = await post(family.url(), family.payload(seed), headers);
      expectReplay(first, again);
      expect(await count(family.table)).toBe(before + 1);
    });

    it("refuses the same key with another body with 422 idempotency_key_reused and writes nothing", async () => {
      expect((await post(family.url(), family.payload(seed), headers)).statusCode).toBeLessThan(300);
      const before = await count(family.table);
      const reused = await post(family.url(), family.other(seed), headers);
      expect(reused.statusCode).toBe(422);
      expect(reused.json()).toEqual({ error: "This Idempotency-Key was already used for a different request", code: "idempotency_key_reused" });
      expect(await count(family.table)).toBe(before);
    });

    it("writes once for ten identical requests sent together", async () => {
      const before = await count(family.table);
      const answers = await Promise.all(Array.from({ length: 10 }, () => post(family.url(), family.payload(seed), headers)));
      expect(await count(family.table)).toBe(before + 1);
      const ran = answers.filter((a) => a.statusCode < 300 && a.headers["idempotent-replayed"] === undefined);
      expect(ran).toHaveLength(1);
      for (const answer of answers) {
        if (answer === ran[0]) continue;
        // Either the first answer again, or "still running" for a request that came while it ran.
        if (answer.statusCode === 409) {
          expect(answer.json().code).toBe("idempotency_key_in_use");
          expect(answer.headers["retry-after"]).toBe("1");
        } else {
          expectReplay(ran[0]!, answer);
        }
      }
    });
  });

  it("keeps a toggle vote on when the toggle is retried with its key", async () => {
    const voter = { "x-user-token": `voter-${randomUUID()}`, "idempotency-key": key() };
    const url = `/api/v1/feature-requests/${requestId}/vote`;
    const first = await post(url, {}, voter);
    expect(first.json().voted).toBe(true);
    expect((await post(url, {}, voter)).json().voted).toBe(true);
    // Without a key, the same POST toggles the vote off, as it always did.
    expect((await post(url, {}, { "x-user-token": voter["x-user-token"] })).json().voted).toBe(false);
  });

  it("keeps two callers' keys apart: other users, other apps", async () => {
    const other = await createWorkspaceWithApp(t.app, t.admin.authorization, `idem-other-${dialect}`);
    const shared = key();
    const before = await count("submissions");
    const answers = [
      await post("/api/v1/feedback", { appKey: acme.appKey, title: "Same words" }, { "x-user-token": ALICE, "idempotency-key": shared }),
      await post("/api/v1/feedback", { appKey: acme.appKey, title: "Same words" }, { "x-user-token": BOB, "idempotency-key": shared }),
      await post("/api/v1/feedback", { appKey: acme.appKey, title: "Same words" }, { "idempotency-key": shared }),
      await post("/api/v1/feedback", { appKey: other.appKey, title: "Same words" }, { "idempotency-key": shared }),
    ];
    expect(answers.map((a) => [a.statusCode, a.headers["idempotent-replayed"]])).toEqual(Array(4).fill([201, undefined]));
    expect(new Set(answers.map((a) => a.json().submissionId)).size).toBe(4);
    // The same caller again is the same scope: the first answer comes back.
    expectReplay(answers[0]!, await post("/api/v1/feedback", { appKey: acme.appKey, title: "Same words" }, { "x-user-token": ALICE, "idempotency-key": shared }));
    expect(await count("submissions")).toBe(before + 4);
  });

  it("refuses a malformed or repeated key with 400 invalid_idempotency_key and writes nothing", async () => {
    const before = { submissions: await count("submissions"), keys: await count("idempotency_keys") };
    for (const bad of ["", "x".repeat(256), "caf\u00e9", ["one", "two"]]) {
      const res = await post("/api/v1/feedback", { appKey: acme.appKey, title: "Hello" }, { "idempotency-key": bad as string });
      expect({ bad, status: res.statusCode, body: res.json() }).toEqual({
        bad,
        status: 400,
        body: { error: "Idempotency-Key must be 1 to 255 printable ASCII characters", code: "invalid_idempotency_key" },
      });
    }
    expect({ submissions: await count("submissions"), keys: await count("idempotency_keys") }).toEqual(before);
    // 255 characters, spaces inside, and the IETF draft's quoted form are all keys.
    expect((await post("/api/v1/feedback", { appKey: acme.appKey, title: "Hello" }, { "idempotency-key": "k".repeat(255) })).statusCode).toBe(201);
    const bare = key();
    const first = await post("/api/v1/feedback", { appKey: acme.appKey, title: "Quoted" }, { "idempotency-key": bare });
    expectReplay(first, await post("/api/v1/feedback", { appKey: acme.appKey, title: "Quoted" }, { "idempotency-key": `"${bare}"` }));
  });

  it("frees the key of a refusal that wrote nothing, so the corrected request runs", async () => {
    const before = await count("submissions");
    const headers = { "idempotency-key": key() };
    // Refused by the handler (after the key was reserved) and by the schema (before it was).
    const blank = await post("/api/v1/feedback", { appKey: acme.appKey, title: "   " }, headers);
    expect(blank.statusCode).toBe(400);
    const invalid = await post("/api/v1/feedback", { appKey: acme.appKey }, headers);
    expect(invalid.json().code).toBe("validation_failed");
    const again = await post("/api/v1/feedback", { appKey: acme.appKey, title: "   " }, headers);
    expect(again.statusCode).toBe(400);
    expect(again.headers["idempotent-replayed"]).toBeUndefined();
    const fixed = await post("/api/v1/feedback", { appKey: acme.appKey, title: "Now with a title" }, headers);
    expect(fixed.statusCode).toBe(201);
    // The success, unlike the refusals, spends the key.
    expectReplay(fixed, await post("/api/v1/feedback", { appKey: acme.appKey, title: "Now with a title" }, headers));
    expect(await count("submissions")).toBe(before + 1);
  });

  it("forgets a key after 24 hours: the sweep removes it and the same key runs again", async () => {
    const headers = { "idempotency-key": key() };
    const payload = { appKey: acme.appKey, title: "A day later" };
    const first = await post("/api/v1/feedback", payload, headers);
    t.clock.advance(IDEMPOTENCY_TTL_MS - 1);
    expectReplay(first, await post("/api/v1/feedback", payload, headers));
    t.clock.advance(1);
    await t.app.jobs.tick();
    expect(await count("idempotency_keys")).toBe(0);
    const later = await post("/api/v1/feedback", payload, headers);
    expect(later.statusCode).toBe(201);
    expect(later.headers["idempotent-replayed"]).toBeUndefined();
    expect(later.json().submissionId).not.toBe(first.json().submissionId);
  });

  it("answers 409 while a request with the key is outstanding, and runs a retry once an unwritten one is abandoned", async () => {
    const headers = { "idempotency-key": key() };
    const payload = { appKey: acme.appKey, title: "Cut off" };
    await post("/api/v1/feedback", payload, headers);
    const db = t.app.ctx.db.kysely;
    // As if the request were still running (or had died) before its write: the row is `pending`.
    // The key's row, found by its hash (the table's order is no insertion order on PostgreSQL).
    const keyHash = createHash("sha256").update(headers["idempotency-key"], "utf8").digest("hex");
    const row = (await keys()).find((k) => k.keyHash === keyHash && k.state === "done" && k.statusCode === 201);
    const where = { scopeHash: row!.scopeHash, keyHash: row!.keyHash };
    const reset = (state: "pending" | "written") =>
      db.updateTable("idempotencyKeys").set({ state, statusCode: null, responseBody: null, lockedAt: t.clock.now().toISOString() }).where("scopeHash", "=", where.scopeHash).where("keyHash", "=", where.keyHash).execute();
    await reset("pending");
    const before = await count("submissions");
    const busy = await post("/api/v1/feedback", payload, headers);
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toEqual({ error: "A request with this Idempotency-Key is still in progress", code: "idempotency_key_in_use" });
    expect(busy.headers["retry-after"]).toBe("1");
    t.clock.advance(IDEMPOTENCY_LEASE_MS);
    const retried = await post("/api/v1/feedback", payload, headers);
    expect(retried.statusCode).toBe(201);
    expect(await count("submissions")).toBe(before + 1);
    // Stopped after its write committed and before its answer was kept: never run again.
    await reset("written");
    t.clock.advance(IDEMPOTENCY_LEASE_MS * 10);
    expect((await post("/api/v1/feedback", payload, headers)).statusCode).toBe(409);
    expect(await count("submissions")).toBe(before + 1);
  });

  it("keeps answers sealed: the table holds neither the key nor the answer in clear", async () => {
    const secretKey = key();
    const send = () => post("/api/v1/uploads/sessions", { appKey: acme.appKey, files: [{ filename: "a.png", mimeType: "image/png" }] }, { "x-user-token": ALICE, "idempotency-key": secretKey });
    const res = await send();
    expectReplay(res, await send());
    const token: string = res.json().sessionToken;
    const stored = JSON.stringify(await keys());
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(secretKey);
    expect(stored).not.toContain(ALICE);
  });

  describe("uploads", () => {
    const image = (boundary: string, data = png(120), extra: { name: string; value: string }[] = []) =>
      multipartBody([{ name: "appKey", value: acme.appKey }, ...extra, { name: "file", filename: "shot.png", contentType: "image/png", data }], boundary);

    it.each(["images", "objects", "r2"])("answers a repeated /uploads/%s with the same descriptor and stores one file", async (route) => {
      const headers = { "idempotency-key": key(), "x-user-token": ALICE };
      const before = { rows: await count("uploads"), files: (await t.storedFiles()).length };
      const first = image("first-boundary-1a2b");
      const res = await post(`/api/v1/uploads/${route}`, first.payload, { ...first.headers, ...headers });
      expect(res.statusCode).toBe(200);
      // A retry builds its body again: another boundary, the same fields and bytes.
      const second = image("second-boundary-3c4d");
      expectReplay(res, await post(`/api/v1/uploads/${route}`, second.payload, { ...second.headers, ...headers }));
      expect({ rows: await count("uploads"), files: (await t.storedFiles()).length }).toEqual({ rows: before.rows + 1, files: before.files + 1 });
      const changed = image("third-boundary-5e6f", png(121));
      const reused = await post(`/api/v1/uploads/${route}`, changed.payload, { ...changed.headers, ...headers });
      expect(reused.json().code).toBe("idempotency_key_reused");
      const moreFields = image("fourth-boundary-7a8b", png(120), [{ name: "note", value: "x" }]);
      expect((await post(`/api/v1/uploads/${route}`, moreFields.payload, { ...moreFields.headers, ...headers })).statusCode).toBe(422);
      expect({ rows: await count("uploads"), files: (await t.storedFiles()).length }).toEqual({ rows: before.rows + 1, files: before.files + 1 });
    });

    it("stores one file for ten identical uploads sent together", async () => {
      const headers = { "idempotency-key": key() };
      const before = { rows: await count("uploads"), files: (await t.storedFiles()).length };
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => {
          const body = image(`boundary-${i}-concurrent`);
          return post("/api/v1/uploads/images", body.payload, { ...body.headers, ...headers });
        }),
      );
      expect(answers.filter((a) => a.statusCode === 200 && a.headers["idempotent-replayed"] === undefined)).toHaveLength(1);
      expect(answers.every((a) => a.statusCode === 200 || a.json().code === "idempotency_key_in_use")).toBe(true);
      expect({ rows: await count("uploads"), files: (await t.storedFiles()).length }).toEqual({ rows: before.rows + 1, files: before.files + 1 });
    });

    it("replays a session slot's upload instead of refusing the repeat with 409 already_uploaded", async () => {
      const session = await post("/api/v1/uploads/sessions", { appKey: acme.appKey, files: [{ filename: "a.png", mimeType: "image/png" }] }, { "x-user-token": ALICE });
      const { sessionToken, uploads } = session.json() as { sessionToken: string; uploads: { uploadUrl: string }[] };
      const url = uploads[0]!.uploadUrl;
      const headers = { authorization: `Bearer ${sessionToken}`, "content-type": "image/png", "idempotency-key": key() };
      const files = (await t.storedFiles()).length;
      const first = await t.app.inject({ method: "PUT", url, payload: png(90), headers });
      expect(first.statusCode).toBe(200);
      expectReplay(first, await t.app.inject({ method: "PUT", url, payload: png(90), headers }));
      expect(await t.storedFiles()).toHaveLength(files + 1);
      const other = await t.app.inject({ method: "PUT", url, payload: png(91), headers });
      expect(other.json().code).toBe("idempotency_key_reused");
      const fresh = await t.app.inject({ method: "PUT", url, payload: png(91), headers: { ...headers, "idempotency-key": key() } });
      expect(fresh.json().code).toBe("already_uploaded");
      expect(await t.storedFiles()).toHaveLength(files + 1);
    });
  });

  describe("changelog confirmation and unsubscribe links", () => {
    async function pendingSubscription() {
      const address = nextEmail();
      expect((await post(`/api/v1/public/apps/${acme.appKey}/changelog/subscribe`, { email: address })).statusCode).toBe(201);
      const sub = await t.app.ctx.db.kysely.selectFrom("emailSubscriptions").selectAll().where("email", "=", address).executeTakeFirstOrThrow();
      return { sub, secret: await mailLinkSecret(t.app.ctx) };
    }

    it("replays a confirmation, which would otherwise be refused as used", async () => {
      const { sub, secret } = await pendingSubscription();
      const token = signLinkToken(secret, "confirm", { s: sub.id, n: sub.confirmNonce!, exp: t.clock.now().getTime() + 60_000 });
      const url = `/api/v1/public/apps/${acme.appKey}/changelog/confirm?token=${token}`;
      const headers = { accept: "application/json", "idempotency-key": key() };
      const first = await post(url, {}, headers);
      expect(first.json()).toEqual({ confirmed: true });
      expectReplay(first, await post(url, {}, headers));
      expect((await post(url, {}, { accept: "application/json" })).json().code).toBe("invalid_confirmation_token");
    });

    it("replays an unsubscribe, the HTML page included", async () => {
      const { sub, secret } = await pendingSubscription();
      const token = signLinkToken(secret, "unsubscribe", { s: sub.id, exp: t.clock.now().getTime() + 60_000 });
      const url = `/api/v1/public/apps/${acme.appKey}/changelog/unsubscribe?token=${token}`;
      const headers = { accept: "text/html", "idempotency-key": key() };
      const first = await post(url, {}, headers);
      expect(first.headers["content-type"]).toMatch(/^text\/html/);
      expectReplay(first, await post(url, {}, headers));
      expect((await post(url, { token }, headers)).json().code).toBe("idempotency_key_reused");
    });
  });
});

describe("Idempotency-Key in the API description and CORS", () => {
  let t: UploadTestApp;
  beforeAll(async () => {
    t = await createUploadTestApp("sqlite");
  });
  afterAll(() => t.close());

  it("documents the header on every public POST, and on no console route", async () => {
    const doc = (await t.app.inject({ url: "/api/v1/openapi.json" })).json() as {
      paths: Record<string, Record<string, { parameters?: { in: string; name: string }[]; responses: Record<string, unknown> }>>;
    };
    const documented: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const has = (operation.parameters ?? []).some((p) => p.in === "header" && p.name === "Idempotency-Key");
        if (has) documented.push(`${method} ${path}`);
        if (has) expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(["409", "422"]));
      }
    }
    expect(documented.sort()).toEqual(
      [
        "post /api/v1/feedback",
        "post /api/v1/feature-requests",
        "post /api/v1/feature-requests/{id}/comments",
        "post /api/v1/feature-requests/{id}/subscription",
        "post /api/v1/public/apps/{appKey}/notifications",
        "post /api/v1/public/apps/{appKey}/request-updates/confirm",
        "post /api/v1/feature-requests/{id}/vote",
        "post /api/v1/public/apps/{appKey}/changelog/confirm",
        "post /api/v1/public/apps/{appKey}/changelog/subscribe",
        "post /api/v1/public/apps/{appKey}/changelog/unsubscribe",
        "post /api/v1/public/apps/{appKey}/ship-notifications/confirm",
        "post /api/v1/uploads/images",
        "post /api/v1/uploads/objects",
        "post /api/v1/uploads/r2",
        "post /api/v1/uploads/sessions",
        "put /api/v1/uploads/{uploadId}",
      ].sort(),
    );
  });

  it("lets browsers send the key and read the replay marker", async () => {
    const preflight = await t.app.inject({
      method: "OPTIONS",
      url: "/api/v1/feedback",
      headers: { origin: "https://app.example", "access-control-request-method": "POST", "access-control-request-headers": "idempotency-key" },
    });
    expect(String(preflight.headers["access-control-allow-headers"]).toLowerCase()).toContain("idempotency-key");
    const post = await t.app.inject({ method: "POST", url: "/api/v1/feedback", headers: { origin: "https://app.example" }, payload: {} });
    expect(String(post.headers["access-control-expose-headers"])).toContain("Idempotent-Replayed");
  });
});
