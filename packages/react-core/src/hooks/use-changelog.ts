import type { ChangelogEntry } from "@tidings/client";
import { useCallback, useState } from "react";
import { useTidings } from "../context.js";
import { useAsyncData } from "./use-async-data.js";

/** A release as the server sends it: the Markdown `body` and, from Tidings servers, sanitised `html`. */
export type ChangelogRelease = ChangelogEntry & { html?: string };

/** The changelog feed and the subscribe form's operation. */
export interface ChangelogState {
  enabled: boolean;
  status: "idle" | "loading" | "ready" | "error";
  error: string | undefined;
  entries: ChangelogRelease[];
  hasMore: boolean;
  loadMore: () => Promise<void>;
  reload: () => void;
  /** Subscribes an address (double opt-in); resolves true on success. */
  subscribe: (email: string) => Promise<boolean>;
  subscribing: boolean;
  subscribeError: string | undefined;
}

/**
 * Published release notes, newest first, and the email subscription. Nothing is fetched while
 * the `changelog` flag is off.
 *
 * @example
 * ```ts
 * const { entries, subscribe } = useChangelog();
 * ```
 */
export function useChangelog(options: { pageSize?: number | undefined } = {}): ChangelogState {
  const { client, userToken, configSettled, isEnabled, errorMessage } = useTidings();
  const enabled = isEnabled("changelog");
  const pageSize = options.pageSize ?? 10;
  const [more, setMore] = useState<{ entries: ChangelogRelease[]; cursor: string | null; hasMore: boolean } | null>(null);
  const [subscribing, setSubscribing] = useState(false);
  const [subscribeError, setSubscribeError] = useState<string | undefined>(undefined);
  const data = useAsyncData(
    `changelog:${client.appKey}`,
    async (signal) => {
      const page = await client.getChangelog({ signal, limit: pageSize });
      setMore(null);
      return page;
    },
    enabled && configSettled,
  );

  const first = data.data;
  const cursor = more?.cursor ?? first?.nextCursor ?? null;
  const hasMore = more?.hasMore ?? first?.hasMore ?? false;
  const loadMore = useCallback(async () => {
    if (cursor === null) return;
    try {
      const page = await client.getChangelog({ limit: pageSize, cursor });
      setMore((old) => ({ entries: [...(old?.entries ?? []), ...page.entries], cursor: page.nextCursor, hasMore: page.hasMore }));
    } catch (e) {
      setSubscribeError(errorMessage(e));
    }
  }, [client, cursor, errorMessage, pageSize]);

  const subscribe = useCallback(
    async (email: string) => {
      if (subscribing) return false;
      setSubscribing(true);
      setSubscribeError(undefined);
      try {
        await client.subscribeToChangelog(email, { userToken: userToken ?? undefined });
        return true;
      } catch (e) {
        setSubscribeError(errorMessage(e));
        return false;
      } finally {
        setSubscribing(false);
      }
    },
    [client, errorMessage, subscribing, userToken],
  );

  return {
    enabled,
    status: data.status,
    error: data.status === "error" ? errorMessage(data.error) : undefined,
    entries: [...(first?.entries ?? []), ...(more?.entries ?? [])],
    hasMore,
    loadMore,
    reload: data.reload,
    subscribe,
    subscribing,
    subscribeError,
  };
}
