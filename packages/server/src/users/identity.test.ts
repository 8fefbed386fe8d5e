import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../apps/apps.js";
import { FakeClock } from "@tidings/testing/fake-clock";
import { openTestDatabase, testDialects, type TestDatabase } from "@tidings/testing/test-database";
import { createWorkspace } from "../workspaces/workspaces.js";
import { ensureEndUser, resolveIdentity, userHash } from "./identity.js";

describe("resolveIdentity", () => {
  const secret = "tsk_secret";
  it("is anonymous without a token, unidentified with a token alone, identified with the right hash", () => {
    expect(resolveIdentity({}, secret)).toEqual({ token: null, identified: false });
    expect(resolveIdentity({ "x-user-token": " user-1 " }, secret)).toEqual({ token: "user-1", identified: false });
    const hash = userHash(secret, "user-1");
    expect(resolveIdentity({ "x-user-token": "user-1", "x-user-hash": hash.toUpperCase() }, secret)).toEqual({
      token: "user-1",
      identified: true,
    });
  });

  it("is the hex HMAC-SHA256 of the token keyed by the signing secret", () => {
    // Reference: printf user-1 | openssl dgst -sha256 -hmac tsk_secret
    expect(userHash(secret, "user-1")).toBe("c72c8cf056c496013341b913ad0f81cf522a0971df10b42ed96867a86711612e");
  });

  it.each([
    [{ "x-user-token": "" }, "invalid_user_token"],
    [{ "x-user-token": "has space" }, "invalid_user_token"],
    [{ "x-user-token": "é" }, "invalid_user_token"],
    [{ "x-user-token": "a".repeat(257) }, "invalid_user_token"],
    [{ "x-user-token": "u", "x-user-hash": "00" }, "invalid_user_hash"],
    [{ "x-user-token": "u", "x-user-hash": "0".repeat(64) }, "invalid_user_hash"],
    [{ "x-user-hash": "0".repeat(64) }, "invalid_user_hash"],
  ])("refuses %j with %s", (headers, code) => {
    expect(() => resolveIdentity(headers, secret)).toThrow(expect.objectContaining({ code }));
  });
});

describe.each(testDialects())("end users on %s", (dialect) => {
  let t: TestDatabase;
  const clock = new FakeClock();
  let appA: string;
  let appB: string;
  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    const { workspace } = await createWorkspace(t.db.kysely, clock, { name: "W", slug: "w" }, null);
    appA = (await createApp(t.db.kysely, clock, workspace.id, { name: "App A" })).row.id;
    appB = (await createApp(t.db.kysely, clock, workspace.id, { name: "App B" })).row.id;
  });
  afterAll(() => t.cleanup());

  it("mints one stable u_ id per app and token, unlinkable across apps, without storing the token", async () => {
    const first = await ensureEndUser(t.db.kysely, clock, appA, "host-user-42");
    expect(first.created).toBe(true);
    expect(first.publicId).toMatch(/^u_[0-9a-f]{32}$/);
    const again = await ensureEndUser(t.db.kysely, clock, appA, "host-user-42");
    expect(again).toEqual({ ...first, created: false });
    const other = await ensureEndUser(t.db.kysely, clock, appB, "host-user-42");
    expect(other.publicId).not.toBe(first.publicId);
    const rows = await t.db.kysely.selectFrom("endUsers").selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain("host-user-42");
  });
});
