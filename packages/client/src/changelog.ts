import { getConfig } from "./app-config.js";
import { nonBlank } from "./blank.js";
import type { CallOptions, IdempotentCallOptions, UserCallOptions, UserPostOptions } from "./call-options.js";
import type { ClientSession } from "./session.js";
import type { ChangelogEntry, ChangelogPage, SdkAppearance } from "./types.js";

/** What {@link FeedbackClient.prepareChangelogOverlay} returns when there is something to show. */
export interface ChangelogOverlayData {
  entries: ChangelogEntry[];
  appearance: SdkAppearance | undefined;
  /** Key to mark seen on close: the newest entry's `versionLabel`, else its id. */
  latestKey: string;
}

/** `GET /public/apps/<APP_KEY>/changelog`, newest first. */
export async function getChangelog(
  s: ClientSession,
  options: UserCallOptions & { limit?: number | undefined; cursor?: string | undefined },
): Promise<ChangelogPage> {
  const data = await s.json<Partial<ChangelogPage>>(
    {
      method: "GET",
      path: s.appPath("changelog"),
      query: { limit: options.limit, cursor: options.cursor },
      headers: await s.identity.readHeaders(options),
    },
    options,
  );
  const entries = [...(data.entries ?? [])].sort((a, b) => Date.parse(b.publishedAt) - Date.parse(a.publishedAt));
  return { entries, hasMore: data.hasMore ?? false, nextCursor: data.nextCursor ?? null };
}

/** `POST /public/apps/<APP_KEY>/changelog/subscribe` for the user. */
export async function subscribeToChangelog(s: ClientSession, email: string, options: UserPostOptions): Promise<{ subscribed: boolean }> {
  const headers = await s.identity.headers(options);
  const data = await s.json<{ subscribed?: boolean; success?: boolean }>(
    { method: "POST", path: s.appPath("changelog/subscribe"), json: { email: email.trim() }, headers },
    options,
  );
  return { subscribed: data.subscribed ?? data.success ?? true };
}

/** `POST /public/apps/<APP_KEY>/changelog/unsubscribe` with an address or an email link's token. */
export async function unsubscribeFromChangelog(
  s: ClientSession,
  emailOrToken: string | { token: string },
  options: CallOptions & IdempotentCallOptions,
): Promise<{ unsubscribed: boolean }> {
  const json = typeof emailOrToken === "string" ? { email: emailOrToken.trim() } : { token: emailOrToken.token };
  const data = await s.json<{ unsubscribed?: boolean }>({ method: "POST", path: s.appPath("changelog/unsubscribe"), json }, options);
  return { unsubscribed: data.unsubscribed ?? true };
}

/**
 * Rule 8: the config and the changelog; null when the changelog flag is off, there is nothing,
 * or (with `onlyIfUnseen`) the newest release is already seen.
 */
export async function prepareChangelogOverlay(s: ClientSession, options: CallOptions & { onlyIfUnseen?: boolean }): Promise<ChangelogOverlayData | null> {
  const config = await getConfig(s, options);
  if (config.sdk?.features?.changelog === false) return null;
  const count = Math.min(10, Math.max(1, Math.trunc(config.sdk?.changelogOverlay?.entryCount ?? 3)));
  const { entries } = await getChangelog(s, { ...options, limit: count });
  const shown = entries.slice(0, count);
  const newest = shown[0];
  if (newest === undefined) return null;
  const latestKey = nonBlank(newest.versionLabel) ?? newest.id;
  if (options.onlyIfUnseen === true && (await s.client.seenChangelogs.hasSeen(latestKey))) return null;
  return { entries: shown, appearance: config.sdk, latestKey };
}
