import { type AdminChangelogEntry, type AdminFeatureRequest, textLength } from "@tidings/protocol";
import { useEffect, useState, type FormEvent } from "react";
import { api, ApiFailure } from "../api.js";
import { draftKey, editable, EMPTY, fromLocalInput, storedDraft, type Draft } from "../changelog-draft.js";
import { ListStatus } from "../components/ListStatus.js";
import { Select } from "../components/Select.js";
import { useSegmentChoices } from "../components/useSegments.js";
import { describedBy, ErrorBanner, Field, Notice, Pager, useLoad } from "../components/ui.js";
import { t } from "../i18n/t.js";
import type { FieldErrors } from "../settings-form.js";
import { ChangelogEntries } from "./ChangelogEntries.js";
import { ChangelogPreview, useLivePreview } from "./ChangelogPreview.js";
import { LinkedRequestsPicker } from "./LinkedRequestsPicker.js";

const PAGE = 20;
const PROGRESS_POLL_MS = 2000;

/** Releases of an app: list with mail progress, and an editor that saves drafts and publishes. */
export function Changelog(props: { wsId: string; appId: string }) {
  const base = `/workspaces/${props.wsId}/changelog`;
  const [offset, setOffset] = useState(0);
  const list = useLoad(() => api<{ entries: AdminChangelogEntry[]; total: number }>("GET", `${base}?appId=${props.appId}&limit=${PAGE}&offset=${offset}`), [props.wsId, props.appId, offset]);
  const requests = useLoad(
    () => api<{ requests: AdminFeatureRequest[] }>("GET", `/workspaces/${props.wsId}/feature-requests?appId=${props.appId}&limit=200`),
    [props.wsId, props.appId],
  );
  const segments = useSegmentChoices(props.wsId, props.appId, t("changelog.emailEveryone"));
  const [draft, setDraft] = useState<Draft>(() => storedDraft(props.appId));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    window.sessionStorage.setItem(draftKey(props.appId), JSON.stringify(draft));
  }, [draft, props.appId]);
  const { preview, setPreview } = useLivePreview(props.wsId, draft.body);

  const save = async (publish: boolean, event?: FormEvent) => {
    event?.preventDefault();
    setFailure(null);
    setNotice(null);
    const local: FieldErrors = {};
    if (draft.title.trim() === "") local.title = [t("validation.required")];
    if (textLength(draft.title) > 200) local.title = [t("validation.tooLong", { max: 200 })];
    if (textLength(draft.versionLabel) > 64) local.versionLabel = [t("validation.tooLong", { max: 64 })];
    const scheduledAt = publish ? null : fromLocalInput(draft.scheduledAt);
    if (!publish && draft.scheduledAt.trim() !== "" && scheduledAt === null) local.scheduledAt = [t("changelog.invalidSchedule")];
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    const body = {
      title: draft.title.trim(),
      body: draft.body,
      versionLabel: draft.versionLabel.trim() === "" ? null : draft.versionLabel.trim(),
      linkedRequestIds: draft.linkedRequestIds,
      // An empty schedule unschedules (back to draft); publishing now ignores it.
      scheduledAt,
      emailSegmentId: draft.emailSegmentId === "" ? null : draft.emailSegmentId,
    };
    try {
      let entry =
        draft.id === null
          ? await api<AdminChangelogEntry>("POST", base, { appId: props.appId, ...body })
          : await api<AdminChangelogEntry>("PUT", `${base}/${draft.id}`, body);
      if (publish) entry = await api<AdminChangelogEntry>("POST", `${base}/${entry.id}/publish`);
      setPreview(entry.html);
      setDraft(publish ? EMPTY : editable(entry));
      setNotice(publish ? t("changelog.published") : entry.status === "scheduled" ? t("changelog.scheduledNotice") : t("common.saved"));
      list.reload();
    } catch (error) {
      if (error instanceof ApiFailure) setErrors({ ...error.fieldErrors });
      setFailure(error);
    }
  };
  const entries = list.data?.entries ?? [];
  // While subscriber mail is still going out, the list refreshes itself to show the progress.
  const sending = entries.some((e) => e.status === "published" && e.delivery.pending > 0);
  useEffect(() => {
    if (!sending) return;
    const timer = window.setTimeout(list.reload, PROGRESS_POLL_MS);
    return () => window.clearTimeout(timer);
  }, [sending, list.data]);

  return (
    <section aria-labelledby="changelog-title">
      <h1 id="changelog-title">{t("changelog.title")}</h1>
      <form className="settings" onSubmit={(e) => void save(false, e)} noValidate aria-label={t("changelog.editor")}>
        <Field id="cl-title" label={t("changelog.entryTitle")} errors={errors.title}>
          <input id="cl-title" value={draft.title} onChange={(e) => setDraft({ ...draft, title: e.target.value })} {...describedBy("cl-title", errors.title)} />
        </Field>
        <Field id="cl-version" label={t("changelog.version")} errors={errors.versionLabel}>
          <input id="cl-version" value={draft.versionLabel} onChange={(e) => setDraft({ ...draft, versionLabel: e.target.value })} />
        </Field>
        <Field id="cl-body" label={t("changelog.body")} errors={errors.body} hint={t("changelog.markdownHint")}>
          <textarea id="cl-body" rows={10} value={draft.body} onChange={(e) => setDraft({ ...draft, body: e.target.value })} />
        </Field>
        <Field id="cl-schedule" label={t("changelog.scheduleAt")} errors={errors.scheduledAt} hint={t("changelog.scheduleHint")}>
          <input
            id="cl-schedule"
            type="datetime-local"
            value={draft.scheduledAt}
            onChange={(e) => setDraft({ ...draft, scheduledAt: e.target.value })}
            {...describedBy("cl-schedule", errors.scheduledAt)}
          />
        </Field>
        <Field id="cl-segment" label={t("changelog.emailSegment")} errors={errors.emailSegmentId}>
          <Select id="cl-segment" value={draft.emailSegmentId} choices={segments.choices} onChange={(emailSegmentId) => setDraft({ ...draft, emailSegmentId })} {...describedBy("cl-segment", errors.emailSegmentId)} />
        </Field>
        <LinkedRequestsPicker requests={requests} selected={draft.linkedRequestIds} errors={errors.linkedRequestIds} onChange={(linkedRequestIds) => setDraft({ ...draft, linkedRequestIds })} />
        <ErrorBanner error={failure} />
        {notice === null ? null : <Notice>{notice}</Notice>}
        <div className="inline-form">
          <button type="submit">{draft.scheduledAt.trim() === "" ? t("changelog.saveDraft") : t("changelog.saveScheduled")}</button>
          <button type="button" className="primary" onClick={() => void save(true)}>
            {t("changelog.publish")}
          </button>
          {draft.id === null && draft.title === "" && draft.body === "" ? null : (
            <button type="button" onClick={() => (setDraft(EMPTY), setPreview(null))}>
              {t("common.cancel")}
            </button>
          )}
        </div>
      </form>
      <ChangelogPreview preview={preview} />
      <h2>{t("changelog.entries")}</h2>
      <ErrorBanner error={list.error} onRetry={list.reload} />
      <ListStatus list={list} count={entries.length} empty={t("changelog.empty")} />
      <ChangelogEntries entries={entries} onEdit={(entry) => (setDraft(editable(entry)), setPreview(entry.html))} />
      <Pager offset={offset} limit={PAGE} total={list.data?.total ?? 0} onChange={setOffset} />
    </section>
  );
}
