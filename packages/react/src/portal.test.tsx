// @vitest-environment jsdom
import { FeedbackClient, memoryStorage } from "@tidings/client";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { TidingsPortal } from "./components/TidingsPortal.js";
import { demoConfig, fakeFetch } from "@tidings/react-core/testing";
import { TidingsProvider } from "@tidings/react-core";

afterEach(cleanup);

function renderPortal(config: Record<string, unknown>, brandingHref?: string) {
  const api = fakeFetch([
    ({ url }) => (url.pathname === "/api/v1/public/config/app_test" ? { status: 200, body: config } : undefined),
    ({ url }) => (url.pathname.startsWith("/api/v1/") ? { status: 200, body: { columns: [], requests: [], total: 0, entries: [], versions: [] } } : undefined),
  ]);
  const client = new FeedbackClient({ baseUrl: "http://api.test", appKey: "app_test", fetch: api.fetch, storage: memoryStorage(), userToken: "tester", warn: () => undefined });
  render(
    <TidingsProvider client={client} locale="en">
      <TidingsPortal showOverlay={false} brandingHref={brandingHref} />
    </TidingsProvider>,
  );
}

describe("TidingsPortal branding", () => {
  it("shows Powered by Tidings once the config loaded, as a link when given a target", async () => {
    renderPortal({ ...demoConfig(), hideSiteBranding: false }, "https://tidings.example/");
    const link = await screen.findByRole("link", { name: "Powered by Tidings" });
    expect(link.getAttribute("href")).toBe("https://tidings.example/");
    expect(link.getAttribute("rel")).toContain("noopener");
  });

  it("hides the footer when the app sets hideSiteBranding", async () => {
    renderPortal({ ...demoConfig(), name: "Branded app", hideSiteBranding: true });
    await screen.findByRole("heading", { name: "Branded app" });
    expect(screen.queryByText("Powered by Tidings")).toBeNull();
  });
});
