import escapeHtml from "escape-html";

/** The page for unknown and private apps (the same for both, like the config endpoint). */
export function notFoundPage(message = "This page does not exist."): string {
  return messagePage("Not found", message);
}

/**
 * A page of its own, outside the app, that only says `title` and `message` (escaped): not found,
 * the portal not built, too many pages opened.
 *
 * @example
 * ```ts
 * messagePage("Too many requests", "Please try again in 30 seconds.");
 * ```
 */
export function messagePage(title: string, message: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
</head>
<body style="margin:0;font:16px/1.5 system-ui,sans-serif;color:#111827;background:#fff">
<main style="max-width:32rem;margin:15vh auto;padding:0 1rem;text-align:center">
<h1 style="font-size:1.5rem">${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
</main>
</body>
</html>
`;
}
