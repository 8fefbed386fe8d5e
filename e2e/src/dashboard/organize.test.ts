import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable } from "./browser.js";
import { openDashboard, type DashboardSession } from "./dashboard-session.js";

const OWNER = { name: "Tara Triage", email: "tara@sorted.example", password: "correct horse battery staple" };

type Record = { id: string; title: string; boardId: string; tags: { slug: string }[]; fields: { key: string; value: unknown }[] };

describe.skipIf(!chromiumAvailable())("dashboard boards, tags and custom fields in Chromium", () => {
  let dash: DashboardSession;
  let page: Page;
  const state = { wsId: "", appId: "", appKey: "" };

  /** The operator's view of the data, to check what the UI did. */
  const consoleApi = <T,>(method: string, url: string, body?: unknown) => dash.consoleApi<T>(method, url, body);
  const records = async () =>
    (await consoleApi<{ requests: Record[] }>("GET", `/workspaces/${state.wsId}/feature-requests?appId=${state.appId}&limit=200`)).requests;
  const record = async (title: string) => (await records()).find((r) => r.title === title)!;
  const shot = (name: string) => dash.shot(name);
  const rows = () => page.getByTestId("request-row");
  const titles = async () => (await rows().locator("strong").allInnerTexts()).sort();

  beforeAll(async () => {
    dash = await openDashboard({ name: "organize", owner: OWNER, workspace: "Sorted", app: "Sorted Notes" });
    ({ page } = dash);
    state.wsId = dash.wsId;
    state.appId = dash.appId;
    state.appKey = dash.appKey;
  }, 60_000);
  afterAll(async () => {
    await dash?.close();
  }, 60_000);

  it("adds a private board, shows a taken slug at its input, and reorders the boards", async () => {
    await page.getByRole("link", { name: "Boards, tags and fields" }).click();
    await page.getByRole("heading", { name: "Boards", exact: true }).waitFor();
    await page.getByTestId("board-row").filter({ hasText: "Feature requests" }).getByText("Default").waitFor();

    await page.getByLabel("Board name").fill("Integrations");
    await page.getByLabel("Board description").fill("Plugs into other tools");
    await page.getByLabel("Visibility").selectOption({ label: "Private" });
    await page.getByLabel("Plans").fill("pro, team");
    await page.getByLabel("Paying customers").selectOption({ label: "Paying customers only" });
    await page.getByRole("button", { name: "Add board" }).click();
    const integrations = page.getByTestId("board-row").filter({ hasText: "Integrations" });
    await integrations.getByText("Private: plans pro, team · paying customers").waitFor();

    // The server's refusal shows at the input it is about, and nothing is added.
    await page.getByLabel("Board name").fill("Integrations again");
    await page.getByLabel("Board slug").fill("integrations");
    await page.getByRole("button", { name: "Add board" }).click();
    await page.locator("#new-board-slug-error").getByText("That slug is already in use").waitFor();
    expect(await page.getByTestId("board-row").count()).toBe(2);
    await page.getByLabel("Board slug").fill("");
    await page.getByLabel("Board name").fill("Bugs");
    await page.getByRole("button", { name: "Add board" }).click();
    await page.getByTestId("board-row").filter({ hasText: "Bugs" }).waitFor();

    await page.getByRole("button", { name: "Move Bugs up" }).click();
    await expect.poll(async () => page.getByTestId("board-row").locator("strong").allInnerTexts()).toEqual(["Feature requests Default", "Bugs", "Integrations"]);
    const boards = await consoleApi<{ boards: { slug: string; visibility: string; accessRule: unknown }[] }>("GET", `/workspaces/${state.wsId}/apps/${state.appId}/boards`);
    expect(boards.boards.map((b) => [b.slug, b.visibility, b.accessRule])).toEqual([
      ["feature-requests", "public", null],
      ["bugs", "public", null],
      ["integrations", "private", { plans: ["pro", "team"], isPaying: true }],
    ]);
  });

  it("adds public and team-only tags and a custom field, with the server's refusals at their inputs", async () => {
    await page.getByLabel("Tag name").fill("Urgent");
    await page.getByLabel("Colour", { exact: true }).fill("#dc2626");
    await page.getByRole("button", { name: "Add tag" }).click();
    await page.getByTestId("tag-row").filter({ hasText: "Urgent" }).waitFor();
    await page.getByLabel("Tag name").fill("Enterprise ask");
    await page.getByLabel("Shown to").selectOption({ label: "Team only" });
    await page.getByRole("button", { name: "Add tag" }).click();
    await page.getByTestId("tag-row").filter({ hasText: "Enterprise ask" }).getByTestId("tag-chip").filter({ hasText: "team only" }).waitFor();
    await page.getByLabel("Tag name").fill("Urgent twice");
    await page.getByLabel("Tag slug").fill("urgent");
    await page.getByRole("button", { name: "Add tag" }).click();
    await page.locator("#new-tag-slug-error").getByText("That slug is already in use").waitFor();

    await page.getByLabel("Field label").fill("Plan");
    await page.getByLabel("Type", { exact: true }).selectOption({ label: "Single select" });
    await page.getByLabel("Options").fill("free | Free\npro | Pro");
    await page.getByRole("button", { name: "Add field" }).click();
    await page.getByTestId("field-row").filter({ hasText: "Plan" }).getByText("Free, Pro").waitFor();
    await page.getByLabel("Field label").fill("Seats");
    await page.getByLabel("Type", { exact: true }).selectOption({ label: "Number" });
    await page.getByLabel("Minimum").fill("1");
    await page.getByLabel("Whole numbers only").check();
    await page.getByRole("button", { name: "Add field" }).click();
    await page.getByTestId("field-row").filter({ hasText: "Seats" }).waitFor();
    // A key another field has is the server's to refuse: its message shows at the key.
    await page.getByLabel("Field label").fill("Tier");
    await page.getByLabel("Field key").fill("plan");
    await page.getByRole("button", { name: "Add field" }).click();
    await page.locator("#new-field-key-error").getByText("Another active field of the app has that key").waitFor();
    await shot("settings");
    expect(await page.getByTestId("field-row").count()).toBe(2);
  });

  it("tags requests in bulk, moves one to another board, and filters by board, tag and field value", async () => {
    for (const [title, plan] of [["Dark mode", "pro"], ["Export to CSV", "free"], ["Calendar sync", null]] as const) {
      await consoleApi("POST", `/workspaces/${state.wsId}/feature-requests`, { appId: state.appId, title, ...(plan === null ? {} : { fields: { plan } }) });
    }
    await page.getByRole("link", { name: "Feature requests" }).click();
    await page.getByRole("tab", { name: "All requests" }).click();
    await expect.poll(titles).toEqual(["Calendar sync", "Dark mode", "Export to CSV"]);

    await page.getByRole("checkbox", { name: "Dark mode" }).check();
    await page.getByRole("checkbox", { name: "Export to CSV" }).check();
    await page.getByLabel("Tag for selected").selectOption({ label: "Urgent" });
    await page.getByRole("button", { name: "Add tag" }).click();
    await page.getByText("Tag added to 2 requests.").waitFor();
    await rows().filter({ hasText: "Dark mode" }).getByTestId("tag-chip").getByText("Urgent").waitFor();

    await page.getByRole("checkbox", { name: "Export to CSV" }).uncheck();
    await page.getByLabel("Board for selected").selectOption({ label: "Bugs" });
    await page.getByRole("button", { name: "Move to board" }).click();
    await page.getByText("1 request moved.").waitFor();
    await rows().filter({ hasText: "Dark mode" }).getByText(/· Bugs/).waitFor();

    const search = page.getByRole("search");
    await search.getByLabel("Board").selectOption({ label: "Bugs" });
    await expect.poll(titles).toEqual(["Dark mode"]);
    await search.getByLabel("Board").selectOption({ label: "Any board" });
    await search.getByLabel("Tag").selectOption({ label: "Urgent" });
    await expect.poll(titles).toEqual(["Dark mode", "Export to CSV"]);
    await search.getByLabel("Field").selectOption({ label: "Plan" });
    await search.getByLabel("Value of Plan").selectOption({ label: "Free" });
    await search.getByRole("button", { name: "Add filter" }).click();
    await expect.poll(titles).toEqual(["Export to CSV"]);
    await shot("filtered");
    await search.getByRole("button", { name: "Remove the tag filter Urgent" }).click();
    await search.getByRole("button", { name: "Remove the filter Plan: Free" }).click();
    await expect.poll(titles).toEqual(["Calendar sync", "Dark mode", "Export to CSV"]);

    const dark = await record("Dark mode");
    const bugs = (await consoleApi<{ boards: { id: string; slug: string }[] }>("GET", `/workspaces/${state.wsId}/apps/${state.appId}/boards`)).boards.find((b) => b.slug === "bugs")!;
    expect(dark.boardId).toBe(bugs.id);
    expect(dark.tags.map((t) => t.slug)).toEqual(["urgent"]);
    expect((await record("Export to CSV")).tags.map((t) => t.slug)).toEqual(["urgent"]);
    expect((await record("Calendar sync")).tags).toEqual([]);
  });

  it("changes a request's board, tags and field values on its page, a refused value shown at its input", async () => {
    await page.getByRole("link", { name: "Open Dark mode" }).click();
    await page.getByRole("heading", { name: "Board, tags and fields" }).waitFor();
    const bugs = (await record("Dark mode")).boardId;
    await expect.poll(() => page.getByLabel("Board", { exact: true }).inputValue()).toBe(bugs);
    await page.getByRole("button", { name: "Remove tag Urgent" }).click();
    await page.getByLabel("Add a tag").selectOption({ label: "Enterprise ask" });
    await page.getByTestId("tag-chip").getByText("Enterprise ask").waitFor();
    expect(await page.getByTestId("tag-chip").count()).toBe(1);

    await page.getByLabel("Plan").selectOption({ label: "Free" });
    await page.getByLabel("Seats").fill("0");
    await page.getByRole("button", { name: "Save fields" }).click();
    await page.locator("#cf-seats-error").getByText("Must be at least 1").waitFor();
    expect((await record("Dark mode")).fields).toEqual([expect.objectContaining({ key: "plan", value: "pro" })]);
    await page.getByLabel("Seats").fill("12");
    await page.getByRole("button", { name: "Save fields" }).click();
    await page.getByText("Saved.").waitFor();
    await expect.poll(async () => (await record("Dark mode")).fields.map((f) => [f.key, f.value])).toEqual([["plan", "free"], ["seats", 12]]);

    await page.getByLabel("Board", { exact: true }).selectOption({ label: "Feature requests" });
    const standard = (await record("Calendar sync")).boardId;
    await expect.poll(async () => (await record("Dark mode")).boardId).toBe(standard);
    const dark = await record("Dark mode");
    expect(dark.tags.map((t) => t.slug)).toEqual(["enterprise-ask"]);
    await shot("detail");
  });
});
