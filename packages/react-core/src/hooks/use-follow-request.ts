import { FeedbackException } from "@tidings/client";
import { useCallback, useRef, useState } from "react";
import { useTidings } from "../context.js";

/**
 * Where following a request stands: `pending` waits for the address's owner to confirm the mail
 * they were sent; `error` is a failed follow (the form shows again with `error`).
 */
export type FollowStatus = "idle" | "sending" | "following" | "pending" | "error";

/** What {@link useFollowRequest} returns. */
export interface FollowRequestState {
  status: FollowStatus;
  /** True while a stop is in flight (the status stays `following` or `pending` until it lands). */
  stopping: boolean;
  /** The provider's `userEmail`: follow with it instead of asking for an address. */
  knownEmail: string | undefined;
  /** The localized failure of the last follow or stop; cleared by the next attempt. */
  error: string | undefined;
  /** Follows with `email` (else the provider's `userEmail`); resolves false on failure or while busy. */
  follow: (email?: string) => Promise<boolean>;
  /** Stops following with the address last followed with; on failure the previous state stays. */
  unfollow: () => Promise<boolean>;
}

interface Followed {
  id: string;
  status: FollowStatus;
  stopping?: boolean;
  email: string | undefined;
  error: string | undefined;
}

/**
 * "Get updates on this request": follows request `id` through the SDK (moves, team replies and
 * shipping, mailed at most once an hour). An SSO user whose token carries the address follows at
 * once (`following`); any other address is sent a confirmation first (`pending`). The state belongs
 * to one request: another `id` starts from `idle`.
 *
 * @example
 * ```ts
 * const follow = useFollowRequest(item.id);
 * await follow.follow("ada@example.com"); // follow.status: "pending"
 * ```
 */
export function useFollowRequest(id: string): FollowRequestState {
  const { client, userToken, userEmail, errorMessage, t } = useTidings();
  // The server checks addresses more strictly than a browser's `type="email"`: say which field is wrong.
  const failure = useCallback(
    (e: unknown) => (e instanceof FeedbackException && e.code === "validation_failed" ? t("follow.invalidEmail") : errorMessage(e)),
    [errorMessage, t],
  );
  const [state, setState] = useState<Followed>({ id, status: "idle", email: undefined, error: undefined });
  const busy = useRef(false);
  const current = state.id === id ? state : { id, status: "idle" as const, email: undefined, error: undefined };

  const follow = useCallback(
    async (email?: string) => {
      const address = email?.trim() || userEmail;
      if (busy.current) return false;
      busy.current = true;
      setState({ id, status: "sending", email: address, error: undefined });
      try {
        const result = await client.followFeatureRequest(id, { email: address, userToken: userToken ?? undefined });
        setState({ id, status: result.following ? "following" : result.pending ? "pending" : "idle", email: address, error: undefined });
        return result.following || result.pending;
      } catch (e) {
        setState({ id, status: "error", email: undefined, error: failure(e) });
        return false;
      } finally {
        busy.current = false;
      }
    },
    [client, failure, id, userEmail, userToken],
  );

  const { status: before, email: followedWith } = current;
  const unfollow = useCallback(async () => {
    if (busy.current) return false;
    busy.current = true;
    setState({ id, status: before, stopping: true, email: followedWith, error: undefined });
    try {
      await client.unfollowFeatureRequest(id, { email: followedWith, userToken: userToken ?? undefined });
      setState({ id, status: "idle", email: undefined, error: undefined });
      return true;
    } catch (e) {
      setState({ id, status: before, email: followedWith, error: failure(e) });
      return false;
    } finally {
      busy.current = false;
    }
  }, [before, client, failure, followedWith, id, userToken]);

  return { status: current.status, stopping: current.stopping === true, knownEmail: userEmail, error: current.error, follow, unfollow };
}
