export { TidingsProvider, type TidingsProviderProps } from "./TidingsProvider.js";
export { useTidings, type TidingsContextValue } from "./context.js";
export { useAppConfig, useSurfaceEnabled, type AppConfigState } from "./hooks/use-app-config.js";
export { useUserToken, type UserTokenState } from "./hooks/use-user-token.js";
export { useAsyncData, type AsyncData } from "./hooks/use-async-data.js";
export { useFeatureRequests, type FeatureRequestsState, type UseFeatureRequestsOptions } from "./hooks/use-feature-requests.js";
export { useToggleVote, type ToggleVote, type VotePatch } from "./hooks/use-toggle-vote.js";
export { useFollowRequest, type FollowRequestState, type FollowStatus } from "./hooks/use-follow-request.js";
export { useVersions } from "./hooks/use-versions.js";
export { useComments, type CommentsState, type UseCommentsOptions } from "./hooks/use-comments.js";
export { useRoadmap, type RoadmapState } from "./hooks/use-roadmap.js";
export { useChangelog, type ChangelogState, type ChangelogRelease } from "./hooks/use-changelog.js";
export { useChangelogOverlay, type ChangelogOverlayState, type UseChangelogOverlayOptions } from "./hooks/use-changelog-overlay.js";
export {
  useFeedbackComposer,
  type FeedbackComposerState,
  type ComposerAttachment,
  type UseFeedbackComposerOptions,
} from "./hooks/use-feedback-composer.js";
export { useProposeRequest, type ProposeRequestState, type UseProposeRequestOptions } from "./hooks/use-propose-request.js";
export { useBoards } from "./hooks/use-boards.js";
export { useCustomFields, type CustomFieldsState } from "./hooks/use-custom-fields.js";
export { customFieldProblemText } from "./i18n/custom-field-text.js";
export { useUserProfile } from "./hooks/use-user-profile.js";
export { useFeatureRequest } from "./hooks/use-feature-request.js";
export { useSimilarRequests, SIMILAR_MIN_CHARS, type SimilarRequestsState } from "./hooks/use-similar-requests.js";
export { avatarInitial, profileView, isProfileMissing, type ProfileView, type ProfileComment } from "./profile-view.js";
export { enStrings, type StringId } from "./i18n/en.js";
export { type LocalePack, type UiCatalog, type UiMessage } from "./i18n/locale-pack.js";
export { createTranslator, type Translate, type StringOverrides, type MessageParams } from "./i18n/translate.js";
export { THEMES } from "./themes.js";
export { palettes, resolvePalette, type Palette, type PaletteName } from "./palettes.js";
export { safeHref, safeImageSrc, type MarkdownBlock, type MarkdownInline, type MarkdownListItem, type MarkdownAlign } from "@tidings/client";
export { formatReleaseDate } from "./release-date.js";
