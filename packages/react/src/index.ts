// The renderer-free state layer (provider, hooks, catalogs) lives in @tidings/react-core and is re-exported here.
export * from "@tidings/react-core";
export { TidingsScreen } from "./components/TidingsScreen.js";
export { Modal } from "./components/Modal.js";
export { ErrorState, Loading, Unavailable } from "./components/States.js";
export { VoteButton } from "./components/VoteButton.js";
export { FeatureRequestList, FeatureRequestRow, type FeatureRequestListProps } from "./components/FeatureRequestList.js";
export { ComposeSheet } from "./components/ComposeSheet.js";
export { CustomFieldInputs } from "./components/CustomFieldInputs.js";
export { TagChips, TagFilter } from "./components/Tags.js";
export { FeatureRequestDetail } from "./components/FeatureRequestDetail.js";
export { FollowRequest } from "./components/FollowRequest.js";
export { RoadmapBoard, type RoadmapBoardProps } from "./components/RoadmapBoard.js";
export { ReleaseNotes } from "./components/ReleaseNotes.js";
export { WhatsNew } from "./components/WhatsNew.js";
export { ChangelogOverlay } from "./components/ChangelogOverlay.js";
export { FeedbackComposer, type FeedbackComposerProps } from "./components/FeedbackComposer.js";
export { UserProfile } from "./components/UserProfile.js";
export { TidingsPortal, type TidingsPortalProps, type PortalTab } from "./components/TidingsPortal.js";
