import type { FeatureRequestDraft, ProposeResult } from "@tidings/client";
import { useCallback, useState } from "react";
import { useTidings } from "../context.js";

/** The propose operation of the compose sheet. */
export interface ProposeRequestState {
  enabled: boolean;
  submitting: boolean;
  /** Localized error of the last attempt (verification, quota, subscription…); the draft stays with the caller. */
  error: string | undefined;
  result: ProposeResult | null;
  /** Proposes a request; resolves with the result, or null on failure or when blocked. */
  submit: (draft: FeatureRequestDraft) => Promise<ProposeResult | null>;
}

/**
 * Proposes a feature request; blocked while the `featureRequests` flag is off.
 *
 * @example
 * ```ts
 * const { submit } = useProposeRequest();
 * const result = await submit({ title: "Dark mode" });
 * ```
 */
export function useProposeRequest(): ProposeRequestState {
  const { client, userToken, isEnabled, errorMessage } = useTidings();
  const enabled = isEnabled("featureRequests");
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [result, setResult] = useState<ProposeResult | null>(null);
  const submit = useCallback(
    async (draft: FeatureRequestDraft) => {
      if (!enabled || submitting) return null;
      setSubmitting(true);
      setError(undefined);
      try {
        const created = await client.submitFeatureRequest(draft, { userToken: userToken ?? undefined });
        setResult(created);
        return created;
      } catch (e) {
        setError(errorMessage(e));
        return null;
      } finally {
        setSubmitting(false);
      }
    },
    [client, enabled, errorMessage, submitting, userToken],
  );
  return { enabled, submitting, error, result, submit };
}
