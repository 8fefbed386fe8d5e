import type { Comment, FeatureRequestItem } from "@tidings/client";
import { useId, useState, type FormEvent } from "react";
import { useTidings, useComments, type ToggleVote } from "@tidings/react-core";
import { FollowRequest } from "./FollowRequest.js";
import { ErrorState, Loading } from "./States.js";
import { TagChips } from "./Tags.js";
import { VoteButton } from "./VoteButton.js";

function CommentForm(props: { label: string; onPost: (body: string) => Promise<boolean>; posting: boolean; autoFocus?: boolean }) {
  const { t } = useTidings();
  const [body, setBody] = useState("");
  const id = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await props.onPost(body)) setBody("");
  };
  return (
    <form className="td-comment-form" onSubmit={(e) => void submit(e)}>
      <label htmlFor={id} className="td-visually-hidden">
        {props.label}
      </label>
      <textarea id={id} className="td-input" rows={2} placeholder={props.label} value={body} autoFocus={props.autoFocus} onChange={(e) => setBody(e.target.value)} />
      <button type="submit" className="td-button td-primary" disabled={props.posting || body.trim() === ""}>
        {props.posting ? t("detail.posting") : t("detail.post")}
      </button>
    </form>
  );
}

function CommentView(props: {
  comment: Comment;
  replies: Comment[];
  onReply: (c: Comment) => void;
  replyingTo: string | null;
  reply: (body: string) => Promise<boolean>;
  posting: boolean;
  onOpenProfile?: ((userId: string, name?: string) => void) | undefined;
}) {
  const { t, locale } = useTidings();
  const { comment } = props;
  const name = comment.authorName ?? t("detail.anonymous");
  const date = new Date(comment.createdAt);
  return (
    <li className="td-comment">
      <div className="td-comment-head">
        {comment.authorAvatarUrl ? <img className="td-avatar" src={comment.authorAvatarUrl} alt="" width={20} height={20} loading="lazy" referrerPolicy="no-referrer" /> : null}
        {comment.authorClerkId && props.onOpenProfile ? (
          <button type="button" className="td-link td-author" onClick={() => props.onOpenProfile?.(comment.authorClerkId!, comment.authorName ?? undefined)}>
            <strong>{name}</strong>
          </button>
        ) : (
          <strong>{name}</strong>
        )}
        {comment.isTeam ? <span className="td-badge">{t("detail.team")}</span> : null}
        <time className="td-muted td-small" dateTime={comment.createdAt}>
          {Number.isNaN(date.getTime()) ? "" : date.toLocaleDateString(locale)}
        </time>
      </div>
      <p className="td-comment-body">
        {comment.replyToAuthorName ? <span className="td-mention">@{comment.replyToAuthorName} </span> : null}
        {comment.body}
      </p>
      <button type="button" className="td-link td-small" onClick={() => props.onReply(comment)} aria-label={t("detail.replyTo", { name })}>
        {t("detail.reply")}
      </button>
      {props.replyingTo === comment.id ? <CommentForm label={t("detail.replyTo", { name })} onPost={props.reply} posting={props.posting} autoFocus /> : null}
      {props.replies.length > 0 ? (
        <ul className="td-replies">
          {props.replies.map((r) => (
            <CommentView
              key={r.id}
              comment={r}
              replies={[]}
              onReply={props.onReply}
              replyingTo={props.replyingTo}
              reply={props.reply}
              posting={props.posting}
              onOpenProfile={props.onOpenProfile}
            />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

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
