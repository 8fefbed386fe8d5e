import type { FeatureRequestItem } from "@tidings/client";
import { useState } from "react";
import { useTidings, useComments, type ToggleVote } from "@tidings/react-core";
import { FollowRequest } from "./FollowRequest.js";
import { ErrorState, Loading } from "./States.js";
import { TagChips } from "./Tags.js";
import { VoteButton } from "./VoteButton.js";
import { CommentForm } from "./CommentForm.js";
import { CommentView } from "./CommentView.js";

/**
 * One request with its vote, tags, description and threaded comments (replies are flat rows with
 * `parentId`, shown under their parent).
 *
 * @example
 * ```tsx
 * <FeatureRequestDetail item={item} votes={votes} onBack={() => setOpen(null)} />
 * ```
 */
export function FeatureRequestDetail(props: {
  item: FeatureRequestItem;
  votes: ToggleVote;
  onBack?: (() => void) | undefined;
  onChange?: ((patch: Partial<FeatureRequestItem>) => void) | undefined;
  /** Makes comment authors' names buttons opening their public profile. */
  onOpenProfile?: ((userId: string, name?: string) => void) | undefined;
}) {
  const { t } = useTidings();
  const { item } = props;
  const comments = useComments(item.id);
  const [replyingTo, setReplyingTo] = useState<string | null>(null);
  const top = comments.comments.filter((c) => !c.parentId || !comments.comments.some((p) => p.id === c.parentId));
  const repliesOf = (id: string) => comments.comments.filter((c) => c.parentId === id);
  const post = async (body: string, parentId?: string) => {
    const ok = await comments.post({ body, parentId });
    if (ok) {
      props.onChange?.({ commentCount: comments.comments.length + 1 });
      setReplyingTo(null);
    }
    return ok;
  };
  return (
    <article className="td-detail">
      {props.onBack ? (
        <button type="button" className="td-link" onClick={props.onBack}>
          ← {t("common.back")}
        </button>
      ) : null}
      <header className="td-detail-head">
        <VoteButton item={item} votes={props.votes} />
        <div>
          <h2>{item.title}</h2>
          <div className="td-badges">
            {!item.approved ? <span className="td-badge td-badge-pending">{t("requests.pending")}</span> : null}
            {item.columnName ? <span className="td-badge">{item.columnName}</span> : null}
            <TagChips tags={item.tags} />
          </div>
        </div>
      </header>
      {item.description ? <p className="td-description">{item.description}</p> : null}
      <FollowRequest id={item.id} />
      <section aria-label={t("detail.comments")}>
        <h3>{t("detail.comments")}</h3>
        {comments.status === "error" ? (
          <ErrorState message={comments.error ?? ""} onRetry={comments.reload} />
        ) : comments.status !== "ready" && comments.comments.length === 0 ? (
          <Loading />
        ) : top.length === 0 ? (
          <p className="td-muted">{t("detail.noComments")}</p>
        ) : (
          <ul className="td-comments">
            {top.map((c) => (
              <CommentView
                key={c.id}
                comment={c}
                replies={repliesOf(c.id)}
                onReply={(target) => setReplyingTo(target.parentId ?? target.id)}
                replyingTo={replyingTo}
                reply={(body) => post(body, replyingTo ?? undefined)}
                posting={comments.posting}
                onOpenProfile={props.onOpenProfile}
              />
            ))}
          </ul>
        )}
        {comments.hasMore ? (
          <button type="button" className="td-button td-block" disabled={comments.loadingMore} onClick={() => void comments.loadMore()}>
            {comments.loadingMore ? t("common.loading") : t("detail.loadMore")}
          </button>
        ) : null}
        {comments.loadMoreError ? (
          <p role="alert" className="td-notice td-danger">
            {comments.loadMoreError}
          </p>
        ) : null}
        {comments.postError ? (
          <p role="alert" className="td-notice td-danger">
            {comments.postError}
          </p>
        ) : null}
        <CommentForm label={t("detail.addComment")} onPost={(body) => post(body)} posting={comments.posting} />
      </section>
    </article>
  );
}
