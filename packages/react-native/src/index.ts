// The shared state layer (provider core, hooks, catalogs, palettes) comes from @tidings/react-core;
// this package adds React Native screens and the device glue (locale, platform, colour scheme).
export {
  useTidings,
  useAppConfig,
  useSurfaceEnabled,
  useUserToken,
  useFeatureRequests,
  useToggleVote,
  useFollowRequest,
  useVersions,
  useComments,
  useRoadmap,
  useChangelog,
  useChangelogOverlay,
  useFeedbackComposer,
  useProposeRequest,
  useBoards,
  useCustomFields,
  useUserProfile,
  palettes,
  THEMES,
  type TidingsContextValue,
  type StringOverrides,
  type LocalePack,
  type Palette,
  type CustomFieldsState,
} from "@tidings/react-core";
export { TidingsProvider, type TidingsProviderProps } from "./TidingsProvider.js";
export { deviceLanguages } from "./device-locales.js";
export { runtimePlatform } from "./runtime-platform.js";
export { usePalette, MIN_TOUCH } from "./theme.js";
export { Screen } from "./components/Screen.js";
export { ErrorState, Loading, Unavailable } from "./components/States.js";
export { VoteButton } from "./components/VoteButton.js";
// Feature requests: list screen, compose sheet, detail with comments.
export { FeatureRequestsScreen, type FeatureRequestsScreenProps } from "./components/FeatureRequestsScreen.js";
export { FeatureRequestComposeSheet, type FeatureRequestComposeSheetProps } from "./components/FeatureRequestComposeSheet.js";
export { FeatureRequestDetail, type FeatureRequestDetailProps } from "./components/FeatureRequestDetail.js";
export { FollowRequest } from "./components/FollowRequest.js";
export { CustomFieldInputs } from "./components/CustomFieldInputs.js";
export { Badge, type BadgeProps } from "./components/Badge.js";
export { Avatar, type AvatarProps } from "./components/Avatar.js";
export { UserProfileScreen, type UserProfileScreenProps } from "./components/UserProfileScreen.js";
export { FeedbackComposer, type FeedbackComposerProps } from "./components/FeedbackComposer.js";
export { ReleaseNotes, type ReleaseNotesProps } from "./components/ReleaseNotes.js";
export { MarkdownText, type MarkdownTextProps } from "./components/MarkdownText.js";
export { WhatsNewScreen, type WhatsNewScreenProps } from "./components/WhatsNewScreen.js";
export { ChangelogOverlay, type ChangelogOverlayProps } from "./components/ChangelogOverlay.js";
export { RoadmapBoardScreen, type RoadmapBoardScreenProps } from "./components/RoadmapBoardScreen.js";
