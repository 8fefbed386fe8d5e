// @vitest-environment jsdom
import { FeedbackClient, memoryStorage, type PortalRoute } from "@tidings/client";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { TidingsPortal } from "./components/TidingsPortal.js";
import { demoConfig, fakeFetch, item } from "@tidings/react-core/testing";
import { TidingsProvider } from "@tidings/react-core";
import { de } from "@tidings/react-core/locales/de";
import { ja } from "@tidings/react-core/locales/ja";

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

describe("TidingsPortal screens", () => {
  function renderAt(route: PortalRoute, onNavigate: (route: PortalRoute, title?: string) => void) {
    const api = fakeFetch([
      ({ url }) => (url.pathname === "/api/v1/public/config/app_test" ? { status: 200, body: demoConfig() } : undefined),
      ({ url }) => (url.pathname === "/api/v1/feature-requests" ? { status: 200, body: { requests: [item("1", { title: "Dark mode" })], total: 1 } } : undefined),
      ({ url }) => (url.pathname.startsWith("/api/v1/") ? { status: 200, body: { columns: [], comments: [], total: 0, entries: [], versions: [] } } : undefined),
    ]);
    const client = new FeedbackClient({ baseUrl: "http://api.test", appKey: "app_test", fetch: api.fetch, storage: memoryStorage(), userToken: "tester", warn: () => undefined });
    const view = (r: PortalRoute) => (
      <TidingsProvider client={client} locale="en">
        <TidingsPortal showOverlay={false} route={r} onNavigate={onNavigate} />
      </TidingsProvider>
    );
    const result = render(view(route));
    return { rerender: (r: PortalRoute) => result.rerender(view(r)) };
  }

  it("shows the screen its route names and reports moves with the request's title for the address", async () => {
    const moves: [PortalRoute, string | undefined][] = [];
    const portal = renderAt({ screen: "requests" }, (route, title) => moves.push([route, title]));
    fireEvent.click(await screen.findByRole("button", { name: "Dark mode" }));
    expect(moves).toEqual([[{ screen: "request", id: "1" }, "Dark mode"]]);
    // The caller decides: the detail shows once the route says so, the list again when it goes back.
    portal.rerender({ screen: "request", id: "1" });
    await screen.findByRole("heading", { name: "Dark mode", level: 2 });
    portal.rerender({ screen: "requests" });
    await screen.findByRole("searchbox", { name: "Search requests" });
    fireEvent.click(screen.getByRole("tab", { name: "What's new" }));
    expect(moves.at(-1)).toEqual([{ screen: "changelog" }, undefined]);
  });

  it("asks for the platform on the feedback screen: the portal serves every platform of the app", async () => {
    renderAt({ screen: "feedback" }, () => undefined);
    // Every platform until the config names the app's.
    await waitFor(() => expect([...(screen.getByLabelText("Platform") as HTMLSelectElement).options].map((o) => o.textContent)).toEqual(["iOS", "Android"]));
  });
});

describe("TidingsPortal language picker", () => {
  it("offers English and the languages the provider has packs for, in the picked language", async () => {
    const api = fakeFetch([({ url }) => (url.pathname === "/api/v1/public/config/app_test" ? { status: 200, body: demoConfig() } : { status: 200, body: { columns: [], requests: [], total: 0, entries: [], versions: [] } })]);
    const client = new FeedbackClient({ baseUrl: "http://api.test", appKey: "app_test", fetch: api.fetch, storage: memoryStorage(), userToken: "tester", warn: () => undefined });
    const view = (locale: string) => (
      <TidingsProvider client={client} locale={locale} locales={[ja, de]}>
        <TidingsPortal showOverlay={false} onLocaleChange={() => undefined} />
      </TidingsProvider>
    );
    const result = render(view("en"));
    const picker = await screen.findByRole("combobox", { name: "Language" });
    expect([...picker.querySelectorAll("option")].map((option) => option.textContent)).toEqual(["English", "Deutsch", "日本語"]);
    result.rerender(view("de"));
    expect(await screen.findByRole("combobox", { name: "Sprache" })).toHaveProperty("value", "de");
  });
});
