/**
 * Data-layer functions for embedding and tooling (importers, benchmarks). Each runs inside the
 * Kysely transaction you pass.
 */
export { createWorkspace } from "./workspaces/workspaces.js";
export { createApp } from "./apps/apps.js";
export { createFeatureRequest, createFeatureRequests, importedRequest } from "./feature-requests/feature-requests.js";
export { recountVotes } from "./feature-requests/recounts.js";
export { ensureEndUser } from "./users/identity.js";
export { enqueueJobs, type NewJob } from "./jobs/queue.js";
export { createBoard } from "./boards/boards.js";
export { createTag } from "./tags/tags.js";
export { bulkTag } from "./tags/request-tags.js";
export { listFeatureRequests, type ListQuery } from "./feature-requests/listing.js";
