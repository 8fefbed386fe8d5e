import type { FeatureRequestDraft, OutboxEntry, ProposeResult } from "@tidings/client";
import { useCallback, useState } from "react";
import { useTidings } from "../context.js";
import { useCustomFields, type CustomFieldsState } from "./use-custom-fields.js";

/** Options of {@link useProposeRequest}. */
export interface UseProposeRequestOptions {
  /** The slug of the board the request goes to; its custom fields are asked. @default the app's default board */
  board?: string | undefined;
}

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
  /** The custom fields the board's proposal form asks for, with the values entered and their problems: draw them in the form. */
  fields: CustomFieldsState;
  /**
   * Proposes a request to the board, with the custom field values entered; resolves with the
   * result, or null on failure, when a field needs attention (see `fields.errors`), when queued
   * or when blocked.
   */
  submit: (draft: FeatureRequestDraft) => Promise<ProposeResult | null>;
}

/**
 * Proposes a feature request to a board with its custom fields; blocked while the
 * `featureRequests` flag is off. The fields are checked before sending, and a field the server
 * refuses shows its problem under it. With an outbox in the provider, a proposal that reaches no
 * server is queued instead of failing.
 *
 * @example
 * ```ts
 * const { submit, fields } = useProposeRequest({ board: "bugs" });
 * fields.setValue("severity", "high");
 * const result = await submit({ title: "Crash on save" });
 * ```
 */
export function useProposeRequest(options: UseProposeRequestOptions = {}): ProposeRequestState {
  const { client, userToken, isEnabled, errorMessage, outbox, t } = useTidings();
  const enabled = isEnabled("featureRequests");
  const board = options.board === "" ? undefined : options.board;
  const fields = useCustomFields("feature_request", { board, enabled });
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [result, setResult] = useState<ProposeResult | null>(null);
  const [queued, setQueued] = useState<OutboxEntry | null>(null);
  const { check, showRefusal, reset } = fields;
  const submit = useCallback(
    async (draft: FeatureRequestDraft) => {
      if (!enabled || submitting) return null;
      const values = check();
      if (values === null) {
        setError(t("fields.checkForm"));
        return null;
      }
      setSubmitting(true);
      setError(undefined);
      setQueued(null);
      try {
        const options = { userToken: userToken ?? undefined };
        const complete: FeatureRequestDraft = { ...draft, board: draft.board ?? board, fields: { ...values, ...draft.fields } };
        const outcome =
          outbox === undefined
            ? { status: "sent" as const, result: await client.submitFeatureRequest(complete, options) }
            : await outbox.submitFeatureRequestOrQueue(complete, options);
        reset();
        if (outcome.status === "queued") {
          setQueued(outcome.entry);
          return null;
        }
        setResult(outcome.result);
        return outcome.result;
      } catch (e) {
        setError(showRefusal(e) ? t("fields.checkForm") : errorMessage(e));
        return null;
      } finally {
        setSubmitting(false);
      }
    },
    [board, check, client, enabled, errorMessage, outbox, reset, showRefusal, submitting, t, userToken],
  );
  return { enabled, submitting, error, result, queued, fields, submit };
}
