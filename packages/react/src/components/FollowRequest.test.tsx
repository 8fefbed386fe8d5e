// @vitest-environment jsdom
import { FeedbackClient, memoryStorage, type FeatureRequestItem } from "@tidings/client";
import { TidingsProvider } from "@tidings/react-core";
import { allLocales } from "@tidings/react-core/locales";
import { demoConfig, fakeFetch, item, type FakeRoute } from "@tidings/react-core/testing";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { FeatureRequestDetail } from "./FeatureRequestDetail.js";

afterEach(cleanup);

const request = item("fr_1", { description: "Make it dark" }) as FeatureRequestItem;
const base: FakeRoute[] = [
  ({ url }) => (url.pathname === "/api/v1/public/config/app_test" ? { status: 200, body: demoConfig() } : undefined),
  ({ method, url }) =>
    method === "GET" && url.pathname === "/api/v1/feature-requests/fr_1/comments" ? { status: 200, body: { comments: [], total: 0, hasMore: false, nextCursor: null } } : undefined,
];
const subscription = (method: string, answer: ReturnType<FakeRoute>): FakeRoute => (r) =>
  r.method === method && r.url.pathname === "/api/v1/feature-requests/fr_1/subscription" ? answer : undefined;
const noVotes = { toggle: async () => undefined, pending: new Set<string>(), error: undefined, canVote: () => true };

function show(routes: FakeRoute[], provider: { userEmail?: string; locale?: string } = {}) {
  const api = fakeFetch([...base, ...routes]);
  const client = new FeedbackClient({ baseUrl: "http://api.test", appKey: "app_test", fetch: api.fetch, storage: memoryStorage(), userToken: "tester", warn: () => undefined });
  const page = (shown: FeatureRequestItem) => (
    <TidingsProvider client={client} locale={provider.locale ?? "en"} locales={allLocales} userEmail={provider.userEmail}>
      <FeatureRequestDetail item={shown} votes={noVotes} />
    </TidingsProvider>
  );
  const { rerender } = render(page(request));
  return { api, follows: () => api.calls.filter((c) => c.url.pathname.endsWith("/subscription")), open: (shown: FeatureRequestItem) => rerender(page(shown)) };
}

const section = () => screen.getByRole("region", { name: "Get updates on this request" });

describe("Following a request from its detail", () => {
  it("asks a visitor for an address, says to confirm by mail, and stops with the same address", async () => {
    const { follows } = show([subscription("POST", { status: 200, body: { following: false, pending: true } }), subscription("DELETE", { status: 200, body: { following: false, pending: false } })]);
    const box = within(section()).getByLabelText("Email address");
    fireEvent.change(box, { target: { value: "  ada@example.com " } });
    fireEvent.click(within(section()).getByRole("button", { name: "Get updates" }));
    expect(await within(section()).findByRole("status")).toHaveProperty("textContent", "Check your inbox to confirm.");
    expect(follows()).toHaveLength(1);
    expect(follows()[0]!.body).toEqual({ email: "ada@example.com" });
    expect(follows()[0]!.headers["x-user-token"]).toBe("tester");

    fireEvent.click(within(section()).getByRole("button", { name: "Stop updates" }));
    await within(section()).findByRole("button", { name: "Get updates" });
    expect(follows().map((c) => [c.method, c.body])).toEqual([
      ["POST", { email: "ada@example.com" }],
      ["DELETE", { email: "ada@example.com" }],
    ]);
    expect(within(section()).queryByRole("status")).toBeNull();
  });

  it("follows at once with the provider's address, without asking for one", async () => {
    const { follows } = show([subscription("POST", { status: 200, body: { following: true, pending: false } })], { userEmail: "ada@example.com" });
    expect(within(section()).queryByLabelText("Email address")).toBeNull();
    expect(within(section()).getByText("Updates go to ada@example.com.")).toBeTruthy();
    fireEvent.click(within(section()).getByRole("button", { name: "Get updates" }));
    expect(await within(section()).findByRole("status")).toHaveProperty("textContent", "You'll get updates on this request.");
    expect(follows()[0]!.body).toEqual({ email: "ada@example.com" });
  });

  it("shows the server's refusal, localized, and keeps the address typed", async () => {
    show([subscription("POST", { status: 401, body: { error: "Sign in is required to follow requests", code: "authentication_required" } })], { locale: "de" });
    const form = screen.getByRole("region", { name: "Updates zu diesem Wunsch erhalten" });
    fireEvent.change(within(form).getByLabelText("E-Mail-Adresse"), { target: { value: "ada@example.com" } });
    fireEvent.click(within(form).getByRole("button", { name: "Updates erhalten" }));
    expect((await within(form).findByRole("alert")).textContent).toBe("Bitte melde dich an, um fortzufahren.");
    expect(within(form).getByLabelText<HTMLInputElement>("E-Mail-Adresse").value).toBe("ada@example.com");
    expect(within(form).queryByRole("status")).toBeNull();
  });

  it("names the address as the problem when the server refuses it", async () => {
    show([subscription("POST", { status: 400, body: { error: "Validation failed", code: "validation_failed", details: { formErrors: [], fieldErrors: { email: ["Must be a valid email address"] } } } })]);
    fireEvent.change(within(section()).getByLabelText("Email address"), { target: { value: "ada@localhost" } });
    fireEvent.click(within(section()).getByRole("button", { name: "Get updates" }));
    expect((await within(section()).findByRole("alert")).textContent).toBe("Enter a valid email address.");
    expect(within(section()).getByRole("button", { name: "Get updates" })).toHaveProperty("disabled", false);
  });

  it("starts from Get updates on another request", async () => {
    const { open } = show([subscription("POST", { status: 200, body: { following: true, pending: false } })], { userEmail: "ada@example.com" });
    fireEvent.click(within(section()).getByRole("button", { name: "Get updates" }));
    await within(section()).findByRole("button", { name: "Stop updates" });
    open(item("fr_2", { title: "Offline mode" }) as FeatureRequestItem);
    expect(within(section()).getByRole("button", { name: "Get updates" })).toBeTruthy();
    expect(within(section()).queryByRole("status")).toBeNull();
  });

  it("keeps the follow when stopping fails, and says why", async () => {
    show([subscription("POST", { status: 200, body: { following: true, pending: false } }), subscription("DELETE", { status: 429, body: { error: "Too many", code: "rate_limited" }, headers: { "retry-after": "30" } })], {
      userEmail: "ada@example.com",
    });
    fireEvent.click(within(section()).getByRole("button", { name: "Get updates" }));
    fireEvent.click(await within(section()).findByRole("button", { name: "Stop updates" }));
    expect((await within(section()).findByRole("alert")).textContent).toBe("Too many requests. Please try again in 30 seconds.");
    expect(within(section()).getByRole("status").textContent).toBe("You'll get updates on this request.");
    expect(within(section()).getByRole("button", { name: "Stop updates" })).toBeTruthy();
  });
});
