import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable } from "./browser.js";
import { openDashboard, type DashboardSession } from "./dashboard-session.js";

const OWNER = { name: "Eve Evidence", email: "eve@evidence.example", password: "correct horse battery staple" };

type Detail = { voteCount: number; feedback: { submissionId: string; voterPublicId: string | null }[]; voters: { publicId: string; addedByTeam: boolean; note: string | null }[] };

describe.skipIf(!chromiumAvailable())("dashboard feedback links and votes on behalf in Chromium", () => {
  let dash: DashboardSession;
  let baseUrl = "";
  let page: Page;
  const state = { wsId: "", appId: "", appKey: "", rex: "" };

  /** The operator's view of the data, to check what the UI did. */
  const consoleApi = <T,>(method: string, url: string, body?: unknown) => dash.consoleApi<T>(method, url, body);
  const newRequest = async (title: string) => (await consoleApi<{ id: string }>("POST", `/workspaces/${state.wsId}/feature-requests`, { appId: state.appId, title })).id;
  const detail = (id: string) => consoleApi<Detail>("GET", `/workspaces/${state.wsId}/feature-requests/${id}`);
  const sendFeedback = async (userToken: string, title: string, description: string) => {
    const res = await fetch(`${baseUrl}/api/v1/feedback`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-user-token": userToken },
      body: JSON.stringify({ appKey: state.appKey, platform: "web", title, description, reporterEmail: `${userToken}@customer.example` }),
    });
    expect(res.status).toBe(201);
  };
  const shot = (name: string) => dash.shot(name);
  const openRequest = async (id: string, title: string) => {
    await page.goto(`${baseUrl}/admin/w/${state.wsId}/a/${state.appId}/requests/${id}`);
    await page.getByRole("heading", { name: title, level: 1 }).waitFor();
  };

  beforeAll(async () => {
    dash = await openDashboard({ name: "evidence", owner: OWNER, workspace: "Evidence", app: "Evidence Notes" });
    ({ baseUrl, page } = dash);
    state.wsId = dash.wsId;
    state.appId = dash.appId;
    state.appKey = dash.appKey;
  }, 60_000);
  afterAll(async () => {
    await dash?.close();
  }, 60_000);

  it("links a feedback item to a request picked by search, lists it with its quote on the request, and unlinks it there", async () => {
    const id = await newRequest("Offline mode");
    await newRequest("Dark theme");
    await sendFeedback("rex", "Works on the train?", "I lose everything when the train goes into a tunnel, please keep my notes offline.");

    await page.getByRole("link", { name: "Feedback" }).click();
    await page.getByRole("button", { name: /Works on the train\?/ }).click();
    const sidebar = page.getByTestId("submission-detail");
    await sidebar.getByRole("button", { name: "Link to request" }).click();
    await sidebar.getByLabel("Search").fill("offline");
    await sidebar.getByRole("button", { name: "Search" }).click();
    await sidebar.getByRole("button", { name: "Link to “Dark theme”" }).waitFor({ state: "detached" });
    await sidebar.getByRole("button", { name: "Link to “Offline mode”" }).click();
    await page.getByText("Feedback linked.").waitFor();
    await sidebar.getByRole("link", { name: "Offline mode" }).waitFor();

    const linked = await detail(id);
    expect(linked.feedback).toHaveLength(1);
    // The identified reporter counts as a voter.
    expect(linked.voteCount).toBe(1);
    state.rex = linked.feedback[0]!.voterPublicId ?? "";

    await sidebar.getByRole("link", { name: "Offline mode" }).click();
    await page.getByRole("heading", { name: "Offline mode", level: 1 }).waitFor();
    const evidence = page.getByTestId("linked-feedback");
    expect(await evidence.locator("blockquote").innerText()).toBe("I lose everything when the train goes into a tunnel, please keep my notes offline.");
    expect(await evidence.innerText()).toContain("rex@customer.example");
    await shot("linked");
    await evidence.getByRole("button", { name: "Unlink “Works on the train?”" }).click();
    await page.getByText("No feedback is linked to this request.").waitFor();
    expect(await detail(id)).toMatchObject({ feedback: [], voteCount: 0 });
  });

  it("turns a feedback item into a new request linked to it", async () => {
    await sendFeedback("sam", "Export to PDF", "Our auditors want PDFs.");
    await page.getByRole("link", { name: "Feedback" }).click();
    await page.getByRole("button", { name: /Export to PDF/ }).click();
    const sidebar = page.getByTestId("submission-detail");
    await sidebar.getByRole("button", { name: "Turn into request" }).click();
    await page.getByText("A request was created from this feedback.").waitFor();
    await sidebar.getByRole("link", { name: "Export to PDF" }).click();
    await page.getByRole("heading", { name: "Export to PDF", level: 1 }).waitFor();
    await page.getByTestId("linked-feedback").getByText("Our auditors want PDFs.").waitFor();
  });

  it("votes on a customer's behalf: an unknown email shows the server's refusal in the form, a known user's vote shows as the team's", async () => {
    const id = await newRequest("Shared notebooks");
    await openRequest(id, "Shared notebooks");
    const form = page.getByRole("form", { name: "Vote on behalf" });
    await form.getByLabel("Email", { exact: true }).fill("nobody@nowhere.example");
    await form.getByRole("button", { name: "Add vote" }).click();
    await form.getByRole("alert").getByText("No end user of this app has email nobody@nowhere.example").waitFor();
    expect((await detail(id)).voteCount).toBe(0);
    await shot("on-behalf-unknown");

    // Rex is known: his feedback made him an end user of the app.
    const rex = state.rex;
    await form.getByLabel("Customer").selectOption("endUserId");
    await form.getByLabel("End user id", { exact: true }).fill(rex);
    await form.getByLabel("Note (why they want it)").fill("Asked on the renewal call");
    await form.getByRole("button", { name: "Add vote" }).click();
    await form.getByText(`Vote added for ${rex}.`).waitFor();
    const voters = page.getByTestId("voters");
    await voters.getByTestId("added-by-team").getByText("added by the team: Asked on the renewal call").waitFor();
    expect((await detail(id)).voters).toMatchObject([{ publicId: rex, addedByTeam: true, note: "Asked on the renewal call" }]);
  });
});
