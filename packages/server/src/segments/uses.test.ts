import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createMailTestApp, type MailTestApp } from "@tidings/testing/changelog-kit";
import { subscriptionRow } from "@tidings/testing/subscriptions";
import { testDialects } from "@tidings/testing/test-database";
import { malformedBodyField, parseCompanyReport } from "../companies/company-report.js";
import type { MailMessage } from "../mail/mailer.js";
import { hashUserToken, writeAttributes } from "../users/attributes.js";
import { userHash } from "../users/identity.js";

type Workspace = Awaited<ReturnType<typeof createWorkspaceWithApp>>;

// Where a segment is used: a private board's access rule, a release's mail audience, and the
// console's end-user and request lists. Members are the paying users of Acme (ann); bea pays
// elsewhere, cid is at Acme without paying, and dan reported nothing.
describe.each(testDialects())("segments in boards, release mail and console lists on %s", (dialect) => {
  let t: MailTestApp;
  let acme: Workspace;
  let segmentId: string;
  const sent: MailMessage[] = [];
  const people = {
    ann: { isPaying: true, company: { id: "acme", name: "Acme" } },
    bea: { isPaying: true, company: { id: "globex" } },
    cid: { isPaying: false, company: { id: "acme" } },
    dan: {},
  } as const;

  beforeAll(async () => {
    t = await createMailTestApp(dialect, {}, { mailer: { send: async (message) => void sent.push(message), close: () => {} } });
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
    await acme.console.put(`/workspaces/${acme.wsId}/apps/${acme.appId}/settings`, { moderationPolicy: "none" });
    const db = t.database.db.kysely;
    for (const [name, { company, ...own }] of Object.entries(people) as Array<[string, { isPaying?: boolean; company?: Record<string, unknown> }]>) {
      const reportedAt = Math.floor(t.clock.now().getTime() / 1000);
      await db.transaction().execute((trx) =>
        writeAttributes(trx, t.clock, acme.appId, name, { ...own, ...(company === undefined ? {} : { company: { report: parseCompanyReport(company, malformedBodyField), reportedAt } }) }),
      );
    }
    const made = await acme.console.post(`/workspaces/${acme.wsId}/apps/${acme.appId}/segments`, { name: "Paying Acme", rule: { user: { isPaying: true }, company: { ids: ["acme"] } } });
    segmentId = made.body.id;
  });
  afterAll(() => t.close());

  const signedIn = (token: string) => ({ "x-user-token": token, "x-user-hash": userHash(acme.signingSecret, token) });
  const boardsUrl = () => `/workspaces/${acme.wsId}/apps/${acme.appId}/boards`;
  const publicBoards = async (headers: Record<string, string>) =>
    ((await t.app.inject({ url: `/api/v1/public/apps/${acme.appKey}/boards`, headers })).json().boards as Array<{ slug: string }>).map((b) => b.slug).sort();

  it("opens a private board whose rule names a segment to the segment's identified members only", async () => {
    const board = await acme.console.post(boardsUrl(), { name: "Lounge", visibility: "private", accessRule: { segmentId } });
    expect(board.status, JSON.stringify(board.body)).toBe(201);
    expect(board.body.accessRule).toEqual({ segmentId });
    expect(await publicBoards(signedIn("ann"))).toContain("lounge");
    for (const token of ["bea", "cid", "dan", "stranger"]) expect(await publicBoards(signedIn(token)), token).not.toContain("lounge");
    // Unsigned, the member is not vouched for.
    expect(await publicBoards({ "x-user-token": "ann" })).not.toContain("lounge");
    // A segment and another condition must both hold.
    await acme.console.patch(`/workspaces/${acme.wsId}/boards/${board.body.id}`, { accessRule: { segmentId, plans: ["gold"] } });
    expect(await publicBoards(signedIn("ann"))).not.toContain("lounge");
    await acme.console.patch(`/workspaces/${acme.wsId}/boards/${board.body.id}`, { accessRule: { segmentId } });
    // A change of the segment's rule changes who gets in.
    await acme.console.patch(`/workspaces/${acme.wsId}/segments/${segmentId}`, { rule: { company: { ids: ["acme"] } } });
    expect(await publicBoards(signedIn("cid"))).toContain("lounge");
    await acme.console.patch(`/workspaces/${acme.wsId}/segments/${segmentId}`, { rule: { user: { isPaying: true }, company: { ids: ["acme"] } } });
    expect(await publicBoards(signedIn("cid"))).not.toContain("lounge");
  });

  it("refuses a board rule naming another app's or no segment with 404, and deleting a segment a board uses with 409", async () => {
    const other = await createWorkspaceWithApp(t.app, t.admin.authorization, "other");
    const theirs = (await other.console.post(`/workspaces/${other.wsId}/apps/${other.appId}/segments`, { name: "Theirs", rule: {} })).body.id as string;
    for (const id of [theirs, "seg_00000000000000000000000000"]) {
      const res = await acme.console.post(boardsUrl(), { name: "Nope", visibility: "private", accessRule: { segmentId: id } });
      expect([res.status, res.body.code]).toEqual([404, "segment_not_found"]);
    }
    const bad = await acme.console.post(boardsUrl(), { name: "Nope", visibility: "private", accessRule: { segmentId: "everyone" } });
    expect([bad.status, bad.body.code]).toEqual([400, "validation_failed"]);
    const boards = (await acme.console.get(boardsUrl())).body.boards as Array<{ id: string; slug: string }>;
    expect(boards.map((b) => b.slug)).not.toContain("nope");
    const lounge = boards.find((b) => b.slug === "lounge")!;
    const refused = await acme.console.delete(`/workspaces/${acme.wsId}/segments/${segmentId}`);
    expect([refused.status, refused.body.code, refused.body.details]).toEqual([409, "segment_in_use", { boards: [lounge.id], releases: [] }]);
    expect((await acme.console.get(`/workspaces/${acme.wsId}/segments/${segmentId}`)).status).toBe(200);
  });

  it("mails a release that targets a segment only to the subscribers it holds", async () => {
    const db = t.database.db.kysely;
    const at = t.clock.now().toISOString();
    const subscribers = [
      ["ann@example.com", "ann"],
      ["bea@example.com", "bea"],
      ["cid@example.com", "cid"],
      ["anon@example.com", null],
    ] as const;
    await db
      .insertInto("emailSubscriptions")
      .values(subscribers.map(([email, token], i) => ({ ...subscriptionRow(i, acme.appId, email, "confirmed", at), subscriberTokenHash: token === null ? null : hashUserToken(token) })))
      .execute();
    const unknown = await acme.console.post(`/workspaces/${acme.wsId}/changelog`, { appId: acme.appId, title: "2.0", body: "", emailSegmentId: "seg_00000000000000000000000000" });
    expect([unknown.status, unknown.body.code]).toEqual([404, "segment_not_found"]);
    const draft = await acme.console.post(`/workspaces/${acme.wsId}/changelog`, { appId: acme.appId, title: "For payers", body: "Thanks", emailSegmentId: segmentId });
    expect(draft.body.emailSegmentId).toBe(segmentId);
    // A segment an unmailed release names cannot be deleted either.
    expect((await acme.console.delete(`/workspaces/${acme.wsId}/segments/${segmentId}`)).body.details.releases).toEqual([draft.body.id]);
    await acme.console.post(`/workspaces/${acme.wsId}/changelog/${draft.body.id}/publish`, {});
    await t.app.jobs.tick();
    expect(sent.filter((m) => m.subject.includes("For payers")).map((m) => m.to)).toEqual(["ann@example.com"]);
    // A release for everyone reaches every confirmed subscriber.
    await acme.console.post(`/workspaces/${acme.wsId}/changelog`, { appId: acme.appId, title: "For all", body: "Hi", publishNow: true });
    await t.app.jobs.tick();
    expect(sent.filter((m) => m.subject.includes("For all")).map((m) => m.to).sort()).toEqual(subscribers.map(([email]) => email).sort());
    // Once mailed, the release no longer holds the segment back; deleting it clears the release's reference.
    const spare = (await acme.console.post(`/workspaces/${acme.wsId}/apps/${acme.appId}/segments`, { name: "Spare", rule: {} })).body.id as string;
    const mailed = await acme.console.post(`/workspaces/${acme.wsId}/changelog`, { appId: acme.appId, title: "Spare", body: "", emailSegmentId: spare, publishNow: true });
    expect((await acme.console.delete(`/workspaces/${acme.wsId}/segments/${spare}`)).status).toBe(200);
    expect((await acme.console.get(`/workspaces/${acme.wsId}/changelog/${mailed.body.id}`)).body.emailSegmentId).toBeNull();
  });

  it("filters the console's end users by segment, and its requests by a voter in the segment", async () => {
    const users = await acme.console.get(`/workspaces/${acme.wsId}/apps/${acme.appId}/end-users?segmentId=${segmentId}`);
    expect(users.body.total).toBe(1);
    expect(users.body.users.map((u: { company: { externalId: string } | null; isPaying: boolean }) => [u.company?.externalId, u.isPaying])).toEqual([["acme", true]]);
    const missing = await acme.console.get(`/workspaces/${acme.wsId}/apps/${acme.appId}/end-users?segmentId=seg_00000000000000000000000000`);
    expect([missing.status, missing.body.code]).toEqual([404, "segment_not_found"]);

    const propose = async (title: string, token: string) =>
      (await t.app.inject({ method: "POST", url: "/api/v1/feature-requests", headers: signedIn(token), payload: { appKey: acme.appKey, title } })).json().featureRequestId as string;
    const vote = (id: string, token: string) => t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/vote?appKey=${acme.appKey}`, headers: signedIn(token), payload: {} });
    const sso = await propose("Single sign-on", "cid");
    const dark = await propose("Dark mode", "bea");
    expect((await vote(sso, "ann")).statusCode).toBe(200);
    expect((await vote(dark, "cid")).statusCode).toBe(200);
    const listed = await acme.console.get(`/workspaces/${acme.wsId}/feature-requests?appId=${acme.appId}&segmentId=${segmentId}`);
    expect([listed.body.total, listed.body.requests.map((r: { title: string }) => r.title)]).toEqual([1, ["Single sign-on"]]);
  });
});
