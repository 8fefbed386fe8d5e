import { useFollowRequest, useTidings } from "@tidings/react-core";
import { useId, useState, type FormEvent } from "react";

/**
 * "Get updates on this request": an address (hidden when the provider's `userEmail` is known) and
 * a button; then "Check your inbox to confirm" or "You'll get updates", with "Stop updates".
 *
 * @example
 * ```tsx
 * <FollowRequest id={item.id} />
 * ```
 */
export function FollowRequest(props: { id: string }) {
  const { t } = useTidings();
  const follow = useFollowRequest(props.id);
  const [email, setEmail] = useState("");
  const titleId = useId();
  const emailId = useId();
  const hintId = useId();
  const sending = follow.status === "sending";
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    await follow.follow(follow.knownEmail === undefined ? email : undefined);
  };
  return (
    <section className="td-follow td-subscribe" aria-labelledby={titleId}>
      <h3 id={titleId}>{t("follow.title")}</h3>
      {follow.status === "following" || follow.status === "pending" ? (
        <div className="td-row">
          <p className="td-notice td-success" role="status">
            {follow.status === "following" ? t("follow.following") : t("follow.pending")}
          </p>
          <button type="button" className="td-button" disabled={follow.stopping} onClick={() => void follow.unfollow()}>
            {follow.stopping ? t("follow.stopping") : t("follow.stop")}
          </button>
        </div>
      ) : (
        <form onSubmit={(e) => void onSubmit(e)}>
          <p id={hintId} className="td-muted td-small">
            {t("follow.hint")}
          </p>
          {follow.knownEmail === undefined ? null : <p className="td-small">{t("follow.sendsTo", { email: follow.knownEmail })}</p>}
          <div className="td-row">
            {follow.knownEmail === undefined ? (
              <>
                <label htmlFor={emailId} className="td-visually-hidden">
                  {t("follow.email")}
                </label>
                <input
                  id={emailId}
                  type="email"
                  required
                  autoComplete="email"
                  aria-describedby={hintId}
                  className="td-input"
                  placeholder={t("follow.email")}
                  value={email}
                  onChange={(e) => setEmail(e.target.value)}
                />
              </>
            ) : null}
            <button type="submit" className="td-button td-primary" disabled={sending} aria-describedby={hintId}>
              {sending ? t("follow.sending") : t("follow.submit")}
            </button>
          </div>
        </form>
      )}
      {follow.error ? (
        <p role="alert" className="td-danger td-small">
          {follow.error}
        </p>
      ) : null}
    </section>
  );
}
