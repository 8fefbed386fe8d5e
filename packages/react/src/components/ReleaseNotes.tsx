import { formatReleaseDate, useTidings, type ChangelogRelease } from "@tidings/react-core";

/**
 * One release: title, version badge, date and notes. The `html` is the server's sanitised
 * rendering of the Markdown (no script, no event handler, only http(s) links); without it the
 * Markdown source is shown as plain text, never as HTML.
 */
export function ReleaseNotes(props: { entry: ChangelogRelease; headingLevel?: 2 | 3 }) {
  const { t, locale } = useTidings();
  const { entry } = props;
  const Heading = props.headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="td-release">
      <header className="td-release-head">
        <Heading>{entry.title}</Heading>
        {entry.versionLabel ? <span className="td-badge">{t("changelog.version", { version: entry.versionLabel })}</span> : null}
        <time className="td-muted td-small" dateTime={entry.publishedAt}>
          {formatReleaseDate(entry.publishedAt, locale)}
        </time>
      </header>
      {typeof entry.html === "string" ? (
        <div className="td-markdown" dangerouslySetInnerHTML={{ __html: entry.html }} />
      ) : (
        <div className="td-markdown td-plain">{entry.body}</div>
      )}
    </article>
  );
}
