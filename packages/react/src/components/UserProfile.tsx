import { UnexpectedStatusException } from "@tidings/client";
import { useTidings, useUserProfile } from "@tidings/react-core";
import { ErrorState, Loading } from "./States.js";
import { TidingsScreen } from "./TidingsScreen.js";

const text = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value : undefined);

/** The first character a reader sees (a whole emoji or accented letter), upper-cased: the avatar initial. */
export function avatarInitial(name: string): string {
  const Segmenter = (Intl as { Segmenter?: typeof Intl.Segmenter }).Segmenter;
  const first = Segmenter === undefined ? Array.from(name)[0] : new Segmenter(undefined, { granularity: "grapheme" }).segment(name)[Symbol.iterator]().next().value?.segment;
  return (first ?? "").toUpperCase();
}

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
    const missing = profile.error instanceof UnexpectedStatusException && profile.error.status === 404;
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
  const p = profile.data.profile;
  const name = text(p.displayName) ?? text(props.fallbackName) ?? t("detail.anonymous");
  const avatar = text(p.avatarUrl);
  const website = text(p.websiteUrl);
  const comments = Array.isArray(profile.data.recentComments) ? (profile.data.recentComments as Record<string, unknown>[]) : [];
  const hidden = profile.data.hideComments === true || p.hideComments === true;
  return (
    <TidingsScreen label={t("profile.title")}>
      <header className="td-profile-head">
        {avatar?.startsWith("https://") ? <img className="td-avatar" src={avatar} alt="" /> : <span className="td-avatar td-avatar-initial" aria-hidden="true">{avatarInitial(name)}</span>}
        <div>
          <h2>{name}</h2>
          {text(p.bio) ? <p className="td-muted">{text(p.bio)}</p> : null}
          {website?.startsWith("https://") || website?.startsWith("http://") ? (
            <a href={website} rel="noopener noreferrer nofollow" target="_blank">
              {website}
            </a>
          ) : null}
        </div>
      </header>
      <h3>{t("profile.recentComments")}</h3>
      {hidden || comments.length === 0 ? (
        <p className="td-muted">{t("profile.noComments")}</p>
      ) : (
        <ul className="td-list">
          {comments.map((c, index) => (
            <li key={text(c.id) ?? index} className="td-card">
              <p className="td-small td-muted">
                {text(c.featureRequestTitle)} · {text(c.createdAt) ? new Date(String(c.createdAt)).toLocaleDateString(locale) : ""}
              </p>
              <p>{text(c.body)}</p>
            </li>
          ))}
        </ul>
      )}
    </TidingsScreen>
  );
}
