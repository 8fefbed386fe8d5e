import { useEffect, useState } from "react";
import { api } from "../api.js";
import { Empty } from "../components/ui.js";
import { t } from "../i18n/t.js";

const PREVIEW_DELAY_MS = 300;

/** The HTML of a release's Markdown `body` as it will be published (null while empty); `setPreview` shows a saved entry's. */
export function useLivePreview(wsId: string, body: string) {
  const [preview, setPreview] = useState<string | null>(null);
  // Live preview: the server renders and sanitises the Markdown (the same renderer as the published
  // release), 300 ms after the last keystroke; an older answer never overwrites a newer one.
  useEffect(() => {
    if (body.trim() === "") {
      setPreview(null);
      return;
    }
    let live = true;
    const timer = window.setTimeout(() => {
      api<{ html: string }>("POST", `/workspaces/${wsId}/changelog/preview`, { body }).then(
        (answer) => live && setPreview(answer.html),
        () => undefined,
      );
    }, PREVIEW_DELAY_MS);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [body, wsId]);
  return { preview, setPreview };
}

/** The live preview of the release being written. */
export function ChangelogPreview(props: { preview: string | null }) {
  const { preview } = props;
  return (
    <>
      <h2 id="cl-preview-title">{t("changelog.livePreview")}</h2>
      {preview === null ? (
        <Empty>{t("changelog.previewEmpty")}</Empty>
      ) : (
        // The server renders Markdown and sanitises the HTML; the page's CSP forbids inline script anyway.
        <div className="card markdown" data-testid="changelog-preview" aria-labelledby="cl-preview-title" aria-live="polite" dangerouslySetInnerHTML={{ __html: preview }} />
      )}
    </>
  );
}
