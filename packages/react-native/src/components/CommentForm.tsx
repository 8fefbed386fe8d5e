import { useTidings } from "@tidings/react-core";
import { useState } from "react";
import { TextInput, View } from "react-native";
import { MIN_TOUCH, usePalette } from "../theme.js";
import { TextButton } from "./TextButton.js";

/** The form of a new comment or a reply: its text stays until it is posted. */
export function CommentForm(props: { label: string; onPost: (body: string) => Promise<boolean>; posting: boolean; onCancel?: (() => void) | undefined }) {
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
