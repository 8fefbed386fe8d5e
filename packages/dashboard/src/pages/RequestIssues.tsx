import type { GithubIssueLink, LinearIssueLink } from "@tidings/protocol";
import { useState, type FormEvent } from "react";
import { api } from "../api.js";
import { optional } from "../components/optional.js";
import { ErrorBanner, Notice, useLoad } from "../components/ui.js";
import { useAction } from "../components/useAction.js";
import { t } from "../i18n/t.js";
import { navigate } from "../router.js";

/** What the request page shows of one tracker's issue, whichever the tracker. */
interface IssueView {
  name: string;
  url: string;
  title: string;
  state: string | null;
  lastSyncedAt: string | null;
  syncError: string | null;
}

interface Tracker {
  id: "github" | "linear";
  label: string;
  /** The placeholder of the "link an existing issue" box. */
  example: string;
  /** Its link as the page shows it; `never` lets each tracker take its own link type (read as `never` below). */
  view: (link: never) => IssueView;
}

const TRACKERS: readonly Tracker[] = [
  {
    id: "github",
    label: "GitHub",
    example: "42 or https://github.com/acme/notes/issues/42",
    view: (l: GithubIssueLink) => ({ name: `${l.repository}#${l.issueNumber}`, url: l.issueUrl, title: l.issueTitle, state: l.issueState, lastSyncedAt: l.lastSyncedAt, syncError: l.syncError }),
  },
  {
    id: "linear",
    label: "Linear",
    example: "ENG-123",
    view: (l: LinearIssueLink) => ({ name: l.issueIdentifier, url: l.issueUrl, title: l.issueTitle, state: l.issueState, lastSyncedAt: l.lastSyncedAt, syncError: l.syncError }),
  },
];

/** The request's issues in the app's trackers: each one's link and sync, or create one, or link one by number or URL. */
export function RequestIssues(props: { wsId: string; appId: string; requestId: string }) {
  return (
    <>
      {TRACKERS.map((tracker) => (
        <TrackerIssue key={tracker.id} tracker={tracker} {...props} />
      ))}
    </>
  );
}

function TrackerIssue(props: { tracker: Tracker; wsId: string; appId: string; requestId: string }) {
  const { tracker } = props;
  const path = `/workspaces/${props.wsId}/feature-requests/${props.requestId}/${tracker.id}`;
  const connected = useLoad(() => optional(api("GET", `/workspaces/${props.wsId}/apps/${props.appId}/${tracker.id}`), [`${tracker.id}_not_connected`]), [props.appId]);
  const link = useLoad(() => optional(api<never>("GET", path), [`${tracker.id}_link_not_found`, `${tracker.id}_not_connected`]), [path]);
  const { failure, notice, run } = useAction(link.reload);
  const [issue, setIssue] = useState("");
  const settings = `/admin/w/${props.wsId}/a/${props.appId}/integrations`;

  if (connected.data === null) {
    return (
      <p className="hint" data-testid={`${tracker.id}-issue`}>
        {t("issues.notConnected", { tracker: tracker.label })}{" "}
        <a href={settings} onClick={(e) => (e.preventDefault(), navigate(settings))}>
          {t("nav.integrations")}
        </a>
      </p>
    );
  }
  const linkExisting = async (event: FormEvent) => {
    event.preventDefault();
    if (await run(() => api("PUT", path, { issue: issue.trim() }), t("issues.linked"))) setIssue("");
  };
  const current = link.data === undefined || link.data === null ? null : tracker.view(link.data);

  return (
    <div data-testid={`${tracker.id}-issue`}>
      <h3>{tracker.label}</h3>
      {notice === null ? null : <Notice>{notice}</Notice>}
      <ErrorBanner error={link.error ?? connected.error ?? failure} />
      {current === null ? (
        link.data === null ? (
          <>
            <button type="button" onClick={() => void run(() => api("POST", `${path}/issue`, {}), t("issues.created"))}>
              {t("issues.create", { tracker: tracker.label })}
            </button>
            <form className="inline-form" onSubmit={(e) => void linkExisting(e)}>
              <label>
                {t("issues.linkExisting", { tracker: tracker.label })} <input value={issue} required placeholder={tracker.example} onChange={(e) => setIssue(e.target.value)} />
              </label>
              <button type="submit">{t("issues.link")}</button>
            </form>
          </>
        ) : null
      ) : (
        <p>
          <a href={current.url} target="_blank" rel="noreferrer">
            {current.name} {current.title}
          </a>{" "}
          <small>
            {current.state ?? "—"} · {current.lastSyncedAt === null ? t("issues.notSynced") : t("issues.synced", { date: new Date(current.lastSyncedAt).toLocaleString() })}
            {current.syncError === null ? "" : ` · ${t("issues.syncError", { reason: current.syncError })}`}
          </small>{" "}
          <button type="button" onClick={() => void run(() => api("DELETE", path), t("issues.unlinked"))}>
            {t("issues.unlink")}
          </button>
        </p>
      )}
    </div>
  );
}
