import { type Comment, textLength, truncateText } from "@tidings/protocol";
import { useState, type FormEvent } from "react";
import { api } from "../api.js";
import { ListStatus } from "../components/ListStatus.js";
import { ConfirmButton, describedBy, ErrorBanner, Field, type useLoad } from "../components/ui.js";
import { t } from "../i18n/t.js";
import type { FieldErrors } from "../settings-form.js";

type CommentList = ReturnType<typeof useLoad<{ comments: Comment[]; total: number; hasMore: boolean }>>;

/** The team reply being written: its text, the comment it answers, and its field errors. */
export function useReplyDraft() {
  const [reply, setReply] = useState("");
  const [replyTo, setReplyTo] = useState<Comment | null>(null);
  const [replyErrors, setReplyErrors] = useState<FieldErrors>({});
  return { reply, setReply, replyTo, setReplyTo, replyErrors, setReplyErrors };
}

/** A request's comments, `limit` of them (load more adds 50, up to 200), with moderation, and the team's reply form. */
export function RequestComments(props: {
  wsId: string;
  /** The request's path in the console API. */
  path: string;
  comments: CommentList;
  limit: number;
  onLimit: (limit: number) => void;
  draft: ReturnType<typeof useReplyDraft>;
  run: (work: () => Promise<unknown>) => Promise<boolean>;
}) {
  const { comments, limit, run } = props;
  const { reply, setReply, replyTo, setReplyTo, replyErrors, setReplyErrors } = props.draft;
  const sendReply = async (event: FormEvent) => {
    event.preventDefault();
    const text = reply.trim();
    const local: FieldErrors = text === "" ? { body: [t("validation.required")] } : textLength(text) > 5000 ? { body: [t("validation.tooLong", { max: 5000 })] } : {};
    setReplyErrors(local);
    if (Object.keys(local).length > 0) return;
    const ok = await run(() => api("POST", `${props.path}/comments`, { body: text, ...(replyTo === null ? {} : { parentId: replyTo.id }) }));
    if (ok) {
      setReply("");
      setReplyTo(null);
    }
  };
  const commentList = comments.data?.comments ?? [];

  return (
    <>
      <h2>{t("detail.comments")}</h2>
      <ErrorBanner error={comments.error} onRetry={comments.reload} />
      <ListStatus list={comments} count={commentList.length} empty={t("detail.noComments")} />
      <ul className="rows" aria-label={t("detail.comments")}>
        {commentList.map((c) => (
          <li key={c.id} className="row" data-testid="comment-row">
            <div className="row-main">
              <small>
                {c.authorName ?? "—"}
                {c.isTeam ? ` · ${t("detail.team")}` : ""}
                {c.isHidden ? ` · ${t("detail.hidden")}` : ""} · {new Date(c.createdAt).toLocaleString()}
              </small>
              <p className={c.isHidden ? "description muted" : "description"}>{c.body}</p>
            </div>
            <div className="row-actions">
              <button type="button" onClick={() => (setReplyTo(c), document.getElementById("reply-body")?.focus())}>
                {t("detail.reply")}
              </button>
              <button type="button" onClick={() => void run(() => api("PATCH", `/workspaces/${props.wsId}/comments/${c.id}/hide`, { isHidden: !c.isHidden }))}>
                {c.isHidden ? t("detail.unhide") : t("detail.hide")}
              </button>
              <ConfirmButton question={t("common.confirmDelete", { name: truncateText(c.body, 40) })} onConfirm={() => void run(() => api("DELETE", `/workspaces/${props.wsId}/comments/${c.id}`))}>
                {t("common.delete")}
              </ConfirmButton>
            </div>
          </li>
        ))}
      </ul>
      {comments.data?.hasMore === true ? (
        <button type="button" onClick={() => props.onLimit(Math.min(200, limit + 50))} disabled={limit >= 200}>
          {t("common.loadMore")}
        </button>
      ) : null}
      <form className="settings" onSubmit={(e) => void sendReply(e)} noValidate>
        {replyTo === null ? null : (
          <p className="hint">
            {t("detail.replyTo", { name: replyTo.authorName ?? "—" })}{" "}
            <button type="button" className="link" onClick={() => setReplyTo(null)}>
              {t("common.cancel")}
            </button>
          </p>
        )}
        <Field id="reply-body" label={t("detail.teamReply")} errors={replyErrors.body}>
          <textarea id="reply-body" rows={3} value={reply} onChange={(e) => setReply(e.target.value)} {...describedBy("reply-body", replyErrors.body)} />
        </Field>
        <button type="submit">{t("detail.send")}</button>
      </form>
    </>
  );
}
