import { type AppVersion, textLength } from "@tidings/protocol";
import { useState, type FormEvent } from "react";
import { api, ApiFailure } from "../api.js";
import { ListStatus } from "../components/ListStatus.js";
import { useAction } from "../components/useAction.js";
import { ConfirmButton, describedBy, ErrorBanner, Field, FormActions, Notice, Pager, useLoad } from "../components/ui.js";
import { t } from "../i18n/t.js";
import type { FieldErrors } from "../settings-form.js";

const PAGE = 20;

/** Checks a version form before sending; answers field errors. */
export function validateVersion(label: string, description: string): FieldErrors {
  const errors: FieldErrors = {};
  if (label.trim() === "") errors.label = [t("validation.required")];
  else if (textLength(label.trim()) > 60) errors.label = [t("validation.tooLong", { max: 60 })];
  if (textLength(description) > 2000) errors.description = [t("validation.tooLong", { max: 2000 })];
  return errors;
}

function VersionForm(props: { idPrefix: string; initial?: AppVersion; submitLabel: string; onSubmit: (label: string, description: string | null) => Promise<void>; onCancel?: () => void }) {
  const [label, setLabel] = useState(props.initial?.label ?? "");
  const [description, setDescription] = useState(props.initial?.description ?? "");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<unknown>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const local = validateVersion(label, description);
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    try {
      await props.onSubmit(label.trim(), description.trim() === "" ? null : description.trim());
      if (props.initial === undefined) {
        setLabel("");
        setDescription("");
      }
    } catch (error) {
      if (error instanceof ApiFailure) setErrors({ ...error.fieldErrors });
      setFailure(error);
    }
  };
  const id = props.idPrefix;
  return (
    <form className="settings" onSubmit={(e) => void submit(e)} noValidate>
      <Field id={`${id}-label`} label={t("versions.label")} errors={errors.label}>
        <input id={`${id}-label`} value={label} onChange={(e) => setLabel(e.target.value)} {...describedBy(`${id}-label`, errors.label)} />
      </Field>
      <Field id={`${id}-description`} label={t("versions.description")} errors={errors.description}>
        <textarea id={`${id}-description`} rows={2} value={description} onChange={(e) => setDescription(e.target.value)} {...describedBy(`${id}-description`, errors.description)} />
      </Field>
      <FormActions failure={failure} submitLabel={props.submitLabel} onCancel={props.onCancel} />
    </form>
  );
}

/** Release versions of an app: create, edit, release or unrelease, delete. */
export function Versions(props: { wsId: string; appId: string; canConfigure: boolean }) {
  const list = useLoad(() => api<{ versions: AppVersion[] }>("GET", `/workspaces/${props.wsId}/apps/${props.appId}/versions`), [props.wsId, props.appId]);
  const [editing, setEditing] = useState<string | null>(null);
  const [offset, setOffset] = useState(0);
  const action = useAction(list.reload);
  const { failure, notice, setNotice } = action;
  const run = (work: () => Promise<unknown>) => action.run(work, t("common.saved"));
  const versions = list.data?.versions ?? [];

  return (
    <section aria-labelledby="versions-title">
      <h1 id="versions-title">{t("versions.title")}</h1>
      {props.canConfigure ? (
        <VersionForm
          idPrefix="new-version"
          submitLabel={t("versions.create")}
          onSubmit={async (label, description) => {
            await api("POST", `/workspaces/${props.wsId}/apps/${props.appId}/versions`, { label, description });
            setNotice(t("common.saved"));
            list.reload();
          }}
        />
      ) : null}
      {notice === null ? null : <Notice>{notice}</Notice>}
      <ErrorBanner error={list.error ?? failure} onRetry={list.reload} />
      <ListStatus list={list} count={versions.length} empty={t("versions.empty")} showLoading />
      <ul className="rows">
        {versions.slice(offset, offset + PAGE).map((v) => (
          <li key={v.id} className="row" data-testid="version-row">
            {editing === v.id ? (
              <div className="row-main">
                <VersionForm
                  idPrefix={`edit-${v.id}`}
                  initial={v}
                  submitLabel={t("common.save")}
                  onCancel={() => setEditing(null)}
                  onSubmit={async (label, description) => {
                    await api("PUT", `/workspaces/${props.wsId}/versions/${v.id}`, { label, description });
                    setEditing(null);
                    setNotice(t("common.saved"));
                    list.reload();
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
                    <button type="button" aria-label={t("versions.editOf", { label: v.label })} onClick={() => setEditing(v.id)}>
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
        ))}
      </ul>
      <Pager offset={offset} limit={PAGE} total={versions.length} onChange={setOffset} />
    </section>
  );
}
