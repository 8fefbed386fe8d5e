import type { Comment, FeatureRequestItem } from "@tidings/client";
import { useComments, useTidings, useToggleVote, type ToggleVote, type VotePatch } from "@tidings/react-core";
import { useCallback, useState } from "react";
import { Pressable, ScrollView, Text, TextInput, View } from "react-native";
import { MIN_TOUCH, usePalette } from "../theme.js";
import { Screen } from "./Screen.js";
import { ErrorState, Loading } from "./States.js";
import { Badge } from "./Badge.js";
import { FollowRequest } from "./FollowRequest.js";
import { TextButton } from "./TextButton.js";
import { VoteButton } from "./VoteButton.js";

function CommentForm(props: { label: string; onPost: (body: string) => Promise<boolean>; posting: boolean; onCancel?: (() => void) | undefined }) {
  const { t } = useTidings();
  const palette = usePalette();
  const [body, setBody] = useState("");
  const submit = async () => {
    // The text stays after a failure (rule 11); only a posted comment clears it.
    if (await props.onPost(body)) setBody("");
  };
  return (
    <View style={{ gap: 8, marginTop: 8 }}>
      <TextInput
        accessibilityLabel={props.label}
        placeholder={props.label}
        placeholderTextColor={palette.muted}
        value={body}
        onChangeText={setBody}
        multiline
        style={{
          minHeight: MIN_TOUCH * 1.5,
          padding: 10,
          borderRadius: 8,
          borderWidth: 1,
          borderColor: palette.inputBorder,
          backgroundColor: palette.inputBg,
          color: palette.text,
          fontSize: 16,
          textAlignVertical: "top",
        }}
      />
      <View style={{ flexDirection: "row", gap: 8, justifyContent: "flex-end" }}>
        {props.onCancel === undefined ? null : <TextButton label={t("common.cancel")} onPress={props.onCancel} />}
        <TextButton
          label={t("detail.post")}
          text={props.posting ? t("detail.posting") : t("detail.post")}
          primary
          busy={props.posting}
          disabled={props.posting || body.trim() === ""}
          onPress={() => void submit()}
        />
      </View>
    </View>
  );
}

function CommentView(props: {
  comment: Comment;
  replies: Comment[];
  onReply: (comment: Comment) => void;
  /** The comment whose reply form is open. */
  replyingTo: string | null;
  reply: (body: string) => Promise<boolean>;
  cancelReply: () => void;
  posting: boolean;
  nested?: boolean;
}) {
  const { t, locale } = useTidings();
  const palette = usePalette();
  const { comment } = props;
  const name = comment.authorName ?? t("detail.anonymous");
  const date = new Date(comment.createdAt);
  return (
    <View
      style={{
        gap: 4,
        paddingVertical: 8,
        ...(props.nested ? { marginLeft: 16, paddingLeft: 12, borderLeftWidth: 2, borderLeftColor: palette.divider } : { borderTopWidth: 1, borderTopColor: palette.divider }),
      }}
    >
      <View style={{ flexDirection: "row", flexWrap: "wrap", alignItems: "center", gap: 8 }}>
        <Text style={{ color: palette.text, fontWeight: "700", fontSize: 15 }}>{name}</Text>
        {comment.isTeam ? <Badge label={t("detail.team")} /> : null}
        <Text style={{ color: palette.muted, fontSize: 13 }}>{Number.isNaN(date.getTime()) ? "" : date.toLocaleDateString(locale)}</Text>
      </View>
      <Text style={{ color: palette.text2, fontSize: 16 }}>
        {comment.replyToAuthorName ? <Text style={{ color: palette.accent }}>@{comment.replyToAuthorName} </Text> : null}
        {comment.body}
      </Text>
      <Pressable
        accessibilityRole="button"
        accessibilityLabel={t("detail.replyTo", { name })}
        onPress={() => props.onReply(comment)}
        style={{ minHeight: MIN_TOUCH, minWidth: MIN_TOUCH, justifyContent: "center", alignSelf: "flex-start" }}
      >
        <Text style={{ color: palette.primary, fontSize: 15 }}>{t("detail.reply")}</Text>
      </Pressable>
      {props.replyingTo === comment.id ? (
        <CommentForm label={t("detail.replyTo", { name })} onPost={props.reply} posting={props.posting} onCancel={props.cancelReply} />
      ) : null}
      {props.replies.map((r) => (
        <CommentView key={r.id} {...props} comment={r} replies={[]} nested />
      ))}
    </View>
  );
}

/** Props of {@link FeatureRequestDetail}. */
export interface FeatureRequestDetailProps {
  /** The request to show. */
  item: FeatureRequestItem;
  /**
   * The vote state of the list the request came from, so a vote here shows there too; without it
   * the detail votes on its own copy of the request and reports the change through `onChange`.
   * @default a vote state of this view's own
   */
  votes?: ToggleVote | undefined;
  /** Shows a Back button calling this. @default no button */
  onClose?: (() => void) | undefined;
  /** Called with the fields a vote or a new comment changed. @default none */
  onChange?: ((patch: Partial<FeatureRequestItem>) => void) | undefined;
  /** Comments per page; "More comments" loads the next. @default 100 */
  commentPageSize?: number | undefined;
}

/**
 * One request with its vote, description and comments threaded one level (a reply to a reply
 * joins its parent's thread, as on the web), more comments on demand, a composer and replies.
 *
 * @example
 * ```tsx
 * <FeatureRequestDetail item={item} onClose={() => navigation.goBack()} />
 * ```
 */
export function FeatureRequestDetail(props: FeatureRequestDetailProps) {
  const { t } = useTidings();
  const palette = usePalette();
  const { onChange } = props;
  // Standalone, votes land on a patch of this view's own; with the list's votes, on the list's items.
  const [own, setOwn] = useState<{ id: string; patch: VotePatch } | null>(null);
  const applyOwn = useCallback(
    (id: string, patch: VotePatch) => {
      setOwn({ id, patch });
      onChange?.(patch);
    },
    [onChange],
  );
  const ownVotes = useToggleVote(applyOwn);
  const votes = props.votes ?? ownVotes;
  const item = props.votes === undefined && own?.id === props.item.id ? { ...props.item, ...own.patch } : props.item;

  const comments = useComments(item.id, { pageSize: props.commentPageSize });
  // The reply form opens under the tapped comment; the reply joins the thread of its top comment.
  const [replying, setReplying] = useState<{ target: string; thread: string } | null>(null);
  const top = comments.comments.filter((c) => !c.parentId || !comments.comments.some((p) => p.id === c.parentId));
  const repliesOf = (id: string) => comments.comments.filter((c) => c.parentId === id);
  const post = async (body: string, parentId?: string) => {
    const ok = await comments.post({ body, parentId });
    if (ok) {
      onChange?.({ commentCount: Math.max(item.commentCount ?? 0, comments.comments.length) + 1 });
      setReplying(null);
    }
    return ok;
  };
  const badges = [
    !item.approved ? <Badge key="pending" label={t("requests.pending")} tone="pending" /> : null,
    item.columnName ? <Badge key="column" label={item.columnName} /> : null,
    item.versionLabel ? <Badge key="version" label={item.versionLabel} /> : null,
    ...(item.tags ?? []).map((tag) => <Badge key={`tag:${tag.slug}`} label={tag.name} dot={tag.color} />),
  ].filter((b) => b !== null);

  return (
    <Screen label={item.title}>
      <ScrollView keyboardShouldPersistTaps="handled" contentContainerStyle={{ padding: 16, gap: 12 }}>
        {props.onClose === undefined ? null : (
          <Pressable
            accessibilityRole="button"
            accessibilityLabel={t("common.back")}
            onPress={props.onClose}
            style={{ minHeight: MIN_TOUCH, minWidth: MIN_TOUCH, justifyContent: "center", alignSelf: "flex-start" }}
          >
            <Text style={{ color: palette.primary, fontSize: 16 }}>‹ {t("common.back")}</Text>
          </Pressable>
        )}
        <View style={{ flexDirection: "row", gap: 12, alignItems: "flex-start" }}>
          <VoteButton item={item} votes={votes} />
          <View style={{ flex: 1, gap: 6 }}>
            <Text accessibilityRole="header" style={{ color: palette.text, fontSize: 20, fontWeight: "700" }}>
              {item.title}
            </Text>
            {badges.length > 0 ? <View style={{ flexDirection: "row", flexWrap: "wrap", gap: 6 }}>{badges}</View> : null}
          </View>
        </View>
        {votes.error ? (
          <Text accessibilityRole="alert" style={{ color: palette.danger, fontSize: 15 }}>
            {votes.error}
          </Text>
        ) : null}
        {item.description ? <Text style={{ color: palette.text2, fontSize: 16 }}>{item.description}</Text> : null}
        <FollowRequest id={item.id} />
        <Text accessibilityRole="header" style={{ color: palette.text, fontSize: 18, fontWeight: "700", marginTop: 8 }}>
          {t("detail.comments")}
        </Text>
        {comments.status === "error" ? (
          <ErrorState message={comments.error ?? ""} onRetry={comments.reload} />
        ) : comments.status !== "ready" && comments.comments.length === 0 ? (
          <Loading />
        ) : top.length === 0 ? (
          <Text style={{ color: palette.muted, fontSize: 16 }}>{t("detail.noComments")}</Text>
        ) : (
          <View>
            {top.map((c) => (
              <CommentView
                key={c.id}
                comment={c}
                replies={repliesOf(c.id)}
                onReply={(target) => setReplying({ target: target.id, thread: target.parentId ?? target.id })}
                replyingTo={replying?.target ?? null}
                reply={(body) => post(body, replying?.thread)}
                cancelReply={() => setReplying(null)}
                posting={comments.posting}
              />
            ))}
          </View>
        )}
        {comments.hasMore ? (
          <TextButton
            label={t("detail.loadMore")}
            text={comments.loadingMore ? t("common.loading") : t("detail.loadMore")}
            busy={comments.loadingMore}
            disabled={comments.loadingMore}
            onPress={() => void comments.loadMore()}
          />
        ) : null}
        {comments.loadMoreError ? (
          <Text accessibilityRole="alert" style={{ color: palette.danger, fontSize: 15 }}>
            {comments.loadMoreError}
          </Text>
        ) : null}
        {comments.postError ? (
          <Text accessibilityRole="alert" style={{ color: palette.danger, fontSize: 15 }}>
            {comments.postError}
          </Text>
        ) : null}
        {replying === null ? <CommentForm label={t("detail.addComment")} onPost={(body) => post(body)} posting={comments.posting} /> : null}
      </ScrollView>
    </Screen>
  );
}
