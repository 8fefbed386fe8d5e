import { signUserAttributes, type UserAttributes } from "@tidings/client";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable } from "./browser.js";
import { openDashboard, type DashboardSession } from "./dashboard-session.js";

const OWNER = { name: "Sam Segment", email: "sam@segments.example", password: "correct horse battery staple" };

describe.skipIf(!chromiumAvailable())("dashboard segments in Chromium", () => {
  let dash: DashboardSession;
  let baseUrl = "";
  let page: Page;
  const state = { wsId: "", appId: "", appKey: "" };
  let report: (userToken: string, attributes: UserAttributes) => Promise<void> = async () => {};

  /** The operator's view of the data, to check what the UI did. */
  const consoleApi = <T,>(method: string, url: string, body?: unknown) => dash.consoleApi<T>(method, url, body);
  const shot = (name: string) => dash.shot(name);
  const segmentRow = () => page.getByTestId("segment-row").filter({ hasText: "EU pro payers" });

  beforeAll(async () => {
    dash = await openDashboard({ name: "segments", owner: OWNER, workspace: "Fieldwork", app: "Field Notes" });
    ({ baseUrl, page } = dash);
    state.wsId = dash.wsId;
    state.appId = dash.appId;
    state.appKey = dash.appKey;

    // End users as a host app reports them: two paying pro users at an EU company, one in the US, one free.
    const { signingSecret } = await consoleApi<{ signingSecret: string }>("POST", `/workspaces/${state.wsId}/apps/${state.appId}/signing-secret`);
    report = async (userToken: string, attributes: UserAttributes) => {
      const signed = await signUserAttributes({ secret: signingSecret, appKey: state.appKey, userToken, attributes });
      const res = await fetch(`${baseUrl}/api/v1/public/apps/${state.appKey}/user`, {
        method: "PUT",
        headers: { "content-type": "application/json", "x-user-token": userToken },
        body: JSON.stringify({ ...attributes, ...signed }),
      });
      expect(res.status).toBe(200);
    };
    const acme = { id: "acme", name: "Acme", plan: "enterprise", attributes: { region: "eu" } };
    await report("acme-1", { isPaying: true, plan: "pro", mrr: 49, currency: "EUR", company: acme });
    await report("acme-2", { isPaying: true, plan: "pro", mrr: 49, currency: "EUR", company: acme });
    await report("globex-1", { isPaying: true, plan: "pro", mrr: 49, currency: "USD", company: { id: "globex", name: "Globex", attributes: { region: "us" } } });
    await report("free-1", { isPaying: false, plan: "free" });
  }, 60_000);
  afterAll(async () => {
    await dash?.close();
  }, 60_000);

  it("creates a segment from the rule form, a refused currency shown on the form, and lists its members", async () => {
    await page.getByRole("link", { name: "Segments" }).click();
    await page.getByRole("heading", { name: "Segments", level: 1 }).waitFor();
    await page.getByText("No segments yet.").waitFor();

    await page.getByLabel("Segment name").fill("EU pro payers");
    await page.getByLabel("User plans").fill("pro");
    await page.getByLabel("Paying").selectOption({ label: "Paying only" });
    await page.getByRole("button", { name: "Add attribute condition" }).click();
    await page.getByLabel("Attribute 1 key").fill("region");
    await page.getByLabel("Attribute 1 values").fill("eu");
    // A currency the server does not know is its to refuse: the message shows on the form, nothing is added.
    await page.getByLabel("Company MRR currency").fill("XYZ");
    await page.getByRole("button", { name: "Add segment" }).click();
    await page.getByRole("form", { name: "Add segment" }).getByText("Unknown currency code").waitFor();
    expect(await page.getByTestId("segment-row").count()).toBe(0);

    await page.getByLabel("Company MRR currency").fill("");
    await page.getByRole("button", { name: "Add segment" }).click();
    await segmentRow().getByTestId("segment-count").getByText("2 members").waitFor();
    const { segments } = await consoleApi<{ segments: { name: string; rule: unknown }[] }>("GET", `/workspaces/${state.wsId}/apps/${state.appId}/segments`);
    expect(segments).toEqual([expect.objectContaining({ name: "EU pro payers", rule: { user: { plans: ["pro"], isPaying: true }, company: { attributes: [{ key: "region", in: ["eu"] }] } } })]);

    await segmentRow().getByRole("button", { name: "Members of EU pro payers" }).click();
    const members = page.getByTestId("segment-members");
    await expect.poll(async () => (await members.locator("tbody tr").allInnerTexts()).length).toBe(2);
    for (const text of await members.locator("tbody tr").allInnerTexts()) expect(text).toMatch(/Acme.*pro.*€49\.00/s);
    await shot("members");
  });

  it("opens a private board to the segment only", async () => {
    await page.getByRole("link", { name: "Boards, tags and fields" }).click();
    await page.getByRole("heading", { name: "Boards", exact: true }).waitFor();
    await page.getByLabel("Board name").fill("Customer council");
    await page.getByLabel("Visibility").selectOption({ label: "Private" });
    await page.getByLabel("Segment").selectOption({ label: "EU pro payers" });
    await page.getByRole("button", { name: "Add board" }).click();
    await page.getByTestId("board-row").filter({ hasText: "Customer council" }).getByText("Private: segment EU pro payers").waitFor();
    const { boards } = await consoleApi<{ boards: { name: string; accessRule: unknown }[] }>("GET", `/workspaces/${state.wsId}/apps/${state.appId}/boards`);
    const { segments } = await consoleApi<{ segments: { id: string }[] }>("GET", `/workspaces/${state.wsId}/apps/${state.appId}/segments`);
    expect(boards.find((b) => b.name === "Customer council")?.accessRule).toEqual({ segmentId: segments[0]?.id });
  });

  it("filters the end-user list by the segment", async () => {
    await page.getByRole("link", { name: "End users" }).click();
    await page.getByRole("heading", { name: "End users" }).waitFor();
    const rows = page.locator("table tbody tr");
    await expect.poll(() => rows.count()).toBe(4);
    await page.getByLabel("Segment").selectOption({ label: "EU pro payers" });
    await expect.poll(() => rows.count()).toBe(2);
    for (const text of await rows.allInnerTexts()) expect(text).toContain("Acme");
    await page.getByLabel("Segment").selectOption({ label: "Anyone" });
    await expect.poll(() => rows.count()).toBe(4);
  });

  it("mails a release draft only to the segment", async () => {
    await page.getByRole("link", { name: "Changelog" }).click();
    await page.getByLabel("Title", { exact: true }).fill("EU pricing");
    await page.getByLabel("Email only to segment").selectOption({ label: "EU pro payers" });
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByText("Saved.").waitFor();
    const { entries } = await consoleApi<{ entries: { title: string; emailSegmentId: string | null }[] }>("GET", `/workspaces/${state.wsId}/changelog?appId=${state.appId}`);
    const { segments } = await consoleApi<{ segments: { id: string }[] }>("GET", `/workspaces/${state.wsId}/apps/${state.appId}/segments`);
    expect(entries.map((e) => [e.title, e.emailSegmentId])).toEqual([["EU pricing", segments[0]?.id]]);
  });

  it("refuses to delete the segment while the board and the release use it, naming them", async () => {
    await page.getByRole("link", { name: "Segments" }).click();
    await segmentRow().getByRole("button", { name: "Delete segment EU pro payers" }).click();
    await page.getByRole("alert").getByText("The segment is in use: boards “Customer council”; releases “EU pricing”. Change those first.").waitFor();
    await shot("in-use");
    expect(await page.getByTestId("segment-row").count()).toBe(1);
    expect((await consoleApi<{ segments: unknown[] }>("GET", `/workspaces/${state.wsId}/apps/${state.appId}/segments`)).segments).toHaveLength(1);
  });

  it("pages through a large segment's members with More members", async () => {
    for (let i = 0; i < 51; i += 1) await report(`team-${i}`, { plan: "team" });
    await consoleApi("POST", `/workspaces/${state.wsId}/apps/${state.appId}/segments`, { name: "Team plan", rule: { user: { plans: ["team"] } } });
    await page.reload();
    const team = page.getByTestId("segment-row").filter({ hasText: "Team plan" });
    await team.getByTestId("segment-count").getByText("51 members").waitFor();
    await team.getByRole("button", { name: "Members of Team plan" }).click();
    const rows = team.getByTestId("segment-members").locator("tbody tr");
    await expect.poll(() => rows.count()).toBe(50);
    await team.getByRole("button", { name: "More members" }).click();
    await expect.poll(() => rows.count()).toBe(51);
    expect(await team.getByRole("button", { name: "More members" }).count()).toBe(0);
    expect(new Set(await rows.locator("code").allInnerTexts()).size).toBe(51);
  });
});
