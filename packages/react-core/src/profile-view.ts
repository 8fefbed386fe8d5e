import { UnexpectedStatusException, type UserProfile } from "@tidings/client";

/** One public comment of a profile, as a screen shows it. */
export interface ProfileComment {
  /** The comment's id, else its position: a stable list key. */
  key: string;
  body: string | undefined;
  /** The title of the request the comment is on. */
  requestTitle: string | undefined;
  /** The creation date in the reader's locale ("" when the server sent none). */
  date: string;
}

/** What a profile screen shows, read leniently from either server shape (wire-contract §7.7). */
export interface ProfileView {
  /** The display name, else the fallback name; undefined when neither is known (show "Anonymous"). */
  name: string | undefined;
  /** An `https:` avatar picture; other schemes are dropped (the screen shows the initial). */
  avatarUrl: string | undefined;
  bio: string | undefined;
  /** An `http(s):` website; other schemes (javascript:, data:) are dropped. */
  websiteUrl: string | undefined;
  comments: ProfileComment[];
  /** The user hides their comments (top level in the legacy shape, in `profile` otherwise). */
  commentsHidden: boolean;
}

const text = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value : undefined);

/**
 * The first character a reader sees (a whole emoji or accented letter), upper-cased: the avatar
 * initial.
 *
 * @example
 * ```ts
 * avatarInitial("ada"); // "A"
 * avatarInitial("👩‍💻 dev"); // "👩‍💻"
 * ```
 */
export function avatarInitial(name: string): string {
  const Segmenter = (Intl as { Segmenter?: typeof Intl.Segmenter }).Segmenter;
  const first = Segmenter === undefined ? Array.from(name)[0] : new Segmenter(undefined, { granularity: "grapheme" }).segment(name)[Symbol.iterator]().next().value?.segment;
  return (first ?? "").toUpperCase();
}

function formatDate(value: string | undefined, locale: string): string {
  if (value === undefined) return "";
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return "";
  try {
    return at.toLocaleDateString(locale);
  } catch {
    return at.toISOString().slice(0, 10);
  }
}

/**
 * The fields a profile screen renders, from a `getUserProfile` answer of either server shape.
 *
 * @example
 * ```ts
 * const view = profileView(data, { fallbackName: "Ada", locale: "en" });
 * view.name ?? t("detail.anonymous");
 * ```
 */
export function profileView(data: UserProfile, options: { fallbackName?: string | undefined; locale: string }): ProfileView {
  const p = typeof data.profile === "object" && data.profile !== null ? data.profile : {};
  const avatar = text(p.avatarUrl);
  const website = text(p.websiteUrl);
  const raw = Array.isArray(data.recentComments) ? (data.recentComments as unknown[]) : [];
  const comments = raw.flatMap((c, index): ProfileComment[] => {
    if (typeof c !== "object" || c === null) return [];
    const record = c as Record<string, unknown>;
    return [{ key: text(record.id) ?? String(index), body: text(record.body), requestTitle: text(record.featureRequestTitle), date: formatDate(text(record.createdAt), options.locale) }];
  });
  return {
    name: text(p.displayName) ?? text(options.fallbackName),
    avatarUrl: avatar?.startsWith("https://") ? avatar : undefined,
    bio: text(p.bio),
    websiteUrl: website?.startsWith("https://") || website?.startsWith("http://") ? website : undefined,
    comments,
    commentsHidden: data.hideComments === true || p.hideComments === true,
  };
}

/**
 * True when a profile read failed because the user does not exist (a 404): the screen says so and
 * offers no retry.
 *
 * @example
 * ```ts
 * profile.status === "error" && isProfileMissing(profile.error);
 * ```
 */
export function isProfileMissing(error: unknown): boolean {
  return error instanceof UnexpectedStatusException && error.status === 404;
}
