const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for HTML content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** The portal page: an empty mount the bundle renders into, carrying the app key. */
export function portalPage(input: { appKey: string; appName: string; embed: boolean; assetBase: string }): string {
  const title = escapeHtml(input.appName);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="${input.embed ? "noindex" : "index"}">
<title>${title}</title>
<link rel="stylesheet" href="${input.assetBase}/portal.css">
<script type="module" src="${input.assetBase}/portal.js"></script>
</head>
<body>
<div id="tidings-portal" data-app-key="${escapeHtml(input.appKey)}" data-embed="${input.embed ? "1" : "0"}"></div>
<noscript><p>${title}: this page needs JavaScript.</p></noscript>
</body>
</html>
`;
}

/** The page for unknown and private apps (the same for both, like the config endpoint). */
export function notFoundPage(message = "This page does not exist."): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Not found</title>
</head>
<body style="margin:0;font:16px/1.5 system-ui,sans-serif;color:#111827;background:#fff">
<main style="max-width:32rem;margin:15vh auto;padding:0 1rem;text-align:center">
<h1 style="font-size:1.5rem">Not found</h1>
<p>${escapeHtml(message)}</p>
</main>
</body>
</html>
`;
}
