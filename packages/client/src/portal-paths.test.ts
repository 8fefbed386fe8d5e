import { describe, expect, it } from "vitest";
import { parsePortalPath, portalPath, portalSlug, type PortalRoute } from "./portal-paths.js";

const id = "fr_01jd3k9x2m4q8r7t6v5w4x3y2z";

describe("portal paths", () => {
  it("slugs titles into lower-case ASCII words, cut at a word", () => {
    expect(portalSlug("Dark mode für Ärzte!")).toBe("dark-mode-fur-arzte");
    expect(portalSlug("</script><b>\u2028\"quotes\"")).toBe("script-b-quotes");
    expect(portalSlug("日本語")).toBe("");
    const long = portalSlug("word ".repeat(40));
    expect(long.length).toBeLessThanOrEqual(60);
    expect(long.endsWith("word")).toBe(true);
  });

  it("formats and parses every screen back to itself", () => {
    const routes: PortalRoute[] = [
      { screen: "home" },
      { screen: "roadmap" },
      { screen: "roadmap", column: "in-progress" },
      { screen: "requests" },
      { screen: "request", id, slug: "dark-mode" },
      { screen: "changelog" },
      { screen: "release", id: "cl_01jd3k9x2m4q8r7t6v5w4x3y2z", slug: "" },
      { screen: "feedback" },
      { screen: "profile", userId: "u_0123456789abcdef0123456789abcdef" },
    ];
    for (const route of routes) {
      const path = portalPath("app_demo", route, route.screen === "request" ? "Dark mode" : undefined).slice("/p/app_demo".length);
      expect(parsePortalPath(path)).toEqual(route);
    }
    expect(portalPath("app_demo", { screen: "request", id }, "Dark mode")).toBe(`/p/app_demo/requests/${id}-dark-mode`);
  });

  it("answers null for addresses that are no screen", () => {
    for (const path of ["/requests/42", "/requests/fr_short", "/nope", "/users/../x", `/requests/${id}x`, `/requests/${id}-a/b`, "/roadmap/a/b"]) {
      expect(parsePortalPath(path), path).toBeNull();
    }
    expect(parsePortalPath(`/requests/${id}`)).toEqual({ screen: "request", id, slug: "" });
    expect(parsePortalPath("/requests/")).toEqual({ screen: "requests" });
    // Any slug names the request (the server redirects it to the canonical one).
    expect(parsePortalPath(`/requests/${id}-Dark-Mode%20x${"y".repeat(200)}`)).toEqual({ screen: "request", id, slug: `Dark-Mode%20x${"y".repeat(200)}` });
  });
});
