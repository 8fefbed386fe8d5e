import type { AppVersion } from "@tidings/protocol";
import { api } from "../api.js";
import { ConfirmButton } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { VersionForm } from "./VersionForm.js";

/** One version's line: its label, release date and description with release, edit and delete, or its form while it is being edited. */
export function VersionRow(props: {
  wsId: string;
  version: AppVersion;
  editing: boolean;
  canConfigure: boolean;
  onEditing: (versionId: string | null) => void;
  onSaved: () => void;
  run: (work: () => Promise<unknown>) => Promise<boolean>;
}) {
  const { version: v, run } = props;
  return (
    <li className="row" data-testid="version-row">
      {props.editing ? (
        <div className="row-main">
          <VersionForm
            idPrefix={`edit-${v.id}`}
            initial={v}
            submitLabel={t("common.save")}
            onCancel={() => props.onEditing(null)}
            onSubmit={async (label, description) => {
              await api("PUT", `/workspaces/${props.wsId}/versions/${v.id}`, { label, description });
              props.onEditing(null);
              props.onSaved();
            }}
          />
        </div>
      ) : (
        <>
          <div className="row-main">
            <strong>{v.label}</strong>
            <small>{v.released ? t("versions.released", { date: v.releasedAt === null ? "" : new Date(v.releasedAt).toLocaleDateString() }) : t("versions.unreleased")}</small>
            {v.description === null ? null : <p>{v.description}</p>}
          </div>
          {props.canConfigure ? (
            <div className="row-actions">
              <button type="button" onClick={() => void run(() => api("PUT", `/workspaces/${props.wsId}/versions/${v.id}`, { released: !v.released, ...(v.released ? { releasedAt: null } : {}) }))}>
                {v.released ? t("versions.unrelease") : t("versions.release")}
              </button>
              <button type="button" aria-label={t("versions.editOf", { label: v.label })} onClick={() => props.onEditing(v.id)}>
                {t("common.edit")}
              </button>
              <ConfirmButton label={t("versions.deleteOf", { label: v.label })} question={t("common.confirmDelete", { name: v.label })} onConfirm={() => void run(() => api("DELETE", `/workspaces/${props.wsId}/versions/${v.id}`))}>
                {t("common.delete")}
              </ConfirmButton>
            </div>
          ) : null}
        </>
      )}
    </li>
  );
}
