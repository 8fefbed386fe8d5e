import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, GENEROUS_RATE_LIMITS, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import type { Workspace } from "@tidings/testing/console-client";
import { publicBoard } from "@tidings/testing/public-board-kit";
import { userHash } from "../users/identity.js";

const ORIGIN = "https://feedback.example.com";
/** A title that breaks out of every context a careless template puts it in. */
const HOSTILE = `Dark </script><script>alert(1)</script> "mode" & 'co' <b>\u2028x`;

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@" });

/** The `content` of the first `<meta>` with this name or property. */
function meta(html: string, key: string): string | undefined {
  const tag = new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)">`).exec(html);
  return tag?.[1];
}

describe.each(testDialects())("the portal's server-rendered pages, feeds and sitemap on %s", (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect, { rateLimits: GENEROUS_RATE_LIMITS, publicUrl: ORIGIN, demo: false });
  });
  afterAll(() => t.close());

  const { freshApp } = publicBoard(() => t, `portal-${dialect}`);

  async function propose(ws: Workspace, title: string, description = ""): Promise<string> {
    const res = await t.app.inject({ method: "POST", url: "/api/v1/feature-requests", headers: { "x-user-token": "proposer" }, payload: { appKey: ws.appKey, title, description } });
    return res.json().featureRequestId as string;
  }

  const vote = (id: string, token: string) => t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/vote`, headers: { "x-user-token": token }, payload: {} });
  const comment = (id: string, body: string, authorName: string) =>
    t.app.inject({ method: "POST", url: `/api/v1/feature-requests/${id}/comments`, headers: { "x-user-token": `c-${authorName}` }, payload: { body, authorName } });
  const get = (url: string) => t.app.inject({ url });

  async function publish(ws: Workspace, title: string, body: string, linkedRequestIds: string[] = []): Promise<string> {
    const draft = await ws.console.post(`/workspaces/${ws.wsId}/changelog`, { appId: ws.appId, title, body, linkedRequestIds });
    expect((await ws.console.post(`/workspaces/${ws.wsId}/changelog/${draft.body.id}/publish`)).status).toBe(200);
    return draft.body.id as string;
  }

  describe("a request's address", () => {
    it("answers HTML holding the title, description, status, votes, comments and the head tags before any script runs", async () => {
      const ws = await freshApp();
      const id = await propose(ws, "Dark mode", "A dark theme that follows the system setting.");
      await vote(id, "v1");
      await vote(id, "v2");
      await comment(id, "Would love this at night.", "Maya");
      const url = `/p/${ws.appKey}/requests/${id}-dark-mode`;

      const res = await get(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
      const html = res.body;
      expect(html).toContain("<title>Dark mode · Acme Notes</title>");
      expect(html).toContain("<h2>Dark mode</h2>");
      expect(html).toContain("A dark theme that follows the system setting.");
      expect(html).toContain("Under review");
      expect(html).toContain("2 votes");
      expect(html).toContain("1 comment<");
      expect(html).toContain("Would love this at night.");
      expect(html).toContain("<strong>Maya</strong>");
      expect(meta(html, "description")).toBe("A dark theme that follows the system setting.");
      expect(html).toContain(`<link rel="canonical" href="${ORIGIN}${url}">`);
      expect(meta(html, "og:title")).toBe("Dark mode · Acme Notes");
      expect(meta(html, "og:url")).toBe(`${ORIGIN}${url}`);
      expect(meta(html, "og:type")).toBe("article");
      expect(meta(html, "twitter:card")).toBe("summary");
      expect(meta(html, "twitter:title")).toBe("Dark mode · Acme Notes");
      expect(html).toContain(`<link rel="alternate" type="application/atom+xml" title="Acme Notes: what&#39;s new (Atom)" href="${ORIGIN}/p/${ws.appKey}/changelog.atom">`);
      expect(html).toContain(`<link rel="alternate" type="application/rss+xml" title="Acme Notes: shipped (RSS)" href="${ORIGIN}/p/${ws.appKey}/shipped.rss">`);
      // The app's bundle still mounts on the same element.
      expect(html).toContain(`<div id="tidings-portal" data-app-key="${ws.appKey}"`);
    });

    it("escapes every interpolated value: a title with </script>, quotes, ampersands and U+2028", async () => {
      const ws = await freshApp();
      const id = await propose(ws, HOSTILE, `</title><script>alert(2)</script> "desc"`);
      await comment(id, "<img src=x onerror=alert(3)>", `"><script>alert(4)</script>`);
      const list = await get(`/p/${ws.appKey}/requests`);
      const canonical = /<a href="([^"]+)">Dark/.exec(list.body)![1]!;
      const res = await get(canonical);
      expect(res.statusCode).toBe(200);
      const html = res.body;
      expect(html).not.toMatch(/<script>alert/);
      expect(html).not.toContain("<img src=x");
      expect(html).not.toContain("<b>");
      const escaped = "Dark &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &quot;mode&quot; &amp; &#39;co&#39; &lt;b&gt;\u2028x";
      expect(html).toContain(`<title>${escaped} · Acme Notes</title>`);
      expect(meta(html, "og:title")).toBe(`${escaped} · Acme Notes`);
      expect(meta(html, "description")).toBe("&lt;/title&gt;&lt;script&gt;alert(2)&lt;/script&gt; &quot;desc&quot;");
      // The only scripts are the bundle's.
      expect(html.match(/<script/g)).toHaveLength(1);
    });

    it("redirects a wrong or missing slug to the canonical address with 301, keeping the query", async () => {
      const ws = await freshApp();
      const id = await propose(ws, "Export to CSV");
      for (const path of [`/requests/${id}`, `/requests/${id}-old-title`, `/requests/${id}-Export-To-CSV`, `/requests/${id}-${"x".repeat(300)}`, `/requests/${id}-export-to-csv/`]) {
        const res = await get(`/p/${ws.appKey}${path}?embed=1`);
        expect(res.statusCode, path).toBe(path.endsWith("/") ? 200 : 301);
        if (res.statusCode === 301) expect(res.headers.location).toBe(`/p/${ws.appKey}/requests/${id}-export-to-csv?embed=1`);
      }
    });

    it("is 404 for unknown, pending, merged and other apps' requests, and for addresses that are no screen", async () => {
      const ws = await freshApp();
      const other = await freshApp();
      const theirs = await propose(other, "Theirs");
      const moderated = await freshApp({ moderationPolicy: "all" });
      const pending = await propose(moderated, "Waiting");
      for (const url of [
        `/p/${ws.appKey}/requests/fr_00000000000000000000000000`,
        `/p/${ws.appKey}/requests/${theirs}-theirs`,
        `/p/${moderated.appKey}/requests/${pending}-waiting`,
        `/p/${ws.appKey}/nope`,
        `/p/${ws.appKey}/roadmap/no-such-column`,
        `/p/app_unknown/requests`,
      ]) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(404);
        expect(res.body).not.toContain("Theirs");
        expect(res.body).not.toContain("Waiting");
      }
    });

    it("holds no board content when anonymous visitors may not see the roadmap", async () => {
      const ws = await freshApp({ allowAnonymousRoadmap: false });
      const id = await propose(ws, "Secret plan");
      const res = await get(`/p/${ws.appKey}/requests/${id}-secret-plan`);
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain("Secret plan");
      expect((await get(`/p/${ws.appKey}/roadmap`)).body).not.toContain("Secret plan");
      expect((await get(`/p/${ws.appKey}/shipped.atom`)).statusCode).toBe(401);
    });
  });

  describe("other addresses", () => {
    it("renders the roadmap by column, a column, the list, the changelog, a release and a profile", async () => {
      const ws = await freshApp();
      const id = await propose(ws, "Widgets");
      await ws.console.put(`/workspaces/${ws.wsId}/feature-requests/${id}`, { columnSlug: "planned" });
      const commented = await comment(id, "Please!", "Sam");
      const releaseId = await publish(ws, "Version 2.0", "**Widgets** are here.", [id]);

      const roadmap = (await get(`/p/${ws.appKey}`)).body;
      expect(roadmap).toMatch(/<h2><a href="\/p\/[^"]+\/roadmap\/planned">Planned<\/a><\/h2>\n<ul class="td-list">\n<li[^>]*><span class="td-votes">0 votes<\/span> <a href="[^"]+">Widgets<\/a>/);
      expect((await get(`/p/${ws.appKey}/roadmap/planned`)).body).toContain("<title>Planned · Acme Notes</title>");
      expect((await get(`/p/${ws.appKey}/roadmap/shipped`)).body).not.toContain("Widgets</a>");
      expect((await get(`/p/${ws.appKey}/requests`)).body).toContain(`href="/p/${ws.appKey}/requests/${id}-widgets">Widgets</a>`);

      const changelog = (await get(`/p/${ws.appKey}/changelog`)).body;
      expect(changelog).toContain(`<a href="/p/${ws.appKey}/changelog/${releaseId}-version-2-0">Version 2.0</a>`);
      const release = await get(`/p/${ws.appKey}/changelog/${releaseId}-version-2-0`);
      expect(release.body).toContain("<strong>Widgets</strong> are here.");
      expect(meta(release.body, "description")).toBe("Widgets are here.");
      expect((await get(`/p/${ws.appKey}/changelog/${releaseId}`)).statusCode).toBe(301);

      const userId = (await get(`/api/v1/feature-requests/${id}/comments`)).json().comments[0].authorClerkId as string;
      expect(commented.statusCode).toBe(201);
      const profile = (await get(`/p/${ws.appKey}/users/${userId}`)).body;
      // Comment names are per comment; a profile has a name once the host app reports one.
      expect(profile).toContain("<title>Anonymous · Acme Notes</title>");
      expect(profile).toContain(`<a href="/p/${ws.appKey}/requests/${id}-widgets">Widgets</a>\n<p>Please!</p>`);
    });
  });

  it("follows the app's sections: home is the first shown, hidden sections hold nothing and leave the navigation and sitemap", async () => {
    const ws = await freshApp({ sdk: { features: { roadmap: false, changelog: false } }, portalIndexable: true });
    const id = await propose(ws, "Widgets");
    await publish(ws, "Hidden release", "Not shown");
    const home = (await get(`/p/${ws.appKey}`)).body;
    expect(home).toContain("<title>Feature requests · Acme Notes</title>");
    expect(home).toContain(`<link rel="canonical" href="${ORIGIN}/p/${ws.appKey}">`);
    expect(home).toContain(`<nav class="td-tabs"><a href="/p/${ws.appKey}/requests">Requests</a> <a href="/p/${ws.appKey}/feedback">Feedback</a></nav>`);
    expect((await get(`/p/${ws.appKey}/roadmap`)).body).not.toContain("Widgets");
    expect((await get(`/p/${ws.appKey}/changelog`)).body).not.toContain("Hidden release");
    expect((await get(`/p/${ws.appKey}/requests/${id}-widgets`)).body).toContain("<h2>Widgets</h2>");
    const locs = (xml.parse((await get(`/p/${ws.appKey}/sitemap.xml`)).body).urlset.url as { loc: string }[]).map((u) => u.loc);
    expect(locs).toContain(`${ORIGIN}/p/${ws.appKey}/requests/${id}-widgets`);
    expect(locs.filter((l) => l.includes("/roadmap") || l.includes("/changelog"))).toEqual([]);
  });

  describe("robots and the sitemap", () => {
    it("asks crawlers not to index a board by default and serves no sitemap", async () => {
      const ws = await freshApp();
      const res = await get(`/p/${ws.appKey}/requests`);
      expect(meta(res.body, "robots")).toBe("noindex");
      expect(res.headers["x-robots-tag"]).toBe("noindex");
      expect((await get(`/p/${ws.appKey}/sitemap.xml`)).statusCode).toBe(404);
    });

    it("lets crawlers index a board whose app opts in, with a sitemap of its canonical addresses", async () => {
      const ws = await freshApp({ portalIndexable: true });
      const id = await propose(ws, "Dark & light");
      const moderated = await t.app.inject({ method: "POST", url: "/api/v1/feature-requests", payload: { appKey: ws.appKey, title: "Hidden one", requesterToken: "x" } });
      await ws.console.put(`/workspaces/${ws.wsId}/feature-requests/${moderated.json().featureRequestId}`, { approved: false });
      const releaseId = await publish(ws, "First release", "Hello");
      const page = await get(`/p/${ws.appKey}/requests`);
      expect(meta(page.body, "robots")).toBe("index, follow");
      expect(meta((await get(`/p/${ws.appKey}?embed=1`)).body, "robots")).toBe("noindex");

      const sitemap = await get(`/p/${ws.appKey}/sitemap.xml`);
      expect(sitemap.statusCode).toBe(200);
      expect(sitemap.headers["content-type"]).toBe("application/xml; charset=utf-8");
      const doc = xml.parse(sitemap.body);
      expect(doc.urlset["@xmlns"]).toBe("http://www.sitemaps.org/schemas/sitemap/0.9");
      const locs = (doc.urlset.url as { loc: string }[]).map((u) => u.loc);
      expect(locs).toEqual(
        expect.arrayContaining([
          `${ORIGIN}/p/${ws.appKey}`,
          `${ORIGIN}/p/${ws.appKey}/requests`,
          `${ORIGIN}/p/${ws.appKey}/roadmap/planned`,
          `${ORIGIN}/p/${ws.appKey}/requests/${id}-dark-light`,
          `${ORIGIN}/p/${ws.appKey}/changelog/${releaseId}-first-release`,
        ]),
      );
      expect(locs.join(" ")).not.toContain("hidden-one");
    });
  });

  describe("boards and tags", () => {
    /** An app with a second public board (Bugs), a private one (Lab) and three tags, one team-only. */
    async function organised() {
      const ws = await freshApp({ portalIndexable: true });
      const boards = `/workspaces/${ws.wsId}/apps/${ws.appId}/boards`;
      expect((await ws.console.post(boards, { name: `Bugs & "crashes"`, slug: "bugs", description: "Things that break." })).status).toBe(201);
      expect((await ws.console.post(boards, { name: "Secret lab", slug: "lab", visibility: "private" })).status).toBe(201);
      const tag = async (name: string, extra: Record<string, unknown> = {}) => (await ws.console.post(`/workspaces/${ws.wsId}/apps/${ws.appId}/tags`, { name, ...extra })).body.id as string;
      const tags = { mobile: await tag("Mobile", { color: "#e11d48" }), sync: await tag("Sync"), vip: await tag("VIP", { visibility: "team" }) };
      const onBoard = async (title: string, board?: string) => {
        const headers = board === "lab" ? { "x-user-token": "insider", "x-user-hash": userHash(ws.signingSecret, "insider") } : { "x-user-token": "proposer" };
        const res = await t.app.inject({ method: "POST", url: "/api/v1/feature-requests", headers, payload: { appKey: ws.appKey, title, ...(board === undefined ? {} : { board }) } });
        expect(res.statusCode, title).toBe(201);
        return res.json().featureRequestId as string;
      };
      const ids = { dark: await onBoard("Dark mode"), crash: await onBoard("Crash on launch", "bugs"), secret: await onBoard("Secret engine", "lab") };
      const bulk = `/workspaces/${ws.wsId}/apps/${ws.appId}/feature-requests/tags`;
      expect((await ws.console.post(bulk, { featureRequestIds: [ids.dark, ids.crash], add: [tags.mobile, tags.vip] })).status).toBe(200);
      expect((await ws.console.post(bulk, { featureRequestIds: [ids.crash, ids.secret], add: [tags.sync] })).status).toBe(200);
      return { ws, ids };
    }

    it("gives each public board its own list at /b/<slug>: its name, description, requests, the board links and its feeds", async () => {
      const { ws, ids } = await organised();
      const res = await get(`/p/${ws.appKey}/b/bugs`);
      expect(res.statusCode).toBe(200);
      const html = res.body;
      expect(html).toContain("<title>Bugs &amp; &quot;crashes&quot; · Acme Notes</title>");
      expect(html).toContain("<h2>Bugs &amp; &quot;crashes&quot;</h2>\n<p>Things that break.</p>");
      expect(meta(html, "description")).toBe("Things that break.");
      expect(html).toContain(`<link rel="canonical" href="${ORIGIN}/p/${ws.appKey}/b/bugs">`);
      expect(html).toContain(`href="/p/${ws.appKey}/requests/${ids.crash}-crash-on-launch">Crash on launch</a>`);
      expect(html).not.toContain("Dark mode");
      expect(html).toContain(
        `<nav class="td-boards" aria-label="Boards"><a href="/p/${ws.appKey}/requests">All boards</a> <a href="/p/${ws.appKey}/b/feature-requests">Feature requests</a> <a href="/p/${ws.appKey}/b/bugs" aria-current="page">Bugs &amp; &quot;crashes&quot;</a></nav>`,
      );
      expect(html).toContain(`<link rel="alternate" type="application/atom+xml" title="Acme Notes · Bugs &amp; &quot;crashes&quot;: shipped (Atom)" href="${ORIGIN}/p/${ws.appKey}/b/bugs/shipped.atom">`);
      // The bundle is told the boards to switch between and the public tags, as escaped JSON.
      expect(html).toContain(`data-boards="[{&quot;id&quot;:&quot;brd_`);
      expect(html).toContain(`&quot;slug&quot;:&quot;bugs&quot;,&quot;name&quot;:&quot;Bugs &amp; \\&quot;crashes\\&quot;&quot;}]"`);
      expect(html).toContain(`data-tags="[{&quot;slug&quot;:&quot;mobile&quot;,&quot;name&quot;:&quot;Mobile&quot;,&quot;color&quot;:&quot;#e11d48&quot;},{&quot;slug&quot;:&quot;sync&quot;,&quot;name&quot;:&quot;Sync&quot;,&quot;color&quot;:null}]"`);
      expect(html).not.toMatch(/Secret|\/b\/lab|;lab&|VIP/);

      const all = (await get(`/p/${ws.appKey}/requests`)).body;
      expect(all).toContain("Dark mode</a>");
      expect(all).toContain("Crash on launch</a>");
      expect(all).toContain(`<a href="/p/${ws.appKey}/requests" aria-current="page">All boards</a>`);
      expect(all).not.toMatch(/Secret|\/b\/lab|;lab&|VIP/);
    });

    it("answers an unknown board and a private one with the same 404 whoever asks, holding the portal that shows admitted visitors the board", async () => {
      const { ws, ids } = await organised();
      const unknown = await get(`/p/${ws.appKey}/nope`);
      for (const path of ["/b/bugs/extra", "/b/Bugs"]) {
        const res = await get(`/p/${ws.appKey}${path}`);
        expect([res.statusCode, res.body], path).toEqual([404, unknown.body]);
      }
      // A board's address no public board answers: the same page for a private board and an
      // unknown one, for an anonymous visitor and for one the private board admits (whose
      // identity the page request does not carry anyway), and stored by no cache.
      const insider = { "x-user-token": "insider", "x-user-hash": userHash(ws.signingSecret, "insider") };
      const pages = [];
      for (const [path, headers] of [["/b/nope", {}], ["/b/lab", {}], ["/b/lab", insider], ["/b/nope", insider]] as const) {
        const res = await t.app.inject({ url: `/p/${ws.appKey}${path}`, headers });
        expect([res.statusCode, res.headers["cache-control"], res.headers["x-robots-tag"]], path).toEqual([404, "no-store", "noindex"]);
        pages.push(res.body.replaceAll("/b/nope", "/b/lab"));
      }
      expect(new Set(pages).size).toBe(1);
      expect(pages[0]).toContain(`<script type="module" src="/p/assets/portal.js"></script>`);
      expect(pages[0]).toContain("<h2>Not found</h2>");
      expect(pages[0]).not.toContain("Secret");
      // In the browser the portal reads the board through the API with the visitor's identity:
      // the board's requests for a visitor it admits, privately; the unknown-board answer for others.
      const list = (headers: Record<string, string>) => t.app.inject({ url: `/api/v1/feature-requests?appKey=${ws.appKey}&board=lab`, headers });
      const admitted = await list(insider);
      expect([admitted.statusCode, admitted.headers["cache-control"], admitted.json().requests.map((r: { id: string }) => r.id)]).toEqual([200, "private, no-store", [ids.secret]]);
      for (const headers of [{}, { "x-user-token": "insider" }]) {
        const refused = await list(headers);
        expect([refused.statusCode, refused.json().code]).toEqual([400, "unknown_board"]);
      }
      const boards = await t.app.inject({ url: `/api/v1/public/apps/${ws.appKey}/boards`, headers: insider });
      expect(boards.json().boards.map((b: { slug: string }) => b.slug)).toContain("lab");
      const feedOf = async (board: string) => {
        const res = await get(`/p/${ws.appKey}/b/${board}/shipped.rss`);
        return [res.statusCode, res.json()];
      };
      expect(await feedOf("lab")).toEqual(await feedOf("nope"));
      expect((await feedOf("nope"))[0]).toBe(404);
    });

    it("keeps a single-board app at its requests list: the board's address redirects there and no board is named", async () => {
      const ws = await freshApp({ portalIndexable: true });
      const id = await propose(ws, "Widgets");
      const res = await get(`/p/${ws.appKey}/b/feature-requests?embed=1`);
      expect([res.statusCode, res.headers.location]).toEqual([301, `/p/${ws.appKey}/requests?embed=1`]);
      expect((await get(`/p/${ws.appKey}/requests`)).body).not.toContain("td-boards");
      const html = (await get(`/p/${ws.appKey}/requests/${id}-widgets`)).body;
      expect(html).not.toContain("td-board");
      expect(html).not.toContain("data-boards");
      const locs = (xml.parse((await get(`/p/${ws.appKey}/sitemap.xml`)).body).urlset.url as { loc: string }[]).map((u) => u.loc);
      expect(locs.filter((l) => l.includes("/b/"))).toEqual([]);
    });

    it("shows public tags with their colour on cards and on a request's page, with its board, each linking to its list", async () => {
      const { ws, ids } = await organised();
      const mobile = `<a class="td-tag" href="/p/${ws.appKey}/requests?tag=mobile"><svg class="td-tag-dot" width="8" height="8" viewBox="0 0 8 8" aria-hidden="true"><circle cx="4" cy="4" r="4" fill="#e11d48"/></svg>Mobile</a>`;
      const sync = `<a class="td-tag" href="/p/${ws.appKey}/requests?tag=sync">Sync</a>`;
      const list = (await get(`/p/${ws.appKey}/requests`)).body;
      expect(list).toContain(`Crash on launch</a> <span class="td-badge">Under review</span> <span class="td-tags">${mobile} ${sync}</span></li>`);
      expect(list).toContain(`Dark mode</a> <span class="td-badge">Under review</span> <span class="td-tags">${mobile}</span></li>`);
      // On a board's list, a tag narrows that board.
      expect((await get(`/p/${ws.appKey}/b/bugs`)).body).toContain(`<a class="td-tag" href="/p/${ws.appKey}/b/bugs?tag=sync">Sync</a>`);

      const page = (await get(`/p/${ws.appKey}/requests/${ids.crash}-crash-on-launch`)).body;
      expect(page).toContain(`<span class="td-votes">0 votes</span> · <a class="td-board" href="/p/${ws.appKey}/b/bugs">Bugs &amp; &quot;crashes&quot;</a></p>`);
      expect(page).toContain(`<p class="td-meta"><span class="td-tags">${mobile} ${sync}</span></p>`);
      expect(page).not.toContain("VIP");
    });

    it("filters the list by every tag in the address, on a board too, and 404s an unknown or team-only tag", async () => {
      const { ws } = await organised();
      const mobile = await get(`/p/${ws.appKey}/requests?tag=mobile`);
      expect(mobile.body).toContain("<title>Feature requests tagged Mobile · Acme Notes</title>");
      expect(mobile.body).toContain(`<link rel="canonical" href="${ORIGIN}/p/${ws.appKey}/requests">`);
      expect(mobile.body).toContain("Dark mode</a>");
      expect(mobile.body).toContain("Crash on launch</a>");
      const both = (await get(`/p/${ws.appKey}/requests?tag=mobile&tag=sync`)).body;
      expect(both).toContain(`<p class="td-filter">Tagged <span class="td-tag">`);
      expect(both).toContain(`Sync</span> · <a href="/p/${ws.appKey}/requests">Show all</a></p>`);
      expect(both).toContain("Crash on launch</a>");
      expect(both).not.toContain("Dark mode</a>");
      const boardAndTag = (await get(`/p/${ws.appKey}/b/feature-requests?tag=sync`)).body;
      expect(boardAndTag).toContain("No requests with these tags.");
      // A tag on another screen filters nothing and is no error.
      expect((await get(`/p/${ws.appKey}/roadmap?tag=nope`)).statusCode).toBe(200);

      const unknown = await get(`/p/${ws.appKey}/nope`);
      for (const query of ["?tag=vip", "?tag=nope", "?tag=mobile&tag=nope"]) {
        const res = await get(`/p/${ws.appKey}/requests${query}`);
        expect([res.statusCode, res.body], query).toEqual([404, unknown.body]);
      }
      const tooMany = await get(`/p/${ws.appKey}/requests?tag=a&tag=b&tag=c&tag=d&tag=e&tag=f`);
      expect([tooMany.statusCode, tooMany.json().code]).toEqual([400, "validation_failed"]);
    });

    it("lists each public board's address in the sitemap and serves a board's shipped feed, never a private board's", async () => {
      const { ws, ids } = await organised();
      for (const id of [ids.dark, ids.crash, ids.secret]) await ws.console.put(`/workspaces/${ws.wsId}/feature-requests/${id}`, { columnSlug: "shipped" });
      const locs = (xml.parse((await get(`/p/${ws.appKey}/sitemap.xml`)).body).urlset.url as { loc: string }[]).map((u) => u.loc);
      expect(locs.filter((l) => l.includes("/b/"))).toEqual([`${ORIGIN}/p/${ws.appKey}/b/feature-requests`, `${ORIGIN}/p/${ws.appKey}/b/bugs`]);
      expect(locs.join(" ")).not.toContain(ids.secret);

      const rss = xml.parse((await get(`/p/${ws.appKey}/b/bugs/shipped.rss`)).body).rss.channel;
      expect(rss).toMatchObject({ title: `Acme Notes · Bugs & "crashes": shipped requests`, link: `${ORIGIN}/p/${ws.appKey}/b/bugs` });
      expect((rss.item as { title: string } | { title: string }[])).toMatchObject({ title: "Crash on launch" });
      const atom = xml.parse((await get(`/p/${ws.appKey}/b/feature-requests/shipped.atom`)).body).feed;
      expect(atom.entry.id).toBe(`${ORIGIN}/p/${ws.appKey}/requests/${ids.dark}-dark-mode`);
      const appFeed = (await get(`/p/${ws.appKey}/shipped.rss`)).body;
      expect(appFeed).toContain("Crash on launch");
      expect(appFeed).not.toContain("Secret engine");
    });
  });

  describe("feeds", () => {
    it("serves RSS 2.0 and Atom of the changelog with their required elements", async () => {
      const ws = await freshApp();
      await publish(ws, "Version 1.0", "First **release**.");
      t.clock.advance(60_000);
      await publish(ws, `Fixes </title> & "quotes" \u0001`, "Second.");

      const rss = await get(`/p/${ws.appKey}/changelog.rss`);
      expect(rss.statusCode).toBe(200);
      expect(rss.headers["content-type"]).toBe("application/rss+xml; charset=utf-8");
      const channel = xml.parse(rss.body).rss;
      expect(channel["@version"]).toBe("2.0");
      expect(channel.channel).toMatchObject({ title: "Acme Notes: what's new", link: `${ORIGIN}/p/${ws.appKey}/changelog`, description: "Release notes of Acme Notes." });
      const items = channel.channel.item as Record<string, unknown>[];
      expect(items.map((i) => i.title)).toEqual([`Fixes </title> & "quotes" `, "Version 1.0"]);
      for (const item of items) {
        expect(item.link).toMatch(new RegExp(`^${ORIGIN}/p/${ws.appKey}/changelog/cl_`));
        expect(item.guid).toBeDefined();
        expect(Number.isNaN(Date.parse(String(item.pubDate)))).toBe(false);
      }

      const atom = await get(`/p/${ws.appKey}/changelog.atom`);
      expect(atom.headers["content-type"]).toBe("application/atom+xml; charset=utf-8");
      const feed = xml.parse(atom.body).feed;
      expect(feed["@xmlns"]).toBe("http://www.w3.org/2005/Atom");
      expect(feed.id).toBe(`${ORIGIN}/p/${ws.appKey}/changelog`);
      expect(feed.title).toBe("Acme Notes: what's new");
      expect(Number.isNaN(Date.parse(feed.updated))).toBe(false);
      const entries = feed.entry as Record<string, unknown>[];
      expect(entries).toHaveLength(2);
      for (const entry of entries) {
        expect(entry.id).toMatch(/\/changelog\/cl_/);
        expect(entry.title).toBeDefined();
        expect(Number.isNaN(Date.parse(String(entry.updated)))).toBe(false);
        expect((entry.link as Record<string, string>)["@href"]).toBe(entry.id);
      }
      expect(String((entries[1]!.content as Record<string, string>)["#text"])).toContain("<strong>release</strong>");
      // Atom titles are HTML: the title's own markup characters arrive escaped, to be shown as typed.
      expect(entries[0]!.title).toEqual({ "#text": "Fixes &lt;/title&gt; &amp; &quot;quotes&quot; ", "@type": "html" });
    });

    it("puts a release's version label in front of its title in both formats, as docs/portal.md says", async () => {
      const ws = await freshApp();
      const version = await ws.console.post(`/workspaces/${ws.wsId}/apps/${ws.appId}/versions`, { label: "2.4", released: true });
      expect(version.status).toBe(201);
      const draft = await ws.console.post(`/workspaces/${ws.wsId}/changelog`, { appId: ws.appId, title: "Dark mode", body: "At last.", versionId: version.body.id });
      expect((await ws.console.post(`/workspaces/${ws.wsId}/changelog/${draft.body.id}/publish`)).status).toBe(200);
      t.clock.advance(60_000);
      await publish(ws, "Small fixes", "No version.");
      const rss = xml.parse((await get(`/p/${ws.appKey}/changelog.rss`)).body).rss.channel;
      expect((rss.item as { title: string }[]).map((i) => i.title)).toEqual(["Small fixes", "2.4: Dark mode"]);
      const atom = xml.parse((await get(`/p/${ws.appKey}/changelog.atom`)).body).feed;
      expect((atom.entry as { title: { "#text": string } }[]).map((e) => e.title["#text"])).toEqual(["Small fixes", "2.4: Dark mode"]);
    });

    it("lists newly shipped public requests, most recent first, in both formats", async () => {
      const ws = await freshApp();
      const first = await propose(ws, "Offline mode");
      const second = await propose(ws, "Widgets");
      await propose(ws, "Not shipped");
      await ws.console.put(`/workspaces/${ws.wsId}/feature-requests/${first}`, { columnSlug: "shipped" });
      t.clock.advance(60_000);
      await ws.console.put(`/workspaces/${ws.wsId}/feature-requests/${second}`, { columnSlug: "shipped" });

      const rss = xml.parse((await get(`/p/${ws.appKey}/shipped.rss`)).body).rss.channel;
      expect((rss.item as { title: string }[]).map((i) => i.title)).toEqual(["Widgets", "Offline mode"]);
      const atom = xml.parse((await get(`/p/${ws.appKey}/shipped.atom`)).body).feed;
      expect((atom.entry as { id: string }[]).map((e) => e.id)).toEqual([
        `${ORIGIN}/p/${ws.appKey}/requests/${second}-widgets`,
        `${ORIGIN}/p/${ws.appKey}/requests/${first}-offline-mode`,
      ]);
    });

    it("answers an empty but valid Atom feed for a board with nothing shipped", async () => {
      const ws = await freshApp();
      const feed = xml.parse((await get(`/p/${ws.appKey}/shipped.atom`)).body).feed;
      expect(feed.id).toBe(`${ORIGIN}/p/${ws.appKey}/roadmap`);
      expect(Number.isNaN(Date.parse(feed.updated))).toBe(false);
      expect(feed.entry).toBeUndefined();
    });
  });
});
