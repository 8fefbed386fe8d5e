import { useEffect, useState, type ReactNode } from "react";
import { ApiFailure } from "../api.js";
import { t } from "../i18n/t.js";

/** A labelled input with its hint and field errors, wired for screen readers. */
export function Field(props: { id: string; label: string; errors?: readonly string[] | undefined; hint?: string | undefined; children: ReactNode }) {
  const errors = props.errors ?? [];
  return (
    <div className={errors.length > 0 ? "field field-invalid" : "field"}>
      <label htmlFor={props.id}>{props.label}</label>
      {props.children}
      {props.hint === undefined ? null : <small id={`${props.id}-hint`}>{props.hint}</small>}
      {errors.map((message) => (
        <small key={message} className="field-error" id={`${props.id}-error`} role="alert">
          {message}
        </small>
      ))}
    </div>
  );
}

/** Props that tie an input to its {@link Field}'s error for assistive tech. */
export function describedBy(id: string, errors: readonly string[] | undefined) {
  return errors !== undefined && errors.length > 0 ? { "aria-invalid": true, "aria-describedby": `${id}-error` } : {};
}

/** A message for an error of any kind. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiFailure) return error.message;
  return error instanceof Error ? error.message : String(error);
}

export function ErrorBanner(props: { error: unknown; onRetry?: () => void }) {
  if (props.error === null || props.error === undefined) return null;
  return (
    <div className="banner banner-error" role="alert">
      <span>{errorMessage(props.error)}</span>
      {props.onRetry === undefined ? null : (
        <button type="button" onClick={props.onRetry}>
          {t("common.retry")}
        </button>
      )}
    </div>
  );
}

export function Notice(props: { children: ReactNode }) {
  return (
    <div className="banner banner-ok" role="status">
      {props.children}
    </div>
  );
}

export function Empty(props: { children: ReactNode }) {
  return <p className="empty">{props.children}</p>;
}

/** Previous / next over an offset-paginated list. */
export function Pager(props: { offset: number; limit: number; total: number; onChange: (offset: number) => void }) {
  const pages = Math.max(1, Math.ceil(props.total / props.limit));
  const page = Math.floor(props.offset / props.limit) + 1;
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label="Pagination">
      <button type="button" disabled={page <= 1} onClick={() => props.onChange(Math.max(0, props.offset - props.limit))}>
        {t("common.previous")}
      </button>
      <span>{t("common.pageOf", { page, pages })}</span>
      <button type="button" disabled={page >= pages} onClick={() => props.onChange(props.offset + props.limit)}>
        {t("common.next")}
      </button>
    </nav>
  );
}

/**
 * Loads data with `load` whenever `deps` change; answers the data, the error, a loading flag
 * and `reload`.
 */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]) {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({ data: undefined, error: null, loading: true });
  const [nonce, setNonce] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => live && setState({ data, error: null, loading: false }),
      (error: unknown) => live && setState({ data: undefined, error, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [...deps, nonce]);
  return { ...state, reload: () => setNonce((n) => n + 1) };
}

/** A form's submit button and, when the form can be cancelled, its cancel button. */
export function SubmitButtons(props: { submitLabel: string; onCancel?: (() => void) | undefined }) {
  return (
    <>
      <button type="submit" className="primary">
        {props.submitLabel}
      </button>
      {props.onCancel === undefined ? null : (
        <button type="button" onClick={props.onCancel}>
          {t("common.cancel")}
        </button>
      )}
    </>
  );
}

/** The foot of an editor form: its refusal, then its {@link SubmitButtons} in a row. */
export function FormActions(props: { failure: unknown; submitLabel: string; onCancel?: (() => void) | undefined }) {
  return (
    <>
      <ErrorBanner error={props.failure} />
      <div className="inline-form">
        <SubmitButtons submitLabel={props.submitLabel} onCancel={props.onCancel} />
      </div>
    </>
  );
}

/** A danger button that asks `question` in the browser's confirm dialog and calls `onConfirm` only when the user agrees. */
export function ConfirmButton(props: { question: string; onConfirm: () => void; label?: string; children: ReactNode }) {
  return (
    <button
      type="button"
      className="danger"
      aria-label={props.label}
      onClick={() => {
        if (window.confirm(props.question)) props.onConfirm();
      }}
    >
      {props.children}
    </button>
  );
}

/** The ↑ and ↓ buttons that move the `index`th of `count` rows one place, each off at its end of the list. */
export function MoveButtons(props: { upLabel: string; downLabel: string; index: number; count: number; onMove: (index: number, delta: number) => void }) {
  return (
    <>
      <button type="button" aria-label={props.upLabel} disabled={props.index === 0} onClick={() => props.onMove(props.index, -1)}>
        ↑
      </button>
      <button type="button" aria-label={props.downLabel} disabled={props.index === props.count - 1} onClick={() => props.onMove(props.index, 1)}>
        ↓
      </button>
    </>
  );
}
