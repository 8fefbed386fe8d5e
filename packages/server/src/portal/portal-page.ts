import escapeHtml from "escape-html";

/** A feed the page links to in its head. */
export interface FeedLink {
  type: "application/rss+xml" | "application/atom+xml";
  title: string;
  href: string;
}

/** What the head of a portal page says about it (see portal/screens.ts). */
export interface PageMeta {
  /** The document title. */
  title: string;
  description: string;
  /** Absolute canonical URL. */
  canonical: string;
  ogType: "website" | "article";
  siteName: string;
  /** Absolute https URL of the app's icon, for cards. */
  image: string | null;
  indexable: boolean;
  feeds: readonly FeedLink[];
}

/**
 * What the bundle needs to offer the app's filters without asking for it: the boards visitors may
 * switch between (only when there are several) and the public tags. Sent as JSON in data
 * attributes, escaped like any attribute; the page has no inline script to carry it.
 */
export interface PortalData {
  boards: readonly { id: string; slug: string; name: string }[];
  tags: readonly { slug: string; name: string; color: string | null }[];
}

/**
 * The portal page: the head a crawler or a chat unfurl reads (title, description, canonical,
 * OpenGraph and Twitter card, robots, feeds) and the screen's server-rendered content inside the
 * mount the bundle then renders into. Every value is escaped here; `body` is HTML already escaped
 * by its renderer.
 */
export function portalPage(input: { appKey: string; embed: boolean; assetBase: string; meta: PageMeta; body: string; data?: PortalData }): string {
  const m = input.meta;
  const e = escapeHtml;
  const data = input.data;
  const dataAttributes =
    (data === undefined || data.boards.length === 0 ? "" : ` data-boards="${e(JSON.stringify(data.boards))}"`) +
    (data === undefined || data.tags.length === 0 ? "" : ` data-tags="${e(JSON.stringify(data.tags))}"`);
  const tags = [
    `<meta name="robots" content="${m.indexable && !input.embed ? "index, follow" : "noindex"}">`,
    `<title>${e(m.title)}</title>`,
    `<meta name="description" content="${e(m.description)}">`,
    `<link rel="canonical" href="${e(m.canonical)}">`,
    `<meta property="og:type" content="${m.ogType}">`,
    `<meta property="og:site_name" content="${e(m.siteName)}">`,
    `<meta property="og:title" content="${e(m.title)}">`,
    `<meta property="og:description" content="${e(m.description)}">`,
    `<meta property="og:url" content="${e(m.canonical)}">`,
    ...(m.image === null ? [] : [`<meta property="og:image" content="${e(m.image)}">`]),
    `<meta name="twitter:card" content="summary">`,
    `<meta name="twitter:title" content="${e(m.title)}">`,
    `<meta name="twitter:description" content="${e(m.description)}">`,
    ...m.feeds.map((f) => `<link rel="alternate" type="${f.type}" title="${e(f.title)}" href="${e(f.href)}">`),
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${tags.join("\n")}
<link rel="stylesheet" href="${input.assetBase}/portal.css">
<script type="module" src="${input.assetBase}/portal.js"></script>
</head>
<body>
<div id="tidings-portal" data-app-key="${e(input.appKey)}" data-app-name="${e(m.siteName)}" data-embed="${input.embed ? "1" : "0"}"${dataAttributes}>
<div class="td-portal td-ssr">
<header class="td-portal-header"><h1>${e(m.siteName)}</h1></header>
<main class="td-portal-main">
${input.body}
</main>
</div>
</div>
</body>
</html>
`;
}
