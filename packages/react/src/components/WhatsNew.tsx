import { useEffect, useId, useState, type FormEvent } from "react";
import { useTidings, useChangelog } from "@tidings/react-core";
import { ReleaseNotes } from "./ReleaseNotes.js";
import { ErrorState, Loading, Unavailable } from "./States.js";
import { TidingsScreen } from "./TidingsScreen.js";

/**
 * The what's-new screen: published releases with their rendered notes, older releases on demand,
 * and the email subscribe form. Unavailable while the `changelog` flag is off. `releaseId` (a
 * release's address) scrolls that release into view once it is loaded.
 *
 * @example
 * ```tsx
 * <WhatsNew />
 * ```
 */
export function WhatsNew(props: { showSubscribe?: boolean | undefined; releaseId?: string | undefined }) {
  const { t } = useTidings();
  const changelog = useChangelog();
  const [email, setEmail] = useState("");
  const [subscribed, setSubscribed] = useState(false);
  const emailId = useId();
  const base = useId();
  const shown = props.releaseId !== undefined && changelog.entries.some((e) => e.id === props.releaseId);
  useEffect(() => {
    if (shown) document.getElementById(`${base}-${props.releaseId}`)?.scrollIntoView({ block: "start" });
  }, [base, shown, props.releaseId]);

  if (!changelog.enabled) {
    return (
      <TidingsScreen label={t("changelog.title")}>
        <Unavailable />
      </TidingsScreen>
    );
  }
  const onSubscribe = async (event: FormEvent) => {
    event.preventDefault();
    if (await changelog.subscribe(email)) setSubscribed(true);
  };
  return (
    <TidingsScreen label={t("changelog.title")}>
      {props.showSubscribe === false ? null : subscribed ? (
        <p className="td-notice td-success" role="status">
          {t("changelog.subscribed")}
        </p>
      ) : (
        <form className="td-subscribe" onSubmit={(e) => void onSubscribe(e)}>
          <label htmlFor={emailId}>{t("changelog.subscribe")}</label>
          <div className="td-row">
            <input
              id={emailId}
              type="email"
              required
              autoComplete="email"
              className="td-input"
              placeholder={t("changelog.email")}
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
            <button type="submit" className="td-button td-primary" disabled={changelog.subscribing}>
              {t("changelog.subscribeButton")}
            </button>
          </div>
          {changelog.subscribeError ? (
            <p role="alert" className="td-danger td-small">
              {changelog.subscribeError}
            </p>
          ) : null}
        </form>
      )}
      {changelog.status === "error" ? (
        <ErrorState message={changelog.error ?? ""} onRetry={changelog.reload} />
      ) : changelog.status !== "ready" && changelog.entries.length === 0 ? (
        <Loading />
      ) : changelog.entries.length === 0 ? (
        <p className="td-state td-muted">{t("changelog.empty")}</p>
      ) : (
        <div className="td-releases">
          {changelog.entries.map((entry) => (
            <div key={entry.id} id={`${base}-${entry.id}`} aria-current={entry.id === props.releaseId ? "true" : undefined}>
              <ReleaseNotes entry={entry} headingLevel={2} />
            </div>
          ))}
          {changelog.hasMore ? (
            <button type="button" className="td-button td-block" onClick={() => void changelog.loadMore()}>
              {t("changelog.loadMore")}
            </button>
          ) : null}
        </div>
      )}
    </TidingsScreen>
  );
}
