import { avatarInitial, isProfileMissing, profileView, useTidings, useUserProfile } from "@tidings/react-core";
import { ErrorState, Loading } from "./States.js";
import { TidingsScreen } from "./TidingsScreen.js";

/**
 * A public user profile: name, avatar, bio, website and recent comments (both server shapes of
 * wire-contract §7.7).
 *
 * @example
 * ```tsx
 * <UserProfile userId="u_0123456789abcdef0123456789abcdef" />
 * ```
 */
export function UserProfile(props: {
  userId: string;
  /** Shown when the profile has no display name (e.g. the name on the comment that led here). */
  fallbackName?: string | undefined;
}) {
  const { t, errorMessage, locale } = useTidings();
  const profile = useUserProfile(props.userId);
  if (profile.status === "error") {
    const missing = isProfileMissing(profile.error);
    return (
      <TidingsScreen label={t("profile.title")}>
        <ErrorState message={missing ? t("profile.notFound") : errorMessage(profile.error)} onRetry={missing ? undefined : profile.reload} />
      </TidingsScreen>
    );
  }
  if (profile.data === undefined) {
    return (
      <TidingsScreen label={t("profile.title")}>
        <Loading />
      </TidingsScreen>
    );
  }
  const view = profileView(profile.data, { fallbackName: props.fallbackName, locale });
  const name = view.name ?? t("detail.anonymous");
  return (
    <TidingsScreen label={t("profile.title")}>
      <header className="td-profile-head">
        {view.avatarUrl !== undefined ? <img className="td-avatar" src={view.avatarUrl} alt="" /> : <span className="td-avatar td-avatar-initial" aria-hidden="true">{avatarInitial(name)}</span>}
        <div>
          <h2>{name}</h2>
          {view.bio !== undefined ? <p className="td-muted">{view.bio}</p> : null}
          {view.websiteUrl !== undefined ? (
            <a href={view.websiteUrl} rel="noopener noreferrer nofollow" target="_blank">
              {view.websiteUrl}
            </a>
          ) : null}
        </div>
      </header>
      <h3>{t("profile.recentComments")}</h3>
      {view.commentsHidden || view.comments.length === 0 ? (
        <p className="td-muted">{t("profile.noComments")}</p>
      ) : (
        <ul className="td-list">
          {view.comments.map((c) => (
            <li key={c.key} className="td-card">
              <p className="td-small td-muted">
                {c.requestTitle} · {c.date}
              </p>
              <p>{c.body}</p>
            </li>
          ))}
        </ul>
      )}
    </TidingsScreen>
  );
}
