import type { FeatureRequestDraft, OutboxEntry, ProposeResult } from "@tidings/client";
import { useCallback, useState } from "react";
import { useTidings } from "../context.js";

/** The propose operation of the compose sheet. */
export interface ProposeRequestState {
  enabled: boolean;
  submitting: boolean;
  /** Localized error of the last attempt (verification, quota, subscription…); the draft stays with the caller. */
  error: string | undefined;
  result: ProposeResult | null;
  /**
   * The outbox entry when the provider's outbox kept the proposal for later (no connection): show
   * `t("outbox.queued")` and clear the draft. Null otherwise.
   */
  queued: OutboxEntry | null;
  /** Proposes a request; resolves with the result, or null on failure, when queued or when blocked. */
  submit: (draft: FeatureRequestDraft) => Promise<ProposeResult | null>;
}

/**
 * Proposes a feature request; blocked while the `featureRequests` flag is off. With an outbox in
 * the provider, a proposal that reaches no server is queued instead of failing.
 *
 * @example
 * ```ts
 * const { submit } = useProposeRequest();
 * const result = await submit({ title: "Dark mode" });
 * ```
 */
export function useProposeRequest(): ProposeRequestState {
  const { client, userToken, isEnabled, errorMessage, outbox } = useTidings();
  const enabled = isEnabled("featureRequests");
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [result, setResult] = useState<ProposeResult | null>(null);
  const [queued, setQueued] = useState<OutboxEntry | null>(null);
  const submit = useCallback(
    async (draft: FeatureRequestDraft) => {
      if (!enabled || submitting) return null;
      setSubmitting(true);
      setError(undefined);
      setQueued(null);
      try {
        const options = { userToken: userToken ?? undefined };
        const outcome =
          outbox === undefined
            ? { status: "sent" as const, result: await client.submitFeatureRequest(draft, options) }
            : await outbox.submitFeatureRequestOrQueue(draft, options);
        if (outcome.status === "queued") {
          setQueued(outcome.entry);
          return null;
        }
        setResult(outcome.result);
        return outcome.result;
      } catch (e) {
        setError(errorMessage(e));
        return null;
      } finally {
        setSubmitting(false);
      }
    },
    [client, enabled, errorMessage, outbox, submitting, userToken],
  );
  return { enabled, submitting, error, result, queued, submit };
}
