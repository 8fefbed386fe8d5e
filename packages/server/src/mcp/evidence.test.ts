import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CompanyAttributes } from "@tidings/protocol";
import { createTestApp, GENEROUS_RATE_LIMITS, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import { call, connectHttp, connectStdio, PUBLIC_URL, seedOtherWorkspace, seedWorkspace, type Connection } from "@tidings/testing/mcp-kit";
import { signAttributes } from "../users/attribute-signature.js";

// The voters' companies, their revenue and the feedback linked to requests, as the tools show and
// change them. Acme (800 EUR a month) has two voters of "Dark mode": counted once, Dark mode
// ranks below "Single sign-on", whose one voter is at Beta (1,000 EUR).

type Workspace = Awaited<ReturnType<typeof seedWorkspace>>;
const ids = (body: { requests: { id: string }[] }) => body.requests.map((r) => r.id);

describe.each(testDialects())("MCP companies and linked feedback on %s", (dialect) => {
  let t: TestApp;
  let baseUrl: string;
  beforeAll(async () => {
    t = await createTestApp(dialect, { publicUrl: PUBLIC_URL, rateLimits: GENEROUS_RATE_LIMITS });
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  describe.each(["http", "stdio"] as const)("over %s", (transport) => {
    let ws: Workspace;
    let other: Awaited<ReturnType<typeof seedOtherWorkspace>>;
    let writer: Connection;
    let reader: Connection;
    const open: Connection[] = [];
    const more = { auditLog: "", boardId: "", wishId: "", anonymousId: "", acme: "", beta: "", otherFeedbackId: "", otherBoardId: "" };
    const db = () => t.database.db.kysely;
    const connect = async (token: string) => {
      const connection = transport === "http" ? await connectHttp(baseUrl, token) : await connectStdio(t, token);
      open.push(connection);
      return connection;
    };
    const report = async (token: string, attrs: { isPaying?: boolean; mrr?: number; currency?: string; company?: CompanyAttributes }) => {
      const timestamp = Math.floor(t.clock.now().getTime() / 1000);
      const signature = signAttributes(ws.signingSecret, { appKey: ws.appKey, userToken: token, ...attrs, timestamp });
      const res = await t.app.inject({ method: "PUT", url: `/api/v1/public/apps/${ws.appKey}/user`, headers: { "x-user-token": token }, payload: { ...attrs, timestamp, signature } });
      expect(res.statusCode, res.body).toBe(200);
    };
    const sendFeedback = async (appKey: string, title: string, description: string, token?: string) => {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/v1/feedback",
        headers: token === undefined ? {} : { "x-user-token": token },
        payload: { appKey, title, description, platform: "web", reporterName: token ?? "Anon" },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().submissionId as string;
    };
    const votesOf = async (requestId: string) =>
      (await db().selectFrom("featureRequestVotes").select("endUserId").where("featureRequestId", "=", requestId).execute()).length;
    const linkOf = async (feedbackId: string) =>
      (await db().selectFrom("submissions").select("featureRequestId").where("id", "=", feedbackId).executeTakeFirstOrThrow()).featureRequestId;

    beforeAll(async () => {
      ws = await seedWorkspace(t, `evidence-${dialect}-${transport}`);
      other = await seedOtherWorkspace(t, `evidence-${dialect}-${transport}-other`);
      // Dark mode: v1, v2 (Acme), v3; Night theme: v1 (Acme), v4; Single sign-on: whale (Beta).
      await report("v1", { company: { id: "acme", name: "Acme", mrr: 800, currency: "EUR", plan: "business" } });
      await report("v2", { company: { id: "acme" } });
      await report("whale", { isPaying: true, mrr: 50, currency: "USD", company: { id: "beta", name: "Beta", mrr: 1000, currency: "EUR", plan: "team" } });
      // A paying voter without a company counts alone, in their own currency.
      await report("s1", { isPaying: true, mrr: 49, currency: "USD" });
      const voted = await t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${ws.ids.csvExport}/vote`, headers: { "x-user-token": "s1" } });
      expect(voted.json()).toMatchObject({ voted: true });
      const company = async (externalId: string) =>
        (await db().selectFrom("companies").select("id").where("appId", "=", ws.appId).where("externalId", "=", externalId).executeTakeFirstOrThrow()).id;
      more.acme = await company("acme");
      more.beta = await company("beta");

      const board = await ws.console.post(`/workspaces/${ws.wsId}/apps/${ws.appId}/boards`, { name: "Enterprise" });
      expect(board.status).toBe(201);
      more.boardId = board.body.id;
      const audit = await ws.console.post(`/workspaces/${ws.wsId}/feature-requests`, { appId: ws.appId, title: "Audit log", boardId: more.boardId });
      expect(audit.status).toBe(201);
      more.auditLog = audit.body.id;

      more.wishId = await sendFeedback(ws.appKey, "Dark theme please", "My eyes hurt at night when I read the app", "v5");
      more.anonymousId = await sendFeedback(ws.appKey, "Night mode", "");
      await sendFeedback(ws.appKey, "Export to PDF", "For the board meeting", "v1");
      more.otherFeedbackId = await sendFeedback(other.appKey, "Their bug", "Something of theirs");
      more.otherBoardId = (await other.console.get(`/workspaces/${other.wsId}/apps/${other.appId}/boards`)).body.boards[0].id;
      writer = await connect(ws.tokens.readWrite.token);
      reader = await connect(ws.tokens.read.token);
    });
    afterAll(async () => {
      for (const connection of open) await connection.close();
    });

    it("gets a request with its voters' companies, each counted once in its revenue per currency", async () => {
      const got = await call(reader, "get_request", { id: ws.ids.darkMode });
      expect(got.isError).toBe(false);
      expect(got.body.request).toMatchObject({ voteCount: 3, companyCount: 1, revenue: [{ currency: "EUR", mrr: 800 }] });
      expect(got.body.companies).toEqual({
        total: 1,
        hasMore: false,
        items: [
          {
            id: more.acme,
            externalId: "acme",
            name: "Acme",
            mrr: 800,
            currency: "EUR",
            plan: "business",
            voters: 2,
            dashboardUrl: `${PUBLIC_URL}/admin/w/${ws.wsId}/a/${ws.appId}/companies/${more.acme}`,
          },
        ],
      });
      expect(got.body.linkedFeedback).toEqual({ total: 0, hasMore: false, items: [] });

      const sso = await call(reader, "get_request", { id: ws.ids.sso });
      // The whale's own 50 USD is Beta's revenue now; the paying voters' sum still counts it.
      expect(sso.body.request).toMatchObject({ payingVoterRevenue: 50, revenue: [{ currency: "EUR", mrr: 1000 }] });
      expect(sso.body.companies.items).toMatchObject([{ name: "Beta", voters: 1 }]);
      const night = await call(reader, "get_request", { id: ws.ids.nightTheme, companyLimit: 1 });
      expect(night.body.companies).toMatchObject({ total: 1, hasMore: false, items: [{ name: "Acme", voters: 1 }] });
    });

    it("searches by board, tag and column, and sorts by votes or by the accounts' revenue in a currency", async () => {
      // Single sign-on and CSV export have one vote each: the newer first.
      expect(ids((await call(reader, "search_requests", { sort: "votes" })).body)).toEqual([ws.ids.darkMode, ws.ids.nightTheme, ws.ids.csvExport, ws.ids.sso, more.auditLog]);
      expect(ids((await call(reader, "search_requests", { sort: "company_revenue", currency: "eur" })).body).slice(0, 3)).toEqual([ws.ids.sso, ws.ids.darkMode, ws.ids.nightTheme]);
      const usd = await call(reader, "search_requests", { sort: "company_revenue", limit: 1 });
      expect(usd.body.requests).toMatchObject([{ id: ws.ids.csvExport, companyCount: 0, revenue: [{ currency: "USD", mrr: 49 }] }]);
      expect(ids((await call(reader, "search_requests", { sort: "company_count", limit: 3 })).body)).toEqual([ws.ids.darkMode, ws.ids.nightTheme, ws.ids.sso]);

      expect(ids((await call(reader, "search_requests", { boardId: more.boardId })).body)).toEqual([more.auditLog]);
      expect(ids((await call(reader, "search_requests", { tagIds: [ws.tagId], columnId: ws.columns.planned })).body)).toEqual([ws.ids.darkMode]);
      expect(ids((await call(reader, "search_requests", { tagIds: [ws.tagId], columnId: ws.columns.shipped })).body)).toEqual([]);
      expect(ids((await call(reader, "search_requests", { minCompanyRevenue: 900, currency: "EUR" })).body)).toEqual([ws.ids.sso]);
      expect(ids((await call(reader, "search_requests", { plan: "business" })).body)).toEqual([ws.ids.darkMode, ws.ids.nightTheme]);
      expect(ids((await call(reader, "search_requests", { companyId: more.beta })).body)).toEqual([ws.ids.sso]);
      expect(ids((await call(reader, "search_requests", { minCompanies: 1, sort: "newest" })).body)).toEqual([ws.ids.sso, ws.ids.nightTheme, ws.ids.darkMode]);
    });

    it("links feedback to a request, counting the reporter as a voter once, and unlinks it exactly", async () => {
      const linked = await call(writer, "link_feedback", { feedbackId: more.wishId, requestId: ws.ids.darkMode });
      expect(linked.isError, linked.text).toBe(false);
      expect(linked.body).toMatchObject({
        linked: true,
        alreadyLinked: false,
        feedback: { id: more.wishId, linkedRequest: { id: ws.ids.darkMode, title: "Dark mode" } },
        request: { id: ws.ids.darkMode, voteCount: 4 },
      });
      const again = await call(writer, "link_feedback", { feedbackId: more.wishId, requestId: ws.ids.darkMode });
      expect(again.body).toMatchObject({ linked: false, alreadyLinked: true, request: { voteCount: 4 } });
      expect(await votesOf(ws.ids.darkMode)).toBe(4);

      const request = await call(reader, "get_request", { id: ws.ids.darkMode });
      expect(request.body.linkedFeedback).toEqual({
        total: 1,
        hasMore: false,
        items: [
          {
            id: more.wishId,
            title: "Dark theme please",
            quote: "My eyes hurt at night when I read the app",
            reporterName: "v5",
            reporterIdentified: true,
            linkedAt: linked.body.feedback.linkedRequest.linkedAt,
            createdAt: expect.any(String),
            dashboardUrl: `${PUBLIC_URL}/admin/w/${ws.wsId}/feedback`,
          },
        ],
      });
      const feedback = await call(reader, "get_feedback", { id: more.wishId });
      expect(feedback.body.feedback.linkedRequest).toEqual({
        id: ws.ids.darkMode,
        title: "Dark mode",
        linkedAt: linked.body.feedback.linkedRequest.linkedAt,
        dashboardUrl: `${PUBLIC_URL}/admin/w/${ws.wsId}/a/${ws.appId}/requests/${ws.ids.darkMode}`,
      });
      const listed = await call(reader, "search_feedback", { text: "dark theme" });
      expect(listed.body.feedback).toMatchObject([{ id: more.wishId, linkedRequest: { id: ws.ids.darkMode } }]);

      // Linked elsewhere, the link moves and takes its vote along.
      const moved = await call(writer, "link_feedback", { feedbackId: more.wishId, requestId: ws.ids.nightTheme });
      expect(moved.body).toMatchObject({ linked: true, request: { id: ws.ids.nightTheme, voteCount: 3 } });
      expect([await votesOf(ws.ids.darkMode), await votesOf(ws.ids.nightTheme)]).toEqual([3, 3]);

      const unlinked = await call(writer, "unlink_feedback", { feedbackId: more.wishId });
      expect(unlinked.body).toMatchObject({ unlinked: true, feedback: { id: more.wishId, linkedRequest: null }, previousRequest: { id: ws.ids.nightTheme, voteCount: 2 } });
      const unlinkedAgain = await call(writer, "unlink_feedback", { feedbackId: more.wishId });
      expect(unlinkedAgain.body).toMatchObject({ unlinked: false, previousRequest: null });
      expect(await linkOf(more.wishId)).toBeNull();
      expect(await votesOf(ws.ids.nightTheme)).toBe(2);
    });

    it("keeps a reporter's own vote when their feedback is unlinked, and counts no one for anonymous feedback", async () => {
      // v3 voted for Dark mode before sending "Crash on launch".
      expect((await call(writer, "link_feedback", { feedbackId: ws.feedbackId, requestId: ws.ids.darkMode })).body.request.voteCount).toBe(3);
      expect((await call(writer, "unlink_feedback", { feedbackId: ws.feedbackId })).body.previousRequest.voteCount).toBe(3);
      const anonymous = await call(writer, "link_feedback", { feedbackId: more.anonymousId, requestId: ws.ids.csvExport });
      expect(anonymous.body).toMatchObject({ linked: true, request: { voteCount: 1 } });
      const listed = (await call(reader, "get_request", { id: ws.ids.csvExport })).body.linkedFeedback.items;
      // No description: the title is the quote.
      expect(listed).toMatchObject([{ id: more.anonymousId, quote: "Night mode", reporterIdentified: false }]);
      expect((await call(writer, "unlink_feedback", { feedbackId: more.anonymousId })).body.previousRequest.voteCount).toBe(1);
    });

    it("gets a company with its users' votes, comments and feedback, to tokens of its workspace only", async () => {
      const got = await call(reader, "get_company", { id: more.acme });
      expect(got.isError, got.text).toBe(false);
      expect(got.body.company).toMatchObject({
        id: more.acme,
        name: "Acme",
        mrr: 800,
        currency: "EUR",
        plan: "business",
        userCount: 2,
        requestCount: 2,
        dashboardUrl: `${PUBLIC_URL}/admin/w/${ws.wsId}/a/${ws.appId}/companies/${more.acme}`,
      });
      // v1 voted twice and sent feedback; v2 voted once and commented.
      const users = [...got.body.users.items].sort((a: { votes: number }, b: { votes: number }) => b.votes - a.votes);
      expect(users).toMatchObject([
        { votes: 2, comments: 0, feedback: 1 },
        { votes: 1, comments: 1, feedback: 0 },
      ]);
      expect(got.body.feedback.items[0].userPublicId).toBe(users[0].publicId);
      expect(got.body.votes.total).toBe(3);
      expect(got.body.comments).toMatchObject({ total: 1, items: [{ featureRequestId: ws.ids.darkMode, body: "Please follow the system setting", hidden: false }] });
      expect(got.body.feedback).toMatchObject({ total: 1, items: [{ title: "Export to PDF", dashboardUrl: `${PUBLIC_URL}/admin/w/${ws.wsId}/feedback` }] });
      expect((await call(reader, "get_company", { id: more.acme, limit: 1 })).body.users).toMatchObject({ hasMore: true, items: [{}] });

      const otto = await connect(other.token);
      const refused = await call(otto, "get_company", { id: more.acme });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/company_not_found.*"fields":\["id"\]/);
    });

    it("offers linking to read-write tokens only", async () => {
      const names = (await reader.client.listTools()).tools.map((tool) => tool.name);
      expect(names).not.toContain("link_feedback");
      expect(names).not.toContain("unlink_feedback");
      expect((await writer.client.listTools()).tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["link_feedback", "unlink_feedback"]));
      const refused = await call(reader, "link_feedback", { feedbackId: more.wishId, requestId: ws.ids.darkMode });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/link_feedback not found/);
      expect(await linkOf(more.wishId)).toBeNull();
      expect(await votesOf(ws.ids.darkMode)).toBe(3);
    });

    it("refuses bad input and other workspaces' ids with a tool error naming the field, and writes nothing", async () => {
      const declined = await ws.console.post(`/workspaces/${ws.wsId}/feature-requests/${more.auditLog}/decline`, {});
      expect(declined.status).toBe(200);
      const cases: [string, Record<string, unknown>, RegExp][] = [
        ["link_feedback", { feedbackId: "sub_1", requestId: ws.ids.darkMode }, /feedbackId/],
        ["link_feedback", { feedbackId: more.wishId }, /requestId/],
        ["link_feedback", { feedbackId: more.wishId, requestId: ws.ids.darkMode, vote: true }, /vote/],
        ["link_feedback", { feedbackId: "sub_00000000000000000000000000", requestId: ws.ids.darkMode }, /submission_not_found.*"fields":\["feedbackId"\]/],
        ["link_feedback", { feedbackId: more.otherFeedbackId, requestId: ws.ids.darkMode }, /submission_not_found.*"fields":\["feedbackId"\]/],
        ["link_feedback", { feedbackId: more.wishId, requestId: other.requestId }, /feature_request_not_found.*"fields":\["requestId"\]/],
        ["link_feedback", { feedbackId: more.wishId, requestId: more.auditLog }, /feature_request_not_linkable.*"fields":\["requestId"\]/],
        ["unlink_feedback", { feedbackId: more.otherFeedbackId }, /submission_not_found.*"fields":\["feedbackId"\]/],
        ["get_feedback", { id: more.otherFeedbackId }, /submission_not_found/],
        ["get_request", { id: ws.ids.darkMode, companyLimit: 0 }, /companyLimit/],
        ["get_company", { id: "acme" }, /id/],
        ["get_company", { id: "co_00000000000000000000000000" }, /company_not_found.*"fields":\["id"\]/],
        ["search_requests", { currency: "XYZ" }, /currency/],
        ["search_requests", { currency: "euro" }, /currency/],
        ["search_requests", { minCompanyRevenue: -1 }, /minCompanyRevenue/],
        ["search_requests", { companyId: "co_00000000000000000000000000" }, /company_not_found.*"fields":\["companyId"\]/],
        ["search_requests", { boardId: more.otherBoardId }, /board_not_found.*"fields":\["boardId"\]/],
      ];
      for (const [tool, args, message] of cases) {
        const answer = await call(writer, tool, args);
        expect({ tool, args, isError: answer.isError }).toEqual({ tool, args, isError: true });
        expect(answer.text, `${tool} ${JSON.stringify(args)}`).toMatch(message);
      }
      expect(await linkOf(more.wishId)).toBeNull();
      expect(await linkOf(more.otherFeedbackId)).toBeNull();
      expect(await votesOf(ws.ids.darkMode)).toBe(3);
    });
  });
});
