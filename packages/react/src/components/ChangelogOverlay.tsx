import { useTidings, useChangelogOverlay, type UseChangelogOverlayOptions, type ChangelogRelease } from "@tidings/react-core";
import { Modal } from "./Modal.js";
import { ReleaseNotes } from "./ReleaseNotes.js";

/**
 * The changelog overlay (rule 8): a modal with the config's overlay copy and the newest releases,
 * shown once per release with `onlyIfUnseen`, marking the release seen on close.
 *
 * @example
 * ```tsx
 * <ChangelogOverlay onlyIfUnseen />
 * ```
 */
export function ChangelogOverlay(props: UseChangelogOverlayOptions & { onClose?: (() => void) | undefined }) {
  const { t } = useTidings();
  const overlay = useChangelogOverlay(props);
  if (!overlay.visible || overlay.data === null) return null;
  const copy = overlay.data.appearance?.changelogOverlay ?? {};
  const close = () => {
    void overlay.close();
    props.onClose?.();
  };
  return (
    <Modal title={copy.title || t("overlay.title")} subtitle={copy.subtitle || undefined} onClose={close} className="td-overlay">
      <div className="td-overlay-body">
        {overlay.data.entries.map((entry) => (
          <ReleaseNotes key={entry.id} entry={entry as ChangelogRelease} />
        ))}
      </div>
      <div className="td-actions">
        <button type="button" className="td-button td-primary" onClick={close}>
          {copy.primaryButton || t("overlay.continue")}
        </button>
      </div>
    </Modal>
  );
}
