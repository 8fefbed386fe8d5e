import escapeHtml from "escape-html";

/** A minimal standalone page (interstitials and landing pages). */
export function page(title: string, bodyHtml: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5}button{font:inherit;padding:.5rem 1rem}</style></head><body>${bodyHtml}</body></html>`;
}

/** A page whose only action is a form that POSTs `token` back to `action` (GET changes nothing). */
export function interstitial(title: string, explanation: string, action: string, token: string, button: string): string {
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(explanation)}</p><form method="post" action="${escapeHtml(action)}"><input type="hidden" name="token" value="${escapeHtml(token)}"><button type="submit">${escapeHtml(button)}</button></form>`,
  );
}
