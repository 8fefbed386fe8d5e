import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, GENEROUS_RATE_LIMITS, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";

type Workspace = Awaited<ReturnType<typeof createWorkspaceWithApp>>;

describe.each(testDialects())("feedback linked to feature requests on %s", (dialect) => {
  let t: TestApp;
  let ws: Workspace;
  let other: Workspace;
  const requests: { [title: string]: string } = {};
  const long = "x".repeat(270) + " and then some more words past the quote";

  const submit = async (payload: Record<string, unknown>, token?: string) => {
    const res = await t.app.inject({ method: "POST", url: "/api/v1/feedback", headers: token === undefined ? {} : { "x-user-token": token }, payload: { appKey: ws.appKey, platform: "web", ...payload } });
    return { status: res.statusCode, body: res.json() };
  };
  const feedback = async (title: string, token?: string, description = "") => {
    const res = await submit({ title, description }, token);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.submissionId as string;
  };
  const create = async (title: string, on: Workspace = ws) => {
    const res = await on.console.post(`/workspaces/${on.wsId}/feature-requests`, { appId: on.appId, title });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const detail = async (id: string) => (await ws.console.get(`/workspaces/${ws.wsId}/feature-requests/${id}`)).body;
  const link = (sub: string, featureRequestId: string, on: Workspace = ws) => on.console.put(`/workspaces/${on.wsId}/submissions/${sub}/feature-request`, { featureRequestId });
  const unlink = (sub: string) => ws.console.delete(`/workspaces/${ws.wsId}/submissions/${sub}/feature-request`);
  const vote = async (id: string, token: string) => {
    const res = await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/vote`, headers: { "x-user-token": token } });
    expect(res.statusCode).toBe(200);
    return res.json() as { voted: boolean; voteCount: number };
  };
  const storedVotes = async (id: string) =>
    Number((await t.database.db.kysely.selectFrom("featureRequestVotes").select((eb) => eb.fn.countAll().as("n")).where("featureRequestId", "=", id).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    t = await createTestApp(dialect, { rateLimits: GENEROUS_RATE_LIMITS });
    ws = await createWorkspaceWithApp(t.app, t.admin.authorization, "evidence");
    other = await createWorkspaceWithApp(t.app, t.admin.authorization, "evidence-other");
    for (const title of ["Offline mode", "Export", "Dark mode"]) requests[title] = await create(title);
  });
  afterAll(() => t.close());

  it("counts the identified reporter as a voter and shows the link both ways", async () => {
    const sub = await feedback("I lose notes on the train", "rita", long);
    const res = await link(sub, requests["Offline mode"]!);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.featureRequest).toMatchObject({ featureRequestId: requests["Offline mode"], title: "Offline mode" });
    const record = await detail(requests["Offline mode"]!);
    expect(record.voteCount).toBe(1);
    expect(record.voters).toHaveLength(1);
    expect(record.voters[0]).toMatchObject({ addedByTeam: false, fromSubmissionId: sub });
    expect(record.feedback).toHaveLength(1);
    expect(record.feedback[0]).toMatchObject({ submissionId: sub, title: "I lose notes on the train", voterPublicId: record.voters[0].publicId });
    // The first 280 characters, cut at a word's end, then an ellipsis.
    expect(record.feedback[0].quote).toBe(`${long.slice(0, 280).trimEnd()}…`);
    // The inbox shows the link too.
    expect((await ws.console.get(`/workspaces/${ws.wsId}/submissions/${sub}`)).body.submission.featureRequest).toMatchObject({ featureRequestId: requests["Offline mode"] });
    // Linking again changes nothing.
    expect((await link(sub, requests["Offline mode"]!)).status).toBe(200);
    expect((await detail(requests["Offline mode"]!)).voteCount).toBe(1);
  });

  it("unlinking removes the vote the link added, and only that one", async () => {
    const rita = await feedback("Sync please", "rita2");
    const own = await feedback("Sync too", "omar");
    const id = requests.Export!;
    await vote(id, "omar");
    expect((await link(rita, id)).status).toBe(200);
    expect((await link(own, id)).status).toBe(200);
    // Omar voted already: his link adds nothing.
    expect((await detail(id)).voteCount).toBe(2);
    expect((await unlink(rita)).body.featureRequest).toBeNull();
    expect((await unlink(own)).status).toBe(200);
    const record = await detail(id);
    expect(record.voteCount).toBe(1);
    expect(record.voters).toHaveLength(1);
    expect(record.voters[0].fromSubmissionId).toBeNull();
    expect(record.feedback).toEqual([]);
    // Unlinking again is a no-op.
    expect((await unlink(rita)).status).toBe(200);
    expect((await detail(id)).voteCount).toBe(1);
    expect(await storedVotes(id)).toBe(1);
  });

  it("keeps a vote the reporter cast again after removing the linked one", async () => {
    const sub = await feedback("Night theme", "nia");
    const id = requests["Dark mode"]!;
    await link(sub, id);
    expect(await vote(id, "nia")).toMatchObject({ voted: false, voteCount: 0 });
    expect(await vote(id, "nia")).toMatchObject({ voted: true, voteCount: 1 });
    await unlink(sub);
    expect((await detail(id)).voteCount).toBe(1);
  });

  it("links anonymous feedback without a vote, and moves a link from one request to another", async () => {
    const anon = await feedback("Would love CSV", undefined, "Please");
    const id = await create("CSV import");
    expect((await link(anon, id)).status).toBe(200);
    const record = await detail(id);
    expect(record.voteCount).toBe(0);
    expect(record.feedback[0]).toMatchObject({ submissionId: anon, quote: "Please", voterPublicId: null });

    const sub = await feedback("Moves around", "mo");
    const first = await create("First home");
    const second = await create("Second home");
    await link(sub, first);
    await link(sub, second);
    expect((await detail(first)).voteCount).toBe(0);
    expect((await detail(first)).feedback).toEqual([]);
    expect((await detail(second)).voteCount).toBe(1);
  });

  it("turns feedback into a new request, linked and voted for", async () => {
    const sub = await feedback("Calendar view", "cal", "Show notes on a calendar");
    const res = await ws.console.post(`/workspaces/${ws.wsId}/submissions/${sub}/feature-request`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.featureRequest.featureRequestId as string;
    const record = await detail(id);
    expect(record).toMatchObject({ title: "Calendar view", description: "Show notes on a calendar", moderation: "approved", voteCount: 1 });
    expect(record.feedback.map((f: { submissionId: string }) => f.submissionId)).toEqual([sub]);
  });

  it("answers 404 for unknown and other workspaces' ids, 400 for requests it cannot link, and writes nothing", async () => {
    const sub = await feedback("Lonely", "lo");
    const theirs = await create("Theirs", other);
    expect((await link(sub, "fr_00000000000000000000000000")).body.code).toBe("feature_request_not_found");
    expect((await link(sub, theirs)).body.code).toBe("feature_request_not_found");
    expect((await link("sub_00000000000000000000000000", requests.Export!)).body.code).toBe("submission_not_found");
    expect((await link(sub, requests.Export!, other)).body.code).toBe("submission_not_found");
    expect((await other.console.delete(`/workspaces/${other.wsId}/submissions/${sub}/feature-request`)).status).toBe(404);
    const declined = await create("Declined one");
    expect((await ws.console.post(`/workspaces/${ws.wsId}/feature-requests/bulk-moderate`, { ids: [declined], action: "decline" })).status).toBe(200);
    const refused = await link(sub, declined);
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 400, code: "feature_request_not_linkable" });
    const record = (await ws.console.get(`/workspaces/${ws.wsId}/submissions/${sub}`)).body.submission;
    expect(record.featureRequest).toBeNull();
  });

  it("links feedback whose reporter picked a request, and refuses one that is not the app's visible request", async () => {
    const id = await create("Widgets");
    const ok = await submit({ title: "Widget on the home screen", featureRequestId: id }, "pick");
    expect(ok.status).toBe(201);
    expect((await detail(id)).voteCount).toBe(1);
    expect((await ws.console.get(`/workspaces/${ws.wsId}/submissions/${ok.body.submissionId}`)).body.submission.featureRequest.featureRequestId).toBe(id);

    const before = (await ws.console.get(`/workspaces/${ws.wsId}/submissions`)).body.total;
    for (const featureRequestId of ["fr_00000000000000000000000000", await create("Not here", other)]) {
      const bad = await submit({ title: "Nope", featureRequestId }, "pick2");
      expect({ status: bad.status, code: bad.body.code }).toEqual({ status: 400, code: "feature_request_not_linkable" });
    }
    expect((await ws.console.get(`/workspaces/${ws.wsId}/submissions`)).body.total).toBe(before);
  });

  it("moves linked feedback to the target of a merge, where unlinking still removes its vote", async () => {
    const duplicate = await create("Merge me");
    const target = await create("Keep me");
    const sub = await feedback("Merged evidence", "merger");
    await link(sub, duplicate);
    expect((await ws.console.post(`/workspaces/${ws.wsId}/feature-requests/${duplicate}/merge`, { intoId: target })).status).toBe(200);
    const record = await detail(target);
    expect({ votes: record.voteCount, feedback: record.feedback.map((f: { submissionId: string }) => f.submissionId) }).toEqual({ votes: 1, feedback: [sub] });
    await unlink(sub);
    expect((await detail(target)).voteCount).toBe(0);
  });

  it("keeps the count equal to the stored votes when links and votes race", async () => {
    const id = await create("Busy");
    const subs = await Promise.all(Array.from({ length: 12 }, (_, i) => feedback(`Busy ${i}`, `busy-${i}`)));
    // Half the reporters also vote themselves, at the same time as their link.
    await Promise.all([
      ...subs.map((sub) => link(sub, id)),
      ...subs.slice(0, 6).map((_, i) => t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/vote`, headers: { "x-user-token": `busy-${i}` } })),
      ...Array.from({ length: 8 }, (_, i) => vote(id, `bystander-${i}`)),
    ]);
    const record = await detail(id);
    expect(record.voteCount).toBe(await storedVotes(id));
    await Promise.all(subs.map((sub) => unlink(sub)));
    expect((await detail(id)).voteCount).toBe(await storedVotes(id));
  });
});
