import { isProfileMissing, profileView, useTidings, useUserProfile, type ProfileComment } from "@tidings/react-core";
import { FlatList, Linking, Pressable, Text, View } from "react-native";
import { MIN_TOUCH, usePalette } from "../theme.js";
import { Avatar } from "./Avatar.js";
import { Screen } from "./Screen.js";
import { ErrorState, Loading } from "./States.js";

/** Props of {@link UserProfileScreen}. */
export interface UserProfileScreenProps {
  /** The app-scoped id of the user (`u_…`), e.g. from a comment's author. */
  userId: string;
  /** Shown when the profile has no display name (the name on the comment that led here). @default "Anonymous" */
  fallbackName?: string | undefined;
}

/**
 * A public user profile: avatar (or initial), name, bio, website and recent comments, read from
 * either server shape; a missing user says so, other failures offer a retry.
 *
 * @example
 * ```tsx
 * <UserProfileScreen userId={comment.authorId} fallbackName={comment.authorName} />
 * ```
 */
export function UserProfileScreen(props: UserProfileScreenProps) {
  const { t, errorMessage, locale } = useTidings();
  const palette = usePalette();
  const profile = useUserProfile(props.userId);

  if (profile.status === "error") {
    const missing = isProfileMissing(profile.error);
    return (
      <Screen label={t("profile.title")}>
        <ErrorState message={missing ? t("profile.notFound") : errorMessage(profile.error)} onRetry={missing ? undefined : profile.reload} />
      </Screen>
    );
  }
  if (profile.data === undefined) {
    return (
      <Screen label={t("profile.title")}>
        <Loading />
      </Screen>
    );
  }

  const view = profileView(profile.data, { fallbackName: props.fallbackName, locale });
  const name = view.name ?? t("detail.anonymous");
  const website = view.websiteUrl;
  const comments = view.commentsHidden ? [] : view.comments;

  const header = (
    <View style={{ gap: 12, paddingBottom: 8 }}>
      <View style={{ flexDirection: "row", alignItems: "center", gap: 12 }}>
        <Avatar name={name} uri={view.avatarUrl} size={64} />
        <View style={{ flex: 1, gap: 4 }}>
          <Text accessibilityRole="header" style={{ color: palette.text, fontSize: 22, fontWeight: "700" }}>
            {name}
          </Text>
          {view.bio !== undefined ? <Text style={{ color: palette.muted, fontSize: 16 }}>{view.bio}</Text> : null}
          {website !== undefined ? (
            <Pressable
              accessibilityRole="link"
              accessibilityLabel={website}
              onPress={() => void Linking.openURL(website).catch(() => undefined)}
              style={{ minHeight: MIN_TOUCH, justifyContent: "center", alignSelf: "flex-start" }}
            >
              <Text style={{ color: palette.accent, fontSize: 16, textDecorationLine: "underline" }}>{website}</Text>
            </Pressable>
          ) : null}
        </View>
      </View>
      <Text accessibilityRole="header" style={{ color: palette.text, fontSize: 18, fontWeight: "600" }}>
        {t("profile.recentComments")}
      </Text>
    </View>
  );

  return (
    <Screen label={t("profile.title")}>
      <FlatList<ProfileComment>
        data={comments}
        keyExtractor={(c) => c.key}
        contentContainerStyle={{ padding: 16, gap: 10 }}
        ListHeaderComponent={header}
        ListEmptyComponent={<Text style={{ color: palette.muted, fontSize: 16 }}>{t("profile.noComments")}</Text>}
        renderItem={({ item: c }) => (
          <View style={{ padding: 12, gap: 4, borderRadius: 10, borderWidth: 1, borderColor: palette.cardBorder, backgroundColor: palette.card }}>
            <Text style={{ color: palette.muted, fontSize: 13 }}>{[c.requestTitle, c.date].filter((part) => part !== undefined && part !== "").join(" · ")}</Text>
            {c.body !== undefined ? <Text style={{ color: palette.text, fontSize: 16 }}>{c.body}</Text> : null}
          </View>
        )}
      />
    </Screen>
  );
}
