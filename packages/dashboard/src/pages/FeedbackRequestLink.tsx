import type { AdminFeatureRequest, SubmissionRecord } from "@tidings/protocol";
import { useState } from "react";
import { api } from "../api.js";
import { SearchForm, SearchInput, useSearch } from "../components/SearchForm.js";
import { useLoad } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { navigate } from "../router.js";

const PICKS = 10;

/** The requests a feedback can be linked to: approved ones of its app matching `q`, most voted first. */
export function linkableRequestsPath(wsId: string, appId: string, q: string): string {
  const params = new URLSearchParams({ appId, moderation: "approved", sort: "votes", limit: String(PICKS) });
  if (q !== "") params.set("q", q);
  return `/workspaces/${wsId}/feature-requests?${params.toString()}`;
}

/**
 * A feedback's link to a feature request: the request it is evidence for (open it, unlink it), or
 * "Link to request" (search and pick one) and "Turn into request".
 */
export function FeedbackRequestLink(props: {
  wsId: string;
  submission: Pick<SubmissionRecord, "submissionId" | "appId" | "featureRequest">;
  act: (work: () => Promise<unknown>, message?: string) => Promise<boolean>;
}) {
  const { submission } = props;
  const path = `/workspaces/${props.wsId}/submissions/${submission.submissionId}/feature-request`;
  const [picking, setPicking] = useState(false);
  const search = useSearch();
  const candidates = useLoad(
    () => (picking ? api<{ requests: AdminFeatureRequest[] }>("GET", linkableRequestsPath(props.wsId, submission.appId, search.query)) : Promise.resolve({ requests: [] })),
    [picking, search.query, submission.appId],
  );
  const linked = submission.featureRequest;

  if (linked !== null) {
    const href = `/admin/w/${props.wsId}/a/${submission.appId}/requests/${linked.featureRequestId}`;
    return (
      <p data-testid="feedback-request">
        {t("feedback.linkedTo")}{" "}
        <a href={href} onClick={(e) => (e.preventDefault(), navigate(href))}>
          {linked.title}
        </a>{" "}
        <button type="button" onClick={() => void props.act(() => api("DELETE", path), t("evidence.unlinked"))}>
          {t("evidence.unlink")}
        </button>
      </p>
    );
  }
  return (
    <div data-testid="feedback-request">
      <div className="inline-form">
        <button type="button" aria-expanded={picking} onClick={() => setPicking(!picking)}>
          {t("feedback.linkToRequest")}
        </button>
        <button type="button" onClick={() => void props.act(() => api("POST", path, {}), t("feedback.turnedIntoRequest"))}>
          {t("feedback.turnIntoRequest")}
        </button>
      </div>
      {picking ? (
        <>
          <SearchForm onSearch={search.submit}>
            <SearchInput value={search.text} onChange={search.setText} />
          </SearchForm>
          <ul className="rows" aria-label={t("feedback.pickRequest")}>
            {(candidates.data?.requests ?? []).map((r) => (
              <li key={r.id} className="row">
                <span className="row-main">
                  {r.title} <small>{t("requests.votes", { count: r.voteCount })}</small>
                </span>
                <button
                  type="button"
                  aria-label={t("feedback.linkTo", { title: r.title })}
                  onClick={() => void props.act(() => api("PUT", path, { featureRequestId: r.id }), t("feedback.linked")).then((ok) => ok && setPicking(false))}
                >
                  {t("feedback.link")}
                </button>
              </li>
            ))}
          </ul>
          {candidates.data?.requests.length === 0 ? <p className="empty">{t("feedback.noLinkable")}</p> : null}
        </>
      ) : null}
    </div>
  );
}
