import type { FeatureRequestItem } from "@tidings/client";
import { useCallback, useRef, useState } from "react";
import { useTidings } from "../context.js";

/** The vote fields a toggle changes. */
export type VotePatch = Pick<FeatureRequestItem, "hasVoted" | "voteCount">;

/** What {@link useToggleVote} returns. */
export interface ToggleVote {
  /** Flips the vote at once, then settles on the server's answer or rolls back on error. */
  toggle: (item: FeatureRequestItem) => Promise<void>;
  /** Ids whose vote is in flight; a second tap on them is ignored. */
  pending: ReadonlySet<string>;
  /** The last failure, localized; cleared by the next toggle. */
  error: string | undefined;
  /** False when the item cannot be voted on (own request, no token yet, vote in flight). */
  canVote: (item: FeatureRequestItem) => boolean;
}

/**
 * Optimistic vote toggling with a per-request in-flight guard and rollback to the pre-tap state.
 * `apply` writes a patch into wherever the items live.
 *
 * @example
 * ```ts
 * const votes = useToggleVote((id, patch) => setItems((xs) => xs.map((x) => (x.id === id ? { ...x, ...patch } : x))));
 * ```
 */
export function useToggleVote(apply: (id: string, patch: VotePatch) => void): ToggleVote {
  const { client, userToken, errorMessage } = useTidings();
  const inFlight = useRef(new Set<string>());
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<string | undefined>(undefined);

  const canVote = useCallback(
    (item: FeatureRequestItem) => userToken !== null && !item.isOwnRequest && !inFlight.current.has(item.id),
    [userToken],
  );

  const toggle = useCallback(
    async (item: FeatureRequestItem) => {
      if (userToken === null || item.isOwnRequest || inFlight.current.has(item.id)) return;
      inFlight.current.add(item.id);
      setPending(new Set(inFlight.current));
      setError(undefined);
      const before: VotePatch = { hasVoted: item.hasVoted, voteCount: item.voteCount };
      apply(item.id, { hasVoted: !before.hasVoted, voteCount: Math.max(0, before.voteCount + (before.hasVoted ? -1 : 1)) });
      try {
        const result = await client.toggleVote(item.id, { userToken });
        apply(item.id, { hasVoted: result.voted, voteCount: result.voteCount });
      } catch (e) {
        apply(item.id, before);
        setError(errorMessage(e));
      } finally {
        inFlight.current.delete(item.id);
        setPending(new Set(inFlight.current));
      }
    },
    [apply, client, errorMessage, userToken],
  );

  return { toggle, pending, error, canVote };
}
