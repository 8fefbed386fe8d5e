import { type AdminChangelogEntry, type AdminFeatureRequest, textLength } from "@tidings/protocol";
import { useEffect, useState, type FormEvent } from "react";
import { api, ApiFailure } from "../api.js";
import { ListStatus } from "../components/ListStatus.js";
import { Select } from "../components/Select.js";
import { useSegmentChoices } from "../components/useSegments.js";
import { describedBy, Empty, ErrorBanner, Field, Notice, Pager, useLoad } from "../components/ui.js";
import { t } from "../i18n/t.js";
import type { FieldErrors } from "../settings-form.js";

const PAGE = 20;
const PREVIEW_DELAY_MS = 300;
const PROGRESS_POLL_MS = 2000;

interface Draft {
  id: string | null;
  title: string;
  versionLabel: string;
  body: string;
  /** Feature requests this release delivers. */
  linkedRequestIds: string[];
  /** When to publish, as a `datetime-local` value (local time); empty for no schedule. */
  scheduledAt: string;
  /** The segment whose subscribers alone are mailed the release; empty for every subscriber. */
  emailSegmentId: string;
}

const EMPTY: Draft = { id: null, title: "", versionLabel: "", body: "", linkedRequestIds: [], scheduledAt: "", emailSegmentId: "" };

/** An ISO time as a `datetime-local` value in the browser's time zone ("" for none). */
export function toLocalInput(iso: string | null): string {
  if (iso === null) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A `datetime-local` value (local time) as an ISO time; null when empty or unreadable. */
export function fromLocalInput(value: string): string | null {
  if (value.trim() === "") return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

const editable = (entry: AdminChangelogEntry): Draft => ({
  id: entry.id,
  title: entry.title,
  versionLabel: entry.versionLabel ?? "",
  body: entry.body,
  linkedRequestIds: [...entry.linkedRequestIds],
  scheduledAt: toLocalInput(entry.scheduledAt),
  emailSegmentId: entry.emailSegmentId ?? "",
});
// The unsaved draft survives a lost session (the signed-in shell unmounts) in this tab's session storage.
const draftKey = (appId: string) => `tidings.dashboard.changelog-draft.${appId}`;

function storedDraft(appId: string): Draft {
  try {
    const raw = window.sessionStorage.getItem(draftKey(appId));
    return raw === null ? EMPTY : { ...EMPTY, ...(JSON.parse(raw) as Partial<Draft>) };
  } catch {
    return EMPTY;
  }
}

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
  const [preview, setPreview] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    window.sessionStorage.setItem(draftKey(props.appId), JSON.stringify(draft));
  }, [draft, props.appId]);
  // Live preview: the server renders and sanitises the Markdown (the same renderer as the published
  // release), 300 ms after the last keystroke; an older answer never overwrites a newer one.
  useEffect(() => {
    if (draft.body.trim() === "") {
      setPreview(null);
      return;
    }
    let live = true;
    const timer = window.setTimeout(() => {
      api<{ html: string }>("POST", `/workspaces/${props.wsId}/changelog/preview`, { body: draft.body }).then(
        (answer) => live && setPreview(answer.html),
        () => undefined,
      );
    }, PREVIEW_DELAY_MS);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [draft.body, props.wsId]);

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
        <fieldset className="field">
          <legend>{t("changelog.linkedRequests")}</legend>
          <ErrorBanner error={requests.error} onRetry={requests.reload} />
          <ListStatus list={requests} count={requests.data?.requests.length ?? 0} empty={t("changelog.noRequests")} />
          {(requests.data?.requests ?? []).map((request) => (
            <label key={request.id} className="check">
              <input
                type="checkbox"
                checked={draft.linkedRequestIds.includes(request.id)}
                onChange={(e) =>
                  setDraft({
                    ...draft,
                    linkedRequestIds: e.target.checked ? [...draft.linkedRequestIds, request.id] : draft.linkedRequestIds.filter((id) => id !== request.id),
                  })
                }
              />{" "}
              {request.title}
            </label>
          ))}
          {errors.linkedRequestIds === undefined ? null : <small className="field-error" role="alert">{errors.linkedRequestIds.join(" ")}</small>}
        </fieldset>
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
      <h2 id="cl-preview-title">{t("changelog.livePreview")}</h2>
      {preview === null ? (
        <Empty>{t("changelog.previewEmpty")}</Empty>
      ) : (
        // The server renders Markdown and sanitises the HTML; the page's CSP forbids inline script anyway.
        <div className="card markdown" data-testid="changelog-preview" aria-labelledby="cl-preview-title" aria-live="polite" dangerouslySetInnerHTML={{ __html: preview }} />
      )}
      <h2>{t("changelog.entries")}</h2>
      <ErrorBanner error={list.error} onRetry={list.reload} />
      <ListStatus list={list} count={entries.length} empty={t("changelog.empty")} />
      <ul className="rows">
        {entries.map((entry) => (
          <li key={entry.id} className="row">
            <div className="row-main">
              <strong>{entry.title}</strong>
              <small>
                {t(`changelog.status.${entry.status}`)}
                {entry.status === "scheduled" && entry.scheduledAt !== null ? ` ${t("changelog.scheduledFor", { when: new Date(entry.scheduledAt).toLocaleString() })}` : ""}
                {entry.versionLabel === null ? "" : ` · ${entry.versionLabel}`}
                {entry.status === "published" ? ` · ${t("changelog.delivery", { sent: entry.delivery.sent, total: entry.delivery.total, failed: entry.delivery.failed })}` : ""}
              </small>
              {entry.status === "published" && entry.delivery.total > 0 ? (
                <progress aria-label={t("changelog.progress", { title: entry.title })} max={entry.delivery.total} value={entry.delivery.sent + entry.delivery.failed} />
              ) : null}
              {entry.linkedRequests.length === 0 ? null : (
                <small>
                  {t("changelog.links")}: {entry.linkedRequests.map((r) => r.title).join(", ")}
                </small>
              )}
              {entry.delivery.lastError === null ? null : <small className="field-error">{entry.delivery.lastError}</small>}
            </div>
            {entry.status === "published" ? null : (
              <button type="button" onClick={() => (setDraft(editable(entry)), setPreview(entry.html))}>
                {t("changelog.edit")}
              </button>
            )}
          </li>
        ))}
      </ul>
      <Pager offset={offset} limit={PAGE} total={list.data?.total ?? 0} onChange={setOffset} />
    </section>
  );
}
