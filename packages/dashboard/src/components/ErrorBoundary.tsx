import { Component, Fragment, type ReactNode } from "react";
import { t } from "../i18n/t.js";
import { errorMessage } from "./ui.js";

interface Props {
  children: ReactNode;
  /** A change (the route, the open record) clears the error: the next thing gets its own chance. */
  resetKey?: unknown;
  /** A way out besides retrying, e.g. to the apps list. */
  back?: { label: string; go: () => void } | undefined;
}

interface State {
  failed: boolean;
  error: unknown;
  /** Bumped by retry: the children mount afresh and load their data again. */
  attempt: number;
}

/**
 * Keeps a render error inside the part of the dashboard that threw: that part shows what went
 * wrong with Retry (and a way back), everything around it keeps working. React itself reports
 * the caught error to the console.
 *
 * @example
 * ```tsx
 * <ErrorBoundary resetKey={path} back={{ label: t("boundary.backToApps"), go: () => navigate(appsPath) }}>{page}</ErrorBoundary>
 * ```
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false, error: null, attempt: 0 };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { failed: true, error };
  }

  override componentDidUpdate(previous: Props): void {
    if (this.state.failed && !Object.is(previous.resetKey, this.props.resetKey)) this.setState({ failed: false, error: null });
  }

  private readonly retry = () => this.setState((s) => ({ failed: false, error: null, attempt: s.attempt + 1 }));

  override render(): ReactNode {
    if (!this.state.failed) return <Fragment key={this.state.attempt}>{this.props.children}</Fragment>;
    const { back } = this.props;
    return (
      <div className="banner banner-error boundary" role="alert" data-testid="error-boundary">
        <div>
          <strong>{t("boundary.title")}</strong>
          <p>{t("boundary.body")}</p>
          <details>
            <summary>{t("boundary.details")}</summary>
            <code>{safeMessage(this.state.error)}</code>
          </details>
          <div className="boundary-actions">
            <button type="button" onClick={this.retry}>
              {t("common.retry")}
            </button>
            {back === undefined ? null : (
              <button type="button" onClick={back.go}>
                {back.label}
              </button>
            )}
          </div>
        </div>
      </div>
    );
  }
}

/** The message of whatever was thrown, even a value whose own conversion to text throws. */
function safeMessage(error: unknown): string {
  try {
    return errorMessage(error);
  } catch {
    return Object.prototype.toString.call(error);
  }
}
