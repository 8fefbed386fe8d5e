// Signing secrets are shown by the server only when created or rotated; the dashboard keeps the
// last one in memory (never in storage) so the app page can reveal it until the tab closes.
const secrets = new Map<string, string>();

export function rememberSecret(appId: string, secret: string): void {
  secrets.set(appId, secret);
}

export function knownSecret(appId: string): string | undefined {
  return secrets.get(appId);
}
