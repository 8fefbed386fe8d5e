import type { Comment } from "@tidings/client";
import { useTidings } from "@tidings/react-core";
import { CommentForm } from "./CommentForm.js";

/** One comment with its author (linking to their profile), date and reply button, its open reply form, and its replies. */
export function CommentView(props: {
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
