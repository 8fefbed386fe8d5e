import fc from "fast-check";
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

  it("folds every accented Latin letter, composed or typed decomposed, as dropping every combining mark does", () => {
    // What the slug must equal: the slug of the title's NFKD form without any mark of Unicode's
    // `M` category, which holds no mark left to drop.
    const reference = (title: string) => portalSlug(title.normalize("NFKD").replace(/\p{M}+/gu, ""));
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i));
    // ASCII, Latin-1 and the Latin Extended blocks, Latin Extended Additional, the letter-like and
    // compatibility forms (ligatures, fullwidth, ﬁ), and the combining blocks typed after a letter.
    const letters = [...range(0x20, 0x7e), ...range(0xa0, 0x24f), ...range(0x1e00, 0x1eff), ...range(0x2100, 0x214f), ...range(0xfb00, 0xfb06), ...range(0xff01, 0xff5e)];
    const marks = [...range(0x300, 0x36f), ...range(0x1ab0, 0x1aeb), ...range(0x1dc0, 0x1dff), ...range(0x20d0, 0x20f0), ...range(0xfe20, 0xfe2f)].filter((c) => /\p{M}/u.test(c));
    const title = fc.array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...letters) }, { weight: 1, arbitrary: fc.constantFrom(...marks) }), { maxLength: 90 }).map((cs) => cs.join(""));
    fc.assert(fc.property(title, (t) => portalSlug(t) === reference(t)), { numRuns: 3000 });
    expect(portalSlug("Cre\u0301me bru\u0302le\u0301e, ǅemal, ﬁnal Ｘ")).toBe("creme-brulee-dzemal-final-x");
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
