import type { DuplicateList, DuplicatePair, DuplicateRequest } from "@tidings/protocol";
import { useCallback, useEffect, useState } from "react";
import { api } from "../api.js";
import { useAction } from "../components/useAction.js";
import { Empty, ErrorBanner, Notice } from "../components/ui.js";
import { t } from "../i18n/t.js";
import { navigate } from "../router.js";

type Side = "newer" | "older";

/** The side a merge keeps unless the team picks the other: the one with more votes, else the older. */
export function suggestedKeep(pair: Pick<DuplicatePair, "newer" | "older">): Side {
  return pair.newer.voteCount > pair.older.voteCount ? "newer" : "older";
}

/** The body of the queue's merge: the side not kept goes into the side kept. */
export function mergeBody(pair: Pick<DuplicatePair, "newer" | "older">, keep: Side): { duplicateId: string; intoId: string } {
  const [into, duplicate] = keep === "newer" ? [pair.newer, pair.older] : [pair.older, pair.newer];
  return { duplicateId: duplicate.id, intoId: into.id };
}

const keyOf = (pair: DuplicatePair) => `${pair.newer.id} ${pair.older.id}`;

function RequestSide(props: { wsId: string; appId: string; request: DuplicateRequest; name: string; kept: boolean; onKeep: () => void }) {
  const r = props.request;
  const href = `/admin/w/${props.wsId}/a/${props.appId}/requests/${r.id}`;
  return (
    <div className="row-main">
      <label className="check">
        <input type="radio" name={props.name} checked={props.kept} onChange={props.onKeep} /> {t("duplicates.keep")}
      </label>
      <a href={href} aria-label={t("detail.open", { title: r.title })} onClick={(e) => (e.preventDefault(), navigate(href))}>
        <strong>{r.title}</strong>
      </a>
      <small>
        {r.boardName} · {t("requests.votes", { count: r.voteCount })} · {r.columnName ?? "—"}
        {r.moderation === "approved" ? "" : ` · ${t(`duplicates.moderation.${r.moderation}`)}`} · {new Date(r.createdAt).toLocaleDateString()}
      </small>
    </div>
  );
}

/** The duplicates queue of an app: likely duplicate pairs, newest first, to merge or to set aside. */
export function Duplicates(props: { wsId: string; appId: string }) {
  const base = `/workspaces/${props.wsId}/apps/${props.appId}/duplicates`;
  const [pairs, setPairs] = useState<DuplicatePair[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [loadFailure, setLoadFailure] = useState<unknown>(null);
  const [keep, setKeep] = useState<ReadonlyMap<string, Side>>(new Map());

  /** The first page (`cursor` absent), or the page after the ones shown. */
  const load = useCallback(
    async (cursor?: string) => {
      setLoadFailure(null);
      try {
        const page = await api<DuplicateList>("GET", `${base}?limit=20${cursor === undefined ? "" : `&cursor=${encodeURIComponent(cursor)}`}`);
        setPairs((shown) => (cursor === undefined ? page.pairs : [...shown, ...page.pairs]));
        setNext(page.nextCursor);
      } catch (error) {
        setLoadFailure(error);
      }
      setLoaded(true);
    },
    [base],
  );
  useEffect(() => void load(), [load]);
  // After an action the queue is read again from the top: a merge can take other pairs with it.
  const action = useAction(() => void load());

  const kept = (pair: DuplicatePair) => keep.get(keyOf(pair)) ?? suggestedKeep(pair);
  const merge = (pair: DuplicatePair) => {
    const side = kept(pair);
    const [into, from] = side === "newer" ? [pair.newer, pair.older] : [pair.older, pair.newer];
    if (!window.confirm(t("duplicates.mergeConfirm", { from: from.title, into: into.title }))) return;
    void action.run(() => api("POST", `${base}/merge`, mergeBody(pair, side)), t("duplicates.merged", { from: from.title, into: into.title }));
  };
  const dismiss = (pair: DuplicatePair) => void action.run(() => api("POST", `${base}/dismiss`, { requestIds: [pair.newer.id, pair.older.id] }), t("duplicates.dismissed"));

  return (
    <section aria-labelledby="duplicates-title">
      <h1 id="duplicates-title">{t("duplicates.title")}</h1>
      <p className="hint">{t("duplicates.intro")}</p>
      {action.notice === null ? null : <Notice>{action.notice}</Notice>}
      <ErrorBanner error={loadFailure ?? action.failure} onRetry={() => void load()} />
      {!loaded ? <p>{t("common.loading")}</p> : null}
      {loaded && pairs.length === 0 && loadFailure === null ? <Empty>{next === null ? t("duplicates.empty") : t("duplicates.emptySoFar")}</Empty> : null}
      <ul className="rows">
        {pairs.map((pair) => (
          <li key={keyOf(pair)} className="card" data-testid="duplicate-pair" aria-label={t("duplicates.pair", { newer: pair.newer.title, older: pair.older.title })}>
            <p>
              <strong>{t("duplicates.alike", { percent: Math.round(pair.score * 100) })}</strong>
            </p>
            <div className="split">
              {(["newer", "older"] as const).map((side) => (
                <RequestSide
                  key={side}
                  wsId={props.wsId}
                  appId={props.appId}
                  request={pair[side]}
                  name={`keep-${keyOf(pair)}`}
                  kept={kept(pair) === side}
                  onKeep={() => setKeep(new Map(keep).set(keyOf(pair), side))}
                />
              ))}
            </div>
            <div className="row-actions">
              <button type="button" className="primary" onClick={() => merge(pair)}>
                {t("duplicates.merge")}
              </button>
              <button type="button" onClick={() => dismiss(pair)}>
                {t("duplicates.dismiss")}
              </button>
            </div>
          </li>
        ))}
      </ul>
      {next === null ? null : (
        <button type="button" onClick={() => void load(next)}>
          {pairs.length === 0 ? t("duplicates.lookFurther") : t("common.loadMore")}
        </button>
      )}
    </section>
  );
}
