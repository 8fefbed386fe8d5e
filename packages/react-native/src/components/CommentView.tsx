import type { Comment } from "@tidings/client";
import { useTidings } from "@tidings/react-core";
import { Pressable, Text, View } from "react-native";
import { MIN_TOUCH, usePalette } from "../theme.js";
import { Badge } from "./Badge.js";
import { CommentForm } from "./CommentForm.js";

/** One comment with its author, date and reply button, its open reply form, and its replies indented. */
export function CommentView(props: {
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
