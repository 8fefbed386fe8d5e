import type { Migration } from "kysely";
import * as m0001 from "./0001-initial.js";
import * as m0002 from "./0002-feature-requests.js";
import * as m0003 from "./0003-feedback.js";
import * as m0004 from "./0004-changelog.js";
import * as m0005 from "./0005-console-sessions.js";
import * as m0006 from "./0006-search-prefix-index.js";
import * as m0007 from "./0007-search-longer-prefixes.js";
import * as m0008 from "./0008-top-order-index.js";
import * as m0009 from "./0009-recent-votes-index.js";
import * as m0010 from "./0010-votes-keyed-by-voter.js";
import * as m0011 from "./0011-listed-request-indexes.js";
import * as m0012 from "./0012-listed-search-index.js";
import * as m0013 from "./0013-idempotency-keys.js";
import * as m0014 from "./0014-search-word-prefixes.js";
import * as m0015 from "./0015-drop-full-search-index.js";
import * as m0016 from "./0016-webhooks.js";
import * as m0018 from "./0018-portal-indexing.js";
import * as m0019 from "./0019-shipped-events-index.js";
import * as m0020 from "./0020-sso-end-users.js";
import * as m0021 from "./0021-request-updates.js";
import * as m0022 from "./0022-import-sources.js";
import * as m0023 from "./0023-vote-batches.js";
import * as m0024 from "./0024-search-words-table.js";
import * as m0025 from "./0025-trust-identified-users.js";
import * as m0026 from "./0026-boards.js";
import * as m0027 from "./0027-tags.js";
import * as m0028 from "./0028-custom-fields.js";
import * as m0029 from "./0029-duplicate-dismissals.js";
import * as m0030 from "./0030-tag-and-board-listing-indexes.js";
import * as m0031 from "./0031-companies.js";
import * as m0032 from "./0032-api-token-scopes.js";
import * as m0033 from "./0033-github.js";
import * as m0034 from "./0034-feedback-evidence.js";
import * as m0035 from "./0035-linear.js";
import * as m0036 from "./0036-trackers.js";
import * as m0037 from "./0037-segments.js";
import * as m0038 from "./0038-tag-top-order.js";
import * as m0039 from "./0039-title-word-index.js";
import * as m0040 from "./0040-vote-batch-one-block.js";
import * as m0041 from "./0041-title-words-table.js";
import * as m0042 from "./0042-vote-batch-alone.js";
import * as m0043 from "./0043-spread-usage.js";
import * as m0044 from "./0044-ship-notify-queue.js";
import * as m0045 from "./0045-ship-due-queue.js";
import * as m0046 from "./0046-top-order-table.js";
import * as m0047 from "./0047-vote-plans-use-indexes.js";
import * as m0048 from "./0048-votes-by-voter-and-request.js";
import * as m0049 from "./0049-attribute-indexes-partial.js";
import * as m0050 from "./0050-vote-counts-once-per-batch.js";
import * as m0051 from "./0051-search-app-key.js";
import * as m0052 from "./0052-recent-commenters.js";

/** Every migration, in order. Names are frozen once released. */
export const migrations: Record<string, Migration> = {
  "0001-initial": m0001,
  "0002-feature-requests": m0002,
  "0003-feedback": m0003,
  "0004-changelog": m0004,
  "0005-console-sessions": m0005,
  "0006-search-prefix-index": m0006,
  "0007-search-longer-prefixes": m0007,
  "0008-top-order-index": m0008,
  "0009-recent-votes-index": m0009,
  "0010-votes-keyed-by-voter": m0010,
  "0011-listed-request-indexes": m0011,
  "0012-listed-search-index": m0012,
  "0013-idempotency-keys": m0013,
  "0014-search-word-prefixes": m0014,
  "0015-drop-full-search-index": m0015,
  "0016-webhooks": m0016,
  "0018-portal-indexing": m0018,
  "0019-shipped-events-index": m0019,
  "0020-sso-end-users": m0020,
  "0021-request-updates": m0021,
  "0022-import-sources": m0022,
  "0023-vote-batches": m0023,
  "0024-search-words-table": m0024,
  "0025-trust-identified-users": m0025,
  "0026-boards": m0026,
  "0027-tags": m0027,
  "0028-custom-fields": m0028,
  "0029-duplicate-dismissals": m0029,
  "0030-tag-and-board-listing-indexes": m0030,
  "0031-companies": m0031,
  "0032-api-token-scopes": m0032,
  "0033-github": m0033,
  "0034-feedback-evidence": m0034,
  "0035-linear": m0035,
  "0036-trackers": m0036,
  "0037-segments": m0037,
  "0038-tag-top-order": m0038,
  "0039-title-word-index": m0039,
  "0040-vote-batch-one-block": m0040,
  "0041-title-words-table": m0041,
  "0042-vote-batch-alone": m0042,
  "0043-spread-usage": m0043,
  "0044-ship-notify-queue": m0044,
  "0045-ship-due-queue": m0045,
  "0046-top-order-table": m0046,
  "0047-vote-plans-use-indexes": m0047,
  "0048-votes-by-voter-and-request": m0048,
  "0049-attribute-indexes-partial": m0049,
  "0050-vote-counts-once-per-batch": m0050,
  "0051-search-app-key": m0051,
  "0052-recent-commenters": m0052,
};
