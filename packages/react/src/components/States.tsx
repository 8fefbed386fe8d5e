import { useTidings } from "@tidings/react-core";

/** Rule 6's unavailable state of a disabled surface. */
export function Unavailable(props: { message?: string }) {
  const { t } = useTidings();
  return (
    <div className="td-state td-unavailable" role="status">
      {props.message ?? t("common.unavailable")}
    </div>
  );
}

/** A localized error with an optional retry. */
export function ErrorState(props: { message: string; onRetry?: (() => void) | undefined }) {
  const { t } = useTidings();
  return (
    <div className="td-state td-error" role="alert">
      <p>{props.message}</p>
      {props.onRetry === undefined ? null : (
        <button type="button" className="td-button" onClick={props.onRetry}>
          {t("common.retry")}
        </button>
      )}
    </div>
  );
}

/** The localized loading indicator screens show while their data arrives. */
export function Loading() {
  const { t } = useTidings();
  return (
    <div className="td-state td-loading" role="status" aria-live="polite">
      <span className="td-spinner" aria-hidden="true" />
      {t("common.loading")}
    </div>
  );
}
