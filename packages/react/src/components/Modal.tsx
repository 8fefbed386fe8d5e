import { useEffect, useId, useRef, type ReactNode } from "react";
import { useTidings } from "@tidings/react-core";

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * An accessible modal dialog: labelled, focus trapped inside while open, Escape and the backdrop
 * close it, and focus returns to where it was.
 *
 * @example
 * ```tsx
 * <Modal title="What's new" onClose={close}>…</Modal>
 * ```
 */
export function Modal(props: { title: string; subtitle?: string | undefined; onClose: () => void; children?: ReactNode; className?: string }) {
  const { theme, locale, t } = useTidings();
  const dialog = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const onClose = useRef(props.onClose);
  onClose.current = props.onClose;

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const node = dialog.current;
    const first = node?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? node)?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.preventDefault();
        onClose.current();
        return;
      }
      if (event.key !== "Tab" || node === null) return;
      const items = [...node.querySelectorAll<HTMLElement>(FOCUSABLE)];
      if (items.length === 0) {
        event.preventDefault();
        return;
      }
      const head = items[0]!;
      const tail = items[items.length - 1]!;
      if (event.shiftKey && (document.activeElement === head || !node.contains(document.activeElement))) {
        event.preventDefault();
        tail.focus();
      } else if (!event.shiftKey && (document.activeElement === tail || !node.contains(document.activeElement))) {
        event.preventDefault();
        head.focus();
      }
    };
    document.addEventListener("keydown", onKey, true);
    return () => {
      document.removeEventListener("keydown", onKey, true);
      previous?.focus();
    };
  }, []);

  return (
    <div className="tidings td-backdrop" data-theme={theme} lang={locale} onMouseDown={(e) => e.target === e.currentTarget && props.onClose()}>
      <div ref={dialog} role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1} className={`td-dialog ${props.className ?? ""}`}>
        <header className="td-dialog-header">
          <div>
            <h2 id={titleId}>{props.title}</h2>
            {props.subtitle ? <p className="td-muted">{props.subtitle}</p> : null}
          </div>
          <button type="button" className="td-icon-button" aria-label={t("common.close")} onClick={props.onClose}>
            ×
          </button>
        </header>
        {props.children}
      </div>
    </div>
  );
}
