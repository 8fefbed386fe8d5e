import {
  checkCustomFieldValues,
  customFieldErrors,
  type CustomField,
  type CustomFieldForm,
  type CustomFieldInput,
  type CustomFieldProblem,
  type CustomFieldValues,
} from "@tidings/client";
import { useCallback, useMemo, useRef, useState } from "react";
import { useTidings } from "../context.js";
import { customFieldProblemText, limitHint } from "../i18n/custom-field-text.js";
import { useAsyncData } from "./use-async-data.js";

/** The custom fields of one form: their definitions, what the user entered, and the problems shown. */
export interface CustomFieldsState {
  /** `ready` once the definitions are read; `error` (a server without custom fields too) asks for none. */
  status: "idle" | "loading" | "ready" | "error";
  /** The fields the form asks for, by position. */
  fields: CustomField[];
  /** What the user entered, by key (a number field holds its text as typed). */
  values: Readonly<Record<string, CustomFieldInput>>;
  /** Sets one field's value and takes its problem away until the next check. */
  setValue: (key: string, value: CustomFieldInput) => void;
  /** Localized problems by key, shown under their field after a check or a refusal. */
  errors: Readonly<Record<string, string>>;
  /** A hint of the field's limits in the provider's language ("From 1 to 10", "Choose up to 3"), or undefined. */
  hint: (field: CustomField) => string | undefined;
  /**
   * Checks the values as the server will: the values to send, or null with the problems now in
   * `errors`. Call it when the user submits.
   */
  check: () => CustomFieldValues | null;
  /**
   * Shows a `400 validation_failed`'s field problems under their fields; true when it had some.
   * A problem with a field the form does not show reads the fields again (they changed).
   */
  showRefusal: (error: unknown) => boolean;
  /** Empties the values and problems (after a successful submission). */
  reset: () => void;
}

const NO_FIELDS: CustomField[] = [];

/**
 * The custom fields a form asks for (`form`: `feature_request` or `feedback`; `board`: the
 * board a proposal goes to, default the default board) with the user's values and localized
 * problems: {@link useProposeRequest} and {@link useFeedbackComposer} hold one each, and the
 * screens draw `fields`. The values are checked against the fields' limits before sending, and
 * the server's refusal is shown on the field it names. Reads nothing while `enabled` is false.
 *
 * @example
 * ```ts
 * const custom = useCustomFields("feedback");
 * const fields = custom.check();
 * if (fields !== null) await client.submitFeedback({ title, details, fields });
 * ```
 */
export function useCustomFields(form: CustomFieldForm, options: { board?: string | undefined; enabled?: boolean | undefined } = {}): CustomFieldsState {
  const { client, userToken, configSettled, t } = useTidings();
  const token = userToken ?? undefined;
  const board = options.board === "" ? undefined : options.board;
  const read = useAsyncData(
    `fields:${client.appKey}:${board ?? ""}:${token ?? ""}`,
    (signal) => client.listCustomFields({ board, signal, userToken: token }),
    configSettled && options.enabled !== false,
  );
  const all = read.data ?? NO_FIELDS;
  const fields = useMemo(() => all.filter((f) => f.appliesTo.includes(form)), [all, form]);
  const [values, setValues] = useState<Record<string, CustomFieldInput>>({});
  const [problems, setProblems] = useState<Record<string, CustomFieldProblem>>({});
  // Read by the callbacks, which stay stable for the form's life.
  const latest = useRef({ fields, values, reload: read.reload });
  latest.current = { fields, values, reload: read.reload };

  const setValue = useCallback((key: string, value: CustomFieldInput) => {
    setValues((v) => ({ ...v, [key]: value }));
    setProblems((p) => {
      if (!(key in p)) return p;
      const { [key]: _dropped, ...rest } = p;
      return rest;
    });
  }, []);
  const check = useCallback(() => {
    const outcome = checkCustomFieldValues(latest.current.fields, latest.current.values);
    setProblems(outcome.problems);
    return Object.keys(outcome.problems).length === 0 ? outcome.values : null;
  }, []);
  const showRefusal = useCallback((error: unknown) => {
    const refused = customFieldErrors(error);
    if (refused === undefined) return false;
    setProblems(refused);
    if (Object.keys(refused).some((key) => !latest.current.fields.some((f) => f.key === key))) latest.current.reload();
    return true;
  }, []);
  const reset = useCallback(() => {
    setValues({});
    setProblems({});
  }, []);

  const errors = useMemo(() => Object.fromEntries(Object.entries(problems).map(([key, problem]) => [key, customFieldProblemText(t, problem)])), [problems, t]);
  const hint = useCallback((field: CustomField) => limitHint(t, field), [t]);
  return { status: read.status, fields, values, setValue, errors, hint, check, showRefusal, reset };
}
