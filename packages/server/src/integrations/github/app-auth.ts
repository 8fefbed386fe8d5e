import { createHash, createPrivateKey } from "node:crypto";
import type { Context } from "../../context.js";
import type { TrackerConnectionRow } from "../trackers/adapter.js";
import { fieldError } from "../trackers/connections.js";
import { githubOctokit } from "./client.js";
import { classify, GithubCallError } from "./failures.js";

/** An installation token is used until this long before it expires, then a new one is minted. */
export const INSTALLATION_TOKEN_MARGIN_MS = 5 * 60_000;

/** What a GitHub App installation connection carries. */
export type InstallationConnection = Pick<TrackerConnectionRow, "id" | "apiUrl" | "githubAppId" | "githubPrivateKey" | "githubInstallationId">;

interface CachedToken {
  /** The credentials it was minted with: new ones mint anew. */
  key: string;
  token: string;
  expiresAtMs: number;
}

const tokens = new Map<string, CachedToken>();

// @octokit/auth-app keeps its own cache by the wall clock; Tidings keeps one by its injected clock instead.
const noCache = { get: () => "", set: () => undefined };

/**
 * Refuses a private key that is no PEM private key: 400 `validation_failed` on `githubApp.privateKey`.
 *
 * @example
 * ```ts
 * checkPrivateKey(body.githubApp.privateKey);
 * ```
 */
export function checkPrivateKey(pem: string): void {
  try {
    createPrivateKey(pem);
  } catch {
    throw fieldError("githubApp.privateKey", "The private key must be the PEM file GitHub downloads for the GitHub App");
  }
}

/** What a failed mint means: a refused app key is `unauthorized`; an installation gone (404) or suspended (403) is `gone`. */
function mintFailure(error: unknown, nowMs: number): GithubCallError {
  const failure = classify(error, nowMs);
  if (failure.kind === "not_found") return new GithubCallError({ kind: "gone", reason: "installation_removed" });
  if (failure.kind === "forbidden") return new GithubCallError({ kind: "gone", reason: "installation_suspended" });
  return new GithubCallError(failure);
}

/**
 * A token for the connection's GitHub App installation, minted with `@octokit/auth-app` (the app's
 * JWT, signed with its private key, exchanged at `POST /app/installations/{id}/access_tokens`) and
 * reused until {@link INSTALLATION_TOKEN_MARGIN_MS} before it expires by the context's clock. A
 * failed mint throws a {@link GithubCallError}: a refused key `unauthorized`, a removed or
 * suspended installation `gone`.
 *
 * @example
 * ```ts
 * const github = githubClient(ctx, { owner, repo, apiBaseUrl, token: () => installationToken(ctx, connection) });
 * ```
 */
export async function installationToken(ctx: Pick<Context, "clock">, connection: InstallationConnection): Promise<string> {
  const { githubAppId: appId, githubPrivateKey: privateKey, githubInstallationId: installationId } = connection;
  if (appId === null || privateKey === null || installationId === null) throw new GithubCallError({ kind: "unauthorized" });
  const key = createHash("sha256").update([appId, installationId, connection.apiUrl, privateKey].join("\n")).digest("hex");
  const cached = tokens.get(connection.id);
  if (cached !== undefined && cached.key === key && cached.expiresAtMs - INSTALLATION_TOKEN_MARGIN_MS > ctx.clock.now().getTime()) return cached.token;
  const { createAppAuth } = await import("@octokit/auth-app");
  const auth = createAppAuth({ appId, privateKey, request: (await githubOctokit(connection.apiUrl, undefined)).request, cache: noCache as never });
  try {
    const minted = await auth({ type: "installation", installationId, refresh: true });
    tokens.set(connection.id, { key, token: minted.token, expiresAtMs: Date.parse(minted.expiresAt) });
    return minted.token;
  } catch (error) {
    tokens.delete(connection.id);
    throw mintFailure(error, ctx.clock.now().getTime());
  }
}
