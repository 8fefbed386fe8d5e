import { describe, expect, it } from "vitest";
import { visibleText } from "./components/JsonValue.js";
import { fromLocalInput, toLocalInput } from "./changelog-draft.js";
import { mergeBody, suggestedKeep } from "./pages/Duplicates.js";
import { inboxParams, submissionLabel } from "./feedback-inbox.js";
import { formatMoney, formatRevenue } from "./money.js";
import { validateRequest } from "./pages/RequestEditForm.js";
import { githubMappingBody } from "./pages/GithubMappingForm.js";
import { requestListParams } from "./request-list.js";
import { validateVersion } from "./pages/VersionForm.js";
import { validateWebhook } from "./pages/WebhookForm.js";
import { parseRoute } from "./router.js";

const noFilters = { status: "all", q: "", platform: "", priority: "", assignee: "", from: "", to: "" };

describe("dashboard page helpers", () => {
  it("builds the inbox query from the filters, dates as whole inclusive UTC days", () => {
    expect(inboxParams(noFilters, { limit: 20, offset: 40 }).toString()).toBe("limit=20&offset=40");
    const params = inboxParams({ status: "active", q: "crash", platform: "ios", priority: "!!", assignee: "unassigned", from: "2026-01-02", to: "2026-01-03" }, { limit: 20, offset: 0 });
    expect(Object.fromEntries(params)).toEqual({
      limit: "20",
      offset: "0",
      triageStatus: "active",
      q: "crash",
      platform: "ios",
      priority: "!!",
      assignedTo: "unassigned",
      from: "2026-01-02T00:00:00.000Z",
      to: "2026-01-03T23:59:59.999Z",
    });
  });

  it("validates request and version forms before sending", () => {
    expect(validateRequest("  ", "")).toEqual({ title: ["Required."] });
    expect(validateRequest("x".repeat(201), "")).toEqual({ title: ["Use at most 200 characters."] });
    expect(validateRequest("Fine", "d".repeat(20_001))).toEqual({ description: ["Use at most 20000 characters."] });
    expect(validateRequest("Fine", "")).toEqual({});
    expect(validateVersion("", "")).toEqual({ label: ["Required."] });
    expect(validateVersion("v".repeat(61), "x".repeat(2001))).toEqual({ label: ["Use at most 60 characters."], description: ["Use at most 2000 characters."] });
    expect(validateVersion("2.0", "")).toEqual({});
  });

  it("asks for an http(s) webhook URL and at least one event before sending", () => {
    expect(validateWebhook("hooks.example.com", ["vote.added"])).toEqual({ url: ["Enter a URL starting with http:// or https://."] });
    expect(validateWebhook("ftp://hooks.example.com", [])).toEqual({ url: ["Enter a URL starting with http:// or https://."], events: ["Choose at least one event."] });
    expect(validateWebhook(" https://hooks.example.com/in ", ["vote.added"])).toEqual({});
  });

  it("counts lengths in characters as the server does, an emoji being one", () => {
    const emoji = "🦄".repeat(60);
    expect(validateVersion(emoji, "👍🏽".repeat(1000))).toEqual({});
    expect(validateVersion(`${emoji}x`, "")).toEqual({ label: ["Use at most 60 characters."] });
    expect(validateRequest("🦄".repeat(200), "🦄".repeat(20_000))).toEqual({});
    expect(validateRequest("🦄".repeat(201), "")).toEqual({ title: ["Use at most 200 characters."] });
  });

  it("cuts a long description in the inbox between whole characters", () => {
    const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    for (const description of [`a${"🦄".repeat(60)}`, "🦄".repeat(60), `x${"👩‍💻".repeat(30)}`]) {
      const label = submissionLabel({ submissionId: "sub_1", title: null, description });
      expect(description.startsWith(label)).toBe(true);
      expect(label.length).toBeGreaterThan(70);
      expect(label.length).toBeLessThanOrEqual(80);
      expect(lone.test(label)).toBe(false);
    }
    expect(submissionLabel({ submissionId: "sub_1", title: "Crash", description: "long" })).toBe("Crash");
    expect(submissionLabel({ submissionId: "sub_1", title: null, description: null })).toBe("sub_1");
  });

  it("formats MRR with its currency, or bare when unknown", () => {
    expect(formatMoney(19.99, "EUR")).toBe("€19.99");
    expect(formatMoney(5, null)).toBe("5.00");
    expect(formatMoney(5, "ZZZZ")).toBe("5.00 ZZZZ");
    expect(formatMoney(null, "USD")).toBe("—");
  });

  it("shows revenue per currency side by side, never summed", () => {
    expect(formatRevenue([{ currency: "EUR", mrr: 1200.5 }, { currency: "USD", mrr: 49 }])).toBe("€1,200.50 + $49.00");
    expect(formatRevenue([])).toBe("—");
  });

  it("routes a company page of an app", () => {
    expect(parseRoute("/admin/w/ws_1/a/app_1/companies/co_1")).toEqual({ wsId: "ws_1", appId: "app_1", section: "companies", itemId: "co_1" });
  });

  it("converts the schedule between datetime-local values and ISO times", () => {
    expect(fromLocalInput("")).toBeNull();
    expect(fromLocalInput("not a date")).toBeNull();
    expect(fromLocalInput("2030-01-02T09:30")).toBe(new Date(2030, 0, 2, 9, 30).toISOString());
    expect(toLocalInput(new Date(2030, 0, 2, 9, 30).toISOString())).toBe("2030-01-02T09:30");
    expect(toLocalInput(null)).toBe("");
  });

  it("spells out invisible controls in reporters' text so it reads as what it is", () => {
    expect(visibleText("\u202Eexe.txt")).toBe("[U+202E]exe.txt");
    expect(visibleText("a\u0000b\u2066c\u200Fd")).toBe("a[U+0000]b[U+2066]c[U+200F]d");
    expect(visibleText("line one\nline two\ttabbed, émoji 👩‍💻, עברית")).toBe("line one\nline two\ttabbed, émoji 👩‍💻, עברית");
  });

  it("builds the request list query from board, tags and field values, the column counting on the all tab only", () => {
    const filters = { tab: "all" as const, q: "", sort: "newest", columnId: "", boardId: "", tagIds: [], fields: [] };
    expect(requestListParams("app_1", filters, { limit: 20, offset: 0 }).toString()).toBe("appId=app_1&limit=20&offset=0&sort=newest");
    const params = requestListParams(
      "app_1",
      { tab: "pending", q: "dark", sort: "votes", columnId: "col_1", boardId: "brd_1", tagIds: ["tag_a", "tag_b"], fields: [{ key: "plan", value: "pro" }, { key: "plan", value: "team" }, { key: "seats", value: "10" }] },
      { limit: 20, offset: 40 },
    );
    expect([...params]).toEqual([
      ["appId", "app_1"],
      ["limit", "20"],
      ["offset", "40"],
      ["sort", "votes"],
      ["moderation", "pending"],
      ["q", "dark"],
      ["boardId", "brd_1"],
      ["tagId", "tag_a"],
      ["tagId", "tag_b"],
      ["field.plan", "pro"],
      ["field.plan", "team"],
      ["field.seats", "10"],
    ]);
    expect(requestListParams("app_1", { ...filters, columnId: "col_1" }, { limit: 20, offset: 0 }).get("columnId")).toBe("col_1");
  });

  it("asks for the company filters the server knows, counting revenue in the chosen currency and leaving out what is not a number", () => {
    const filters = { tab: "all" as const, q: "", sort: "company_count", currency: "EUR", columnId: "", boardId: "", tagIds: [], fields: [] };
    const params = requestListParams("app_1", { ...filters, plan: " Pro ", companyId: "co_1", segmentId: "seg_1", minCompanyRevenue: "99.5", minCompanies: "2" }, { limit: 20, offset: 0 });
    expect(Object.fromEntries(params)).toMatchObject({ sort: "company_count", currency: "EUR", minCompanyRevenue: "99.5", minCompanies: "2", plan: "Pro", companyId: "co_1", segmentId: "seg_1" });
    const loose = requestListParams("app_1", { ...filters, plan: " ", segmentId: "", minCompanyRevenue: "-3", minCompanies: "1.5" }, { limit: 20, offset: 0 });
    expect([...loose.keys()]).toEqual(["appId", "limit", "offset", "sort"]);
  });

  it("offers to keep the more voted request of a pair, the older on a tie, and merges the other into it", () => {
    const side = (id: string, voteCount: number) => ({ id, title: id, boardId: "brd_1", boardName: "Ideas", voteCount, commentCount: 0, moderation: "approved" as const, status: "open", columnId: null, columnName: null, createdAt: "2030-01-01T00:00:00.000Z" });
    expect(suggestedKeep({ newer: side("fr_new", 5), older: side("fr_old", 2) })).toBe("newer");
    expect(suggestedKeep({ newer: side("fr_new", 2), older: side("fr_old", 2) })).toBe("older");
    expect(suggestedKeep({ newer: side("fr_new", 0), older: side("fr_old", 3) })).toBe("older");
    const pair = { newer: side("fr_new", 1), older: side("fr_old", 9) };
    expect(mergeBody(pair, "older")).toEqual({ duplicateId: "fr_new", intoId: "fr_old" });
    expect(mergeBody(pair, "newer")).toEqual({ duplicateId: "fr_old", intoId: "fr_new" });
    expect(parseRoute("/admin/w/ws_1/a/app_1/duplicates")).toEqual({ wsId: "ws_1", appId: "app_1", section: "duplicates" });
  });

  it("routes request detail pages by id", () => {
    expect(parseRoute("/admin/w/ws_1/a/app_1/requests/fr_1")).toEqual({ wsId: "ws_1", appId: "app_1", section: "requests", itemId: "fr_1" });
    expect(parseRoute("/admin/w/ws_1/a/app_1/requests")).toEqual({ wsId: "ws_1", appId: "app_1", section: "requests" });
    expect(parseRoute("/admin/w/ws_1/tokens")).toEqual({ wsId: "ws_1", section: "tokens" });
    expect(parseRoute("/admin/w/ws_1/a/app_1/organize")).toEqual({ wsId: "ws_1", appId: "app_1", section: "organize" });
  });

  it("sends the GitHub mapping with defaults as null and only complete label rules", () => {
    expect(githubMappingBody("", "col_2", [{ label: " Planned ", column: "col_3" }, { label: "", column: "col_4" }, { label: "bug", column: "" }])).toEqual({
      closedColumn: null,
      reopenedColumn: "col_2",
      labelColumns: [{ label: "Planned", column: "col_3" }],
    });
  });
});
