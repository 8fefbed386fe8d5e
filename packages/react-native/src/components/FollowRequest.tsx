import { useFollowRequest, useTidings } from "@tidings/react-core";
import { useState } from "react";
import { Text, View } from "react-native";
import { usePalette } from "../theme.js";
import { EmailField } from "./EmailField.js";
import { TextButton } from "./TextButton.js";

/**
 * "Get updates on this request" under a request's description: an address (not asked for when the
 * provider's `userEmail` is known) and a button; then "Check your inbox to confirm" or "You'll get
 * updates", with "Stop updates". Buttons and the field are at least 44 points tall (`MIN_TOUCH`).
 *
 * @example
 * ```tsx
 * <FollowRequest id={item.id} />
 * ```
 */
export function FollowRequest(props: { id: string }) {
  const { t } = useTidings();
  const palette = usePalette();
  const follow = useFollowRequest(props.id);
  const [email, setEmail] = useState("");
  const asking = follow.knownEmail === undefined;
  const sending = follow.status === "sending";
  const blocked = sending || (asking && email.trim() === "");
  const submit = () => {
    if (!blocked) void follow.follow(asking ? email : undefined);
  };
  const following = follow.status === "following" || follow.status === "pending";
  return (
    <View style={{ gap: 8, padding: 12, borderRadius: 10, borderWidth: 1, borderColor: palette.cardBorder, backgroundColor: palette.card }}>
      <Text accessibilityRole="header" style={{ color: palette.text, fontSize: 16, fontWeight: "600" }}>
        {t("follow.title")}
      </Text>
      {following ? (
        <>
          <Text accessibilityLiveRegion="polite" style={{ color: palette.success, fontSize: 16 }}>
            {follow.status === "following" ? t("follow.following") : t("follow.pending")}
          </Text>
          <View style={{ flexDirection: "row" }}>
            <TextButton
              label={t("follow.stop")}
              text={follow.stopping ? t("follow.stopping") : t("follow.stop")}
              busy={follow.stopping}
              disabled={follow.stopping}
              onPress={() => void follow.unfollow()}
            />
          </View>
        </>
      ) : (
        <>
          <Text style={{ color: palette.muted, fontSize: 14 }}>{t("follow.hint")}</Text>
          {asking ? null : <Text style={{ color: palette.text2, fontSize: 15 }}>{t("follow.sendsTo", { email: follow.knownEmail ?? "" })}</Text>}
          <View style={{ flexDirection: "row", gap: 8 }}>
            {asking ? (
              <EmailField label={t("follow.email")} value={email} onChangeText={setEmail} onSubmit={submit} />
            ) : null}
            <TextButton label={t("follow.submit")} text={sending ? t("follow.sending") : t("follow.submit")} primary busy={sending} disabled={blocked} onPress={submit} />
          </View>
        </>
      )}
      {follow.error ? (
        <Text accessibilityRole="alert" accessibilityLiveRegion="polite" style={{ color: palette.danger, fontSize: 15 }}>
          {follow.error}
        </Text>
      ) : null}
    </View>
  );
}
