import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";

describe.each(testDialects())("console boards on %s", (dialect) => {
  let t: TestApp;
  let acme: Awaited<ReturnType<typeof createWorkspaceWithApp>>;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    acme = await createWorkspaceWithApp(t.app, t.admin.authorization);
  });
  afterAll(() => t.close());

  const boardsUrl = () => `/workspaces/${acme.wsId}/apps/${acme.appId}/boards`;
  const boards = async () => (await acme.console.get(boardsUrl())).body.boards as Array<{ id: string; slug: string; name: string; position: number; isDefault: boolean; visibility: string; requestCount: number }>;
  const propose = async (title: string) => {
    const res = await acme.console.post(`/workspaces/${acme.wsId}/feature-requests`, { appId: acme.appId, title });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };

  it("gives a new app one public default board named Feature requests, holding its requests", async () => {
    await propose("Dark mode");
    const [board, ...rest] = await boards();
    expect(rest).toEqual([]);
    expect(board).toMatchObject({ name: "Feature requests", slug: "feature-requests", isDefault: true, visibility: "public", position: 0, requestCount: 1 });
  });

  it("creates boards with derived or chosen slugs, refuses a taken slug with 409 and a private default with 400", async () => {
    const bugs = await acme.console.post(boardsUrl(), { name: "Bug reports", description: "Things that broke" });
    expect(bugs.status).toBe(201);
    expect(bugs.body).toMatchObject({ slug: "bug-reports", position: 1, visibility: "public", accessRule: null, isDefault: false, requestCount: 0 });
    const beta = await acme.console.post(boardsUrl(), { name: "Beta", slug: "beta", visibility: "private", accessRule: { plans: ["pro"] } });
    expect(beta.body).toMatchObject({ slug: "beta", position: 2, visibility: "private", accessRule: { plans: ["pro"] } });

    const taken = await acme.console.post(boardsUrl(), { name: "Other", slug: "beta" });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe("slug_taken");

    const standard = (await boards()).find((b) => b.isDefault)!;
    const privateDefault = await acme.console.patch(`/workspaces/${acme.wsId}/boards/${standard.id}`, { visibility: "private" });
    expect(privateDefault.status).toBe(400);
    expect(privateDefault.body.code).toBe("default_board");
    const makePrivateDefault = await acme.console.patch(`/workspaces/${acme.wsId}/boards/${beta.body.id}`, { isDefault: true });
    expect(makePrivateDefault.body.code).toBe("default_board");
    expect((await boards()).filter((b) => b.isDefault).map((b) => b.id)).toEqual([standard.id]);
  });

  it("refuses bodies outside the schema with 400 and writes nothing", async () => {
    const before = await boards();
    for (const body of [{}, { name: "" }, { name: "x".repeat(81) }, { name: "A", visibility: "secret" }, { name: "A", accessRule: { plans: [] } }, { name: "A", accessRule: { country: "FR" } }, { name: "A", slug: "Not A Slug" }]) {
      const res = await acme.console.post(boardsUrl(), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe("validation_failed");
    }
    expect(await boards()).toEqual(before);
  });

  it("moves the default to another board, and reorders every board", async () => {
    const all = await boards();
    const bugs = all.find((b) => b.slug === "bug-reports")!;
    const res = await acme.console.patch(`/workspaces/${acme.wsId}/boards/${bugs.id}`, { isDefault: true, name: "Bugs" });
    expect(res.body).toMatchObject({ isDefault: true, name: "Bugs", slug: "bug-reports" });
    expect((await boards()).filter((b) => b.isDefault).map((b) => b.slug)).toEqual(["bug-reports"]);
    const reversed = all.map((b) => b.id).reverse();
    expect((await acme.console.post(`${boardsUrl()}/reorder`, { boardIds: reversed })).status).toBe(200);
    expect((await boards()).map((b) => [b.id, b.position])).toEqual(reversed.map((id, i) => [id, i]));
    const bad = await acme.console.post(`${boardsUrl()}/reorder`, { boardIds: reversed.slice(1) });
    expect(bad.body.code).toBe("invalid_board_order");
    // New proposals go to the new default.
    await propose("Crash on start");
    expect((await boards()).find((b) => b.slug === "bug-reports")!.requestCount).toBe(1);
  });

  it("moves requests between boards of the app with their votes and comments, skipping other ids", async () => {
    const id = await propose("Export to CSV");
    await acme.console.post(`/workspaces/${acme.wsId}/feature-requests/${id}/comments`, { body: "We need this" });
    const beta = (await boards()).find((b) => b.slug === "beta")!;
    const res = await acme.console.post(`/workspaces/${acme.wsId}/apps/${acme.appId}/feature-requests/move`, {
      boardId: beta.id,
      featureRequestIds: [id, "fr_00000000000000000000000000"],
    });
    expect(res.body).toEqual({ moved: 1 });
    expect((await boards()).find((b) => b.slug === "beta")!.requestCount).toBe(1);
    const onBeta = await acme.console.get(`/workspaces/${acme.wsId}/feature-requests?appId=${acme.appId}&boardId=${beta.id}`);
    expect(onBeta.body.requests.map((r: { id: string; boardId: string }) => [r.id, r.boardId])).toEqual([[id, beta.id]]);
    const detail = await acme.console.get(`/workspaces/${acme.wsId}/feature-requests/${id}`);
    expect(detail.body.commentCount ?? detail.body.comments?.length).toBe(1);
    // The request's history shows the move, by whom, from which board to which.
    const from = (await boards()).find((b) => b.isDefault)!;
    const moves = (detail.body.events as Array<{ type: string; data: unknown; actor: string }>).filter((e) => e.type === "board_changed");
    expect(moves).toEqual([expect.objectContaining({ data: { fromBoardId: from.id, toBoardId: beta.id }, actor: expect.stringMatching(/^(user:|admin$)/) })]);
    // Moving again changes nothing, and logs nothing.
    expect((await acme.console.post(`/workspaces/${acme.wsId}/apps/${acme.appId}/feature-requests/move`, { boardId: beta.id, featureRequestIds: [id] })).body).toEqual({ moved: 0 });
    const again = await acme.console.get(`/workspaces/${acme.wsId}/feature-requests/${id}`);
    expect((again.body.events as Array<{ type: string }>).filter((e) => e.type === "board_changed")).toHaveLength(1);
  });

  it("creates a team request on the board named, the default without one, and refuses another app's board writing nothing", async () => {
    const beta = (await boards()).find((b) => b.slug === "beta")!;
    const create = (body: Record<string, unknown>) => acme.console.post(`/workspaces/${acme.wsId}/feature-requests`, { appId: acme.appId, ...body });
    const onBeta = await create({ title: "Beta-only idea", boardId: beta.id });
    expect(onBeta.status, JSON.stringify(onBeta.body)).toBe(201);
    expect(onBeta.body.boardId).toBe(beta.id);
    const plain = await create({ title: "Everyday idea" });
    expect(plain.body.boardId).toBe((await boards()).find((b) => b.isDefault)!.id);

    const other = await createWorkspaceWithApp(t.app, t.admin.authorization, "other-create");
    const theirs = (await other.console.get(`/workspaces/${other.wsId}/apps/${other.appId}/boards`)).body.boards[0].id as string;
    const before = (await acme.console.get(`/workspaces/${acme.wsId}/feature-requests?appId=${acme.appId}`)).body.total;
    const refused = await create({ title: "Lost idea", boardId: theirs });
    expect([refused.status, refused.body.code]).toEqual([404, "board_not_found"]);
    expect((await acme.console.get(`/workspaces/${acme.wsId}/feature-requests?appId=${acme.appId}`)).body.total).toBe(before);
  });

  it("deletes a board, moving its requests to the default board, but never the default board", async () => {
    const all = await boards();
    const beta = all.find((b) => b.slug === "beta")!;
    const standard = all.find((b) => b.isDefault)!;
    const refused = await acme.console.delete(`/workspaces/${acme.wsId}/boards/${standard.id}`);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("default_board");
    expect((await acme.console.delete(`/workspaces/${acme.wsId}/boards/${beta.id}`)).status).toBe(200);
    const after = await boards();
    expect(after.map((b) => b.slug)).not.toContain("beta");
    expect(after.map((b) => b.position)).toEqual(after.map((_, i) => i));
    expect(after.find((b) => b.isDefault)!.requestCount).toBe(standard.requestCount + beta.requestCount);
    expect((await acme.console.get(`/workspaces/${acme.wsId}/boards/${beta.id}`)).status).toBe(404);
    // Each request that had to move logs it.
    const moved = (await acme.console.get(`/workspaces/${acme.wsId}/feature-requests?appId=${acme.appId}&q=beta-only`)).body.requests[0] as { id: string };
    const events = (await acme.console.get(`/workspaces/${acme.wsId}/feature-requests/${moved.id}`)).body.events as Array<{ type: string; data: unknown }>;
    expect(events.filter((e) => e.type === "board_changed").map((e) => e.data)).toEqual([{ fromBoardId: beta.id, toBoardId: standard.id }]);
  });

  it("keeps another workspace's boards out of reach (404)", async () => {
    const other = await createWorkspaceWithApp(t.app, t.admin.authorization, "other");
    const theirs = (await other.console.get(`/workspaces/${other.wsId}/apps/${other.appId}/boards`)).body.boards[0].id as string;
    expect((await acme.console.get(`/workspaces/${acme.wsId}/boards/${theirs}`)).status).toBe(404);
    const move = await acme.console.post(`/workspaces/${acme.wsId}/apps/${acme.appId}/feature-requests/move`, { boardId: theirs, featureRequestIds: ["fr_00000000000000000000000000"] });
    expect(move.status).toBe(404);
    expect(move.body.code).toBe("board_not_found");
  });
});
