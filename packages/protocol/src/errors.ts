/**
 * The one registry of stable error codes. Server, SDK and docs (docs/errors.md) all read from
 * here; `errors.test.ts` fails when they drift.
 */
export interface ErrorDefinition {
  /** HTTP status the server answers with. */
  readonly status: number;
  /** Default human-readable message placed in the envelope's `error` field. */
  readonly message: string;
  /** What happened, for the docs table. */
  readonly meaning: string;
  /** How a caller fixes it, for the docs table. */
  readonly fix: string;
}

/**
 * Every machine code the API can answer with.
 *
 * @example
 * ```ts
 * ErrorCodes.validation_failed.status; // 400
 * ```
 */
export const ErrorCodes = {
  validation_failed: {
    status: 400,
    message: "Validation failed",
    meaning: "A body, query, path or header value does not match the route's schema.",
    fix: "Read `details.fieldErrors` and correct the named fields.",
  },
  invalid_json: {
    status: 400,
    message: "Request body is not valid JSON",
    meaning: "The body could not be parsed as JSON, or it holds a key named `__proto__` (or `prototype` inside `constructor`), refused against prototype poisoning; the message then says so.",
    fix: "Send a well-formed JSON document without those keys.",
  },
  invalid_content_length: {
    status: 400,
    message: "Invalid Content-Length header",
    meaning:
      "The Content-Length header is not a plain decimal number, is repeated, comes with `Transfer-Encoding`, or promises more bytes than the connection delivered. The connection is closed after the answer.",
    fix: "Let your HTTP client compute Content-Length.",
  },
  malformed_request: {
    status: 400,
    message: "Malformed HTTP request",
    meaning:
      "The request is not valid HTTP/1.1, so no route saw it: an unknown method or HTTP version, a URL with bytes that are not allowed or broken percent-encoding, a header with a forbidden character, a folded line or a bare LF, broken chunked framing, a `Transfer-Encoding` other than `chunked`, an HTTP/1.1 request without `Host`, a `CONNECT`, or a connection that ended mid-request. The message names the reason. Unless only the percent-encoding was wrong, the connection is closed after the answer.",
    fix: "Use a standard HTTP/1.1 client, percent-encode URLs as UTF-8, and keep header values to visible ASCII.",
  },
  invalid_user_token: {
    status: 400,
    message: "X-User-Token must be 1 to 256 printable characters",
    meaning: "The end-user token is empty, too long or holds control characters.",
    fix: "Send the SDK's stored token (a UUID) or your own user id.",
  },
  invalid_cursor: {
    status: 400,
    message: "Invalid cursor",
    meaning: "The cursor is malformed or was issued for another sort or query.",
    fix: "Pass back `nextCursor` exactly as received, with the same sort and query.",
  },
  invalid_parent: {
    status: 400,
    message: "The comment you are replying to was not found on this feature request",
    meaning: "A reply's `parentId` is not a visible comment of the same request.",
    fix: "Reply to a comment listed on that request.",
  },
  user_token_required: {
    status: 401,
    message: "A user token is required",
    meaning: "The action is attributed to an end user, but no X-User-Token (or body token) came.",
    fix: "Send the SDK's user token.",
  },
  invalid_user_hash: {
    status: 401,
    message: "X-User-Hash does not match X-User-Token",
    meaning: "An identity hash was sent but is not HMAC-SHA256(signing secret, token).",
    fix: "Compute the hash on your backend with the app's current signing secret.",
  },
  authentication_required: {
    status: 401,
    message: "Sign in is required for this surface",
    meaning: "The app does not allow anonymous access to this surface.",
    fix: "Send X-User-Token with a valid X-User-Hash, or enable the anonymous flag.",
  },
  invalid_sso_token: {
    status: 401,
    message: "The SSO token is not a valid HS256 JWT",
    meaning:
      "`X-SSO-Token` is not a compact JWT, is signed with another algorithm than HS256 (`alg: none` included), lacks `sub`, `iat` or `exp`, or carries a claim of the wrong type or size (an `email` that is not an address, a `picture` that is not an https URL).",
    fix: "Sign `{sub, iat, exp, aud}` (plus optional `email`, `name`, `picture`) with HS256 and the app's signing secret; see docs/sso.md.",
  },
  sso_signature_mismatch: {
    status: 401,
    message: "The SSO token's signature does not match",
    meaning: "The token was not signed with this app's current signing secret (forged, tampered with, or signed before a rotation).",
    fix: "Sign on your backend with the app's current signing secret.",
  },
  sso_token_expired: {
    status: 401,
    message: "The SSO token has expired",
    meaning: "`exp` is in the past (60 seconds of clock skew allowed); a token is never accepted after it expires, even once more.",
    fix: "Sign a fresh token when the page loads and give the SDK the new one (`setSsoToken`).",
  },
  sso_token_lifetime_too_long: {
    status: 401,
    message: "The SSO token lives too long",
    meaning: "`exp` is more than 24 hours after `iat`, or `iat` is in the future.",
    fix: "Issue short-lived tokens (an hour is typical) and check the signer's clock.",
  },
  sso_wrong_audience: {
    status: 403,
    message: "The SSO token was issued for another app",
    meaning: "The token's `aud` is not this app's key.",
    fix: "Set `aud` to the app key the token is sent with.",
  },
  identified_user_required: {
    status: 403,
    message: "This app only accepts contributions from signed-in users",
    meaning:
      "The app's `requireIdentifiedUsers` setting is on and the write came without a verified identity (an SSO token or an `X-User-Hash`), so anonymous tokens and unverified host ids are refused.",
    fix: "Sign the user in through SSO (docs/sso.md) or send `X-User-Hash`, or turn the setting off.",
  },
  unauthorized: {
    status: 401,
    message: "Authentication required",
    meaning: "The console API, or `/metrics` when `METRICS_TOKEN` is set, needs a valid `Authorization: Bearer` token.",
    fix: "Create an API token, or use TIDINGS_ADMIN_TOKEN for first setup; for `/metrics`, send `METRICS_TOKEN`.",
  },
  capability_required: {
    status: 403,
    message: "Your role does not allow this action",
    meaning: "The caller's workspace role lacks the capability the route needs.",
    fix: "Ask a workspace owner or admin to do it, or to change your role.",
  },
  token_read_only: {
    status: 403,
    message: "This API token may only read",
    meaning: "The request would change something, and the console API token it carries has the `read` scope (the MCP server lists only its read tools to such a token).",
    fix: "Use a `read-write` token (POST /api/v1/console/tokens with `scope: \"read-write\"`), or sign in to the dashboard.",
  },
  token_workspace_required: {
    status: 403,
    message: "This token must be bound to one workspace",
    meaning: "The MCP server works in one workspace, and this API token is bound to none while its user belongs to several workspaces (or to none).",
    fix: "Create a token bound to the workspace: `POST /api/v1/console/tokens` with `workspaceId`.",
  },
  invalid_credentials: {
    status: 401,
    message: "Email or password is incorrect",
    meaning: "Console sign-in failed: no user with that email has that password.",
    fix: "Check the email and password; after repeated failures the account is locked for a while (429).",
  },
  csrf_failed: {
    status: 403,
    message: "Missing or invalid CSRF token",
    meaning: "A write made with the console session cookie lacked the session's `X-CSRF-Token` header, or came from another origin.",
    fix: "Send the `csrfToken` from `GET /api/v1/console/auth/session` as `X-CSRF-Token`, from the dashboard's own origin.",
  },
  setup_done: {
    status: 409,
    message: "First-run setup is already done",
    meaning: "A console user with a password exists, so `POST /auth/setup` is closed.",
    fix: "Sign in, or ask an owner for an invitation.",
  },
  invalid_setup_code: {
    status: 403,
    message: "The setup code is missing or wrong",
    meaning: "First-run setup needs the one-time code the server prints in its start-up output and log, or the value of `TIDINGS_SETUP_CODE`.",
    fix: "Open the dashboard link from the server's start-up output (it carries the code), or enter the code it printed.",
  },
  invalid_invitation: {
    status: 400,
    message: "This invitation is invalid, used or expired",
    meaning:
      "The invitation token is unknown, revoked, already accepted or past its expiry, or its inviter no longer holds the role it grants, or it would set the password of an account in a workspace the inviter does not manage.",
    fix: "Ask a workspace owner or admin for a new invitation.",
  },
  public_access_disabled: {
    status: 403,
    message: "Public surfaces are disabled for this app",
    meaning:
      "No longer sent: a private app (`allowPublic` false) answers every public endpoint as an unknown one (`404 app_not_found`), so no answer tells which app keys exist. Kept in the registry for clients that still handle it.",
    fix: "Turn on `allowPublic` in the app's settings.",
  },
  verification_required: {
    status: 403,
    message: "Human verification is required",
    meaning:
      'An intake submission carried no human-verification token, or one that failed, expired or was already used. When the app uses Turnstile the message says so ("Human verification (Turnstile) is required").',
    fix: "Solve the app's verification widget (see `verification` in the public config) and send a fresh token.",
  },
  subscription_inactive: {
    status: 402,
    message: "This workspace's subscription is inactive",
    meaning: "The workspace's subscription is not active or trialing, so intake is closed.",
    fix: "Ask the instance operator to reactivate the workspace's subscription.",
  },
  tier_limit_submissions: {
    status: 402,
    message: "Monthly submission quota reached for this workspace",
    meaning: "The workspace used its monthly submission quota (counted per UTC calendar month).",
    fix: "Wait for the next month, or ask the instance operator to raise the quota.",
  },
  not_found: {
    status: 404,
    message: "Not found",
    meaning: "No route matches the method and path.",
    fix: "Check the path against /api/v1/openapi.json.",
  },
  app_not_found: {
    status: 404,
    message: "App not found",
    meaning: "The app key or id is unknown, or the app is private (`allowPublic` is false): both get the same answer on every public endpoint.",
    fix: "Check the app key in the console.",
  },
  feature_request_not_found: {
    status: 404,
    message: "Feature request not found",
    meaning: "The request does not exist, belongs to another app, or is not approved yet.",
    fix: "List the app's feature requests first.",
  },
  comment_not_found: {
    status: 404,
    message: "Comment not found",
    meaning: "The comment does not exist in this workspace.",
    fix: "List the request's comments first.",
  },
  workspace_not_found: {
    status: 404,
    message: "Workspace not found",
    meaning: "The workspace does not exist or the caller is not a member.",
    fix: "List your workspaces with GET /api/v1/console/me.",
  },
  column_not_found: {
    status: 404,
    message: "Column not found",
    meaning: "The column does not exist in this workspace.",
    fix: "List the app's columns first.",
  },
  board_not_found: {
    status: 404,
    message: "Board not found",
    meaning: "The board does not exist in this workspace.",
    fix: "List the app's boards first.",
  },
  unknown_board: {
    status: 400,
    message: "No such board",
    meaning:
      "A listing filter or a proposal named a board slug or id that the app does not have, or a private board the caller may not see: both get the same answer, so a private board's existence does not leak.",
    fix: "List the boards the caller may see with GET /api/v1/public/apps/<APP_KEY>/boards.",
  },
  default_board: {
    status: 400,
    message: "The default board cannot be deleted or made private",
    meaning: "Every app keeps one public board that proposals go to when they name none.",
    fix: "Make another board the default first.",
  },
  too_many_boards: {
    status: 400,
    message: "This app has as many boards as it may have",
    meaning: "An app may have up to 50 boards.",
    fix: "Delete a board you no longer use.",
  },
  invalid_board_order: {
    status: 400,
    message: "The order must list every board of the app exactly once",
    meaning: "A reorder request omitted, repeated or added board ids.",
    fix: "Send all of the app's board ids in the new order.",
  },
  tag_not_found: {
    status: 404,
    message: "Tag not found",
    meaning: "The tag does not exist in this workspace, or (bulk tagging) belongs to another app.",
    fix: "List the app's tags first.",
  },
  unknown_tag: {
    status: 400,
    message: "No such tag",
    meaning: "A listing filter named a tag slug the app does not have, or a team-only tag: both get the same answer.",
    fix: "Filter on the public tags shown on the app's requests.",
  },
  too_many_tags: {
    status: 400,
    message: "Too many tags",
    meaning: "An app may have up to 200 tags and a request up to 10; a listing filters on up to 5 at once. Nothing was written.",
    fix: "Remove a tag first, or filter on fewer tags.",
  },
  segment_not_found: {
    status: 404,
    message: "Segment not found",
    meaning: "The segment does not exist in this workspace, or (a board's access rule, a release's audience, a list filter) belongs to another app.",
    fix: "List the app's segments first.",
  },
  too_many_segments: {
    status: 400,
    message: "This app has as many segments as it may have",
    meaning: "An app may have up to 50 segments. Nothing was written.",
    fix: "Delete a segment you no longer use.",
  },
  segment_in_use: {
    status: 409,
    message: "The segment is in use",
    meaning: "A private board's access rule or an unpublished release's mail audience names the segment; `details` lists them. Nothing was deleted.",
    fix: "Change those boards' access rules and those releases' audiences first.",
  },
  custom_field_not_found: {
    status: 404,
    message: "Custom field not found",
    meaning: "The custom field does not exist in this workspace.",
    fix: "List the app's custom fields first.",
  },
  too_many_fields: {
    status: 400,
    message: "This app has as many custom fields as it may have",
    meaning: "An app may have up to 30 active custom fields (archived ones do not count). Nothing was written.",
    fix: "Archive a field you no longer ask for.",
  },
  invalid_field_order: {
    status: 400,
    message: "The order must list every active custom field of the app exactly once",
    meaning: "A reorder request omitted, repeated or added field ids, or named an archived field.",
    fix: "Send all of the app's active field ids in the new order.",
  },
  duplicate_pair_same_request: {
    status: 400,
    message: "A request cannot be its own duplicate",
    meaning: "A duplicates-queue action named the same request twice: it cannot be merged into itself or marked as not its own duplicate. Nothing was written.",
    fix: "Send the ids of the two requests of the pair.",
  },
  duplicate_pair_other_app: {
    status: 400,
    message: "Both requests of a pair must belong to the app",
    meaning: "A duplicates-queue action named a request of another app of the workspace: only requests of the same app can be duplicates. Nothing was written.",
    fix: "Pick both requests from the app's duplicates queue.",
  },
  request_already_merged: {
    status: 409,
    message: "This request is already merged into another one",
    meaning: "A duplicates-queue merge named a request that is already merged (someone merged it meanwhile). Nothing was written.",
    fix: "Reload the queue: merged requests leave it.",
  },
  version_not_found: {
    status: 404,
    message: "Version not found",
    meaning: "The version does not exist in this workspace.",
    fix: "List the app's versions first.",
  },
  user_not_found: {
    status: 404,
    message: "User not found",
    meaning: "The console user does not exist.",
    fix: "Add the user as a workspace member first.",
  },
  member_not_found: {
    status: 404,
    message: "Member not found",
    meaning: "The membership does not exist in this workspace.",
    fix: "List the workspace's members first.",
  },
  invalid_archive: {
    status: 400,
    message: "The archive cannot be imported",
    meaning:
      "The uploaded file is not a Tidings archive this server reads: a line that is not JSON, an unknown table or column, a row pointing outside the archive, an attachment that does not match its row, or a file cut short. `details.line` names the line; rows of earlier lines may have been imported.",
    fix: "Export the archive again with `tidings export` or the dashboard, and upload the whole file; importing it again is safe.",
  },
  archive_conflict: {
    status: 409,
    message: "The archive conflicts with data on this server",
    meaning: "The archive's app key, workspace slug or a row id already belongs to another app or workspace here.",
    fix: "Import into an empty server, or delete the app that holds the key first.",
  },
  slug_taken: {
    status: 409,
    message: "That slug is already in use",
    meaning: "Another workspace, app, column, board or tag already uses the slug, or another active custom field of the app uses the key.",
    fix: "Choose another slug (or key).",
  },
  referenced_record_missing: {
    status: 409,
    message: "A record this request refers to does not exist (any more)",
    meaning:
      "The request names a record by id (a version, column, request, user…) that is gone: deleted while the request ran, or never there on a route that has no more specific not-found code. Nothing was written.",
    fix: "Reload the records you refer to and send a current id.",
  },
  write_conflict: {
    status: 409,
    message: "Another request changed the same record at the same time; retry",
    meaning:
      "Two requests wrote the same unique record (an account's email, a membership, …) at the same moment and this one lost. Nothing was written.",
    fix: "Send the request again: it then sees what the other request wrote.",
  },
  invalid_idempotency_key: {
    status: 400,
    message: "Idempotency-Key must be 1 to 255 printable ASCII characters",
    meaning: "A public POST carried an `Idempotency-Key` header that is empty, longer than 255 characters, holds characters outside printable ASCII, or was sent twice.",
    fix: "Send one key per logical request, such as a fresh UUID, and reuse it only to retry that request.",
  },
  idempotency_key_in_use: {
    status: 409,
    message: "A request with this Idempotency-Key is still in progress",
    meaning:
      "Another request with the same key and body is being carried out (or was cut off after it wrote and before its answer was kept; see docs/public-api.md, Idempotency). Nothing was written by this one.",
    fix: "Retry after the `Retry-After` seconds with the same key: you then get the first request's answer.",
  },
  idempotency_key_reused: {
    status: 422,
    message: "This Idempotency-Key was already used for a different request",
    meaning: "The key was sent earlier (within 24 hours) by the same caller to the same route with another body or query. Nothing was written.",
    fix: "Use a new key for a new request; reuse a key only to retry the exact same request.",
  },
  system_column: {
    status: 400,
    message: "System columns cannot be deleted",
    meaning: "The review and done columns are required by moderation and shipping.",
    fix: "Hide or rename the column instead.",
  },
  invalid_column_order: {
    status: 400,
    message: "The order must list every column of the app exactly once",
    meaning: "A reorder request omitted, repeated or added column ids.",
    fix: "Send all of the app's column ids in the new order.",
  },
  last_owner: {
    status: 400,
    message: "A workspace needs at least one owner",
    meaning: "The change would leave the workspace without an owner.",
    fix: "Make another member owner first.",
  },
  invalid_text: {
    status: 400,
    message: "Text must not contain NUL characters",
    meaning: "A JSON string holds the NUL character (\\u0000), which no column stores.",
    fix: "Remove NUL characters from the text.",
  },
  invalid_upload: {
    status: 400,
    message: "The upload is malformed",
    meaning: "The multipart body is truncated or malformed, has no `file` part or more than one, or the file is empty.",
    fix: "Send one non-empty `file` part (and `appKey`) as multipart/form-data.",
  },
  executable_extension_prohibited: {
    status: 400,
    message: "Executable files cannot be uploaded",
    meaning: "The file name ends in an executable extension (`.exe`, `.sh`, `.apk`, …).",
    fix: "Compress the file into a `.zip`, or send a log or text file.",
  },
  unsupported_mime_type: {
    status: 400,
    message: "This file type cannot be uploaded",
    meaning: "An upload session declared a MIME type the server does not store (SVG, HTML, executables).",
    fix: "Declare PNG, JPEG, WebP, GIF or HEIC for images, or a plain data type for files.",
  },
  uploader_identity_required: {
    status: 400,
    message: "A valid X-User-Token is required to create an upload session when not signed in",
    meaning: "An upload session was requested without an end-user token.",
    fix: "Send the SDK's `X-User-Token` header.",
  },
  uploader_mismatch: {
    status: 400,
    message: "Upload session was created by a different uploader",
    meaning: "A submission names an upload made under another end-user token.",
    fix: "Submit with the same `X-User-Token` that uploaded the file.",
  },
  already_finalized: {
    status: 400,
    message: "This upload is already attached to a submission",
    meaning: "A submission names an upload that another submission already uses.",
    fix: "Upload the file again for each submission.",
  },
  invalid_attachment: {
    status: 400,
    message: "An attachment does not name a finished upload of this app",
    meaning: "An `uploadIds` entry or attachment descriptor is unknown, belongs to another app, or was never uploaded.",
    fix: "Attach only what the upload endpoints answered for this app key.",
  },
  session_invalid_or_expired: {
    status: 401,
    message: "The upload session token is invalid or expired",
    meaning: "`PUT /api/v1/uploads/<uploadId>` carried no session token, a wrong one, or one past `expiresAt`.",
    fix: "Create a new upload session and send its `sessionToken` as `Authorization: Bearer`.",
  },
  platform_not_allowed: {
    status: 403,
    message: "This platform is not allowed for this app",
    meaning: "The submission's `platform` is not in the app's `allowedPlatforms`.",
    fix: "Send one of the platforms of the public config's `allowedPlatforms`.",
  },
  invalid_download_link: {
    status: 403,
    message: "This download link is invalid or has expired",
    meaning: "A file link's signature does not match or its `expires` has passed.",
    fix: "Ask the server for a fresh link (upload answer or console submission).",
  },
  upload_not_found: {
    status: 404,
    message: "Upload not found",
    meaning: "The upload id is unknown, or its file was deleted; for a download link, also when its feedback or app was deleted or (for an end user's link) the app is private.",
    fix: "Use the `uploadId` of an upload session slot of this app.",
  },
  submission_not_found: {
    status: 404,
    message: "Submission not found",
    meaning: "The feedback submission does not exist in this workspace.",
    fix: "List the workspace's submissions first.",
  },
  already_uploaded: {
    status: 409,
    message: "This upload slot already holds a file",
    meaning: "The session slot's bytes were already sent.",
    fix: "Create a new upload session for another file.",
  },
  file_too_large: {
    status: 413,
    message: "File exceeds the app's attachment size limit",
    meaning: "The file is larger than the app's `maxAttachmentBytes`.",
    fix: "Send a smaller file; the limit is in the public config.",
  },
  unsupported_image_type: {
    status: 415,
    message: "Only PNG, JPEG, WebP, GIF and HEIC images are supported",
    meaning: "An image upload is SVG, another format, or its bytes do not match the declared type.",
    fix: "Upload a PNG, JPEG, WebP, GIF or HEIC image whose content matches its type.",
  },
  payment_attributes_require_signature: {
    status: 422,
    message: "Payment attributes require a signature",
    meaning: "`PUT …/user` carried isPaying, plan, mrr or company without `signature` and `timestamp`.",
    fix: "Sign the attributes on your backend (cpt-user-attrs-v1, or cpt-user-attrs-v2 with a company; see docs/identifying-users.md) and send `signature` and `timestamp`.",
  },
  company_not_found: {
    status: 404,
    message: "Company not found",
    meaning: "No company with this id belongs to an app of the workspace.",
    fix: "List the app's companies first (`GET …/apps/<appId>/companies`).",
  },
  feature_request_not_linkable: {
    status: 400,
    message: "The feature request cannot take this feedback",
    meaning: "A feedback submission's `featureRequestId` (or a console link) names a request of another app, or one that is not visible: pending, declined or merged into another.",
    fix: "Pick an approved request of the feedback's app (a merged duplicate's `mergedIntoId`), or leave `featureRequestId` out.",
  },
  end_user_not_found: {
    status: 404,
    message: "End user not found",
    meaning: "A vote on behalf names an end user (`endUserId`, the public id) or an `email` no end user of the request's app has; `details` names the one given. Nothing was written.",
    fix: "Use a public id or SSO email of one of the app's end users (the request's voters and the company pages list them).",
  },
  company_has_no_users: {
    status: 409,
    message: "The company has no end users to vote for",
    meaning: "A vote on behalf names a company none of whose end users the host has reported yet. Nothing was written.",
    fix: "Vote for one of the company's users once the host reports them, or name the user by id or email.",
  },
  customer_not_admitted: {
    status: 409,
    message: "The customer may not see the request's board",
    meaning:
      "A vote on behalf names an end user (or the company user it picked) whom the request's private board does not admit: they could not open the request they would follow. Nothing was written.",
    fix: "Vote for a customer the board's access rule admits, change the rule, or move the request to a board the customer sees.",
  },
  invalid_mrr: {
    status: 400,
    message: "MRR must be a finite number from 0 to 1,000,000,000",
    meaning: "A company's `mrr` (signed attributes or the SSO token's `company` claim) is negative, not finite (such as `1e999`) or above 1,000,000,000 currency units.",
    fix: "Send the company's monthly recurring revenue in currency units (`cents / 100`), or null when unknown.",
  },
  unknown_currency: {
    status: 400,
    message: "Unknown currency code",
    meaning: "A `currency` (of the user or of their company) is not an ISO 4217 code in current use, such as `USD` or `EUR` (case does not matter).",
    fix: "Send the three-letter ISO 4217 code of the currency the MRR is in.",
  },
  company_attributes_too_large: {
    status: 400,
    message: "The company's attributes are too large",
    meaning: "A company's `attributes` map has more than 50 keys, a string value longer than 1,000 characters, or is more than 8 KB as canonical JSON.",
    fix: "Report only the attributes your team filters by, and keep long text out of them.",
  },
  stale_signature: {
    status: 401,
    message: "Signature timestamp is outside the allowed window",
    meaning: "The signed `timestamp` is more than 300 seconds away from the server's clock.",
    fix: "Sign with the current time (epoch seconds) and check the signer's clock.",
  },
  invalid_signature: {
    status: 401,
    message: "Invalid signature",
    meaning: "The attribute signature does not match HMAC-SHA256 of the canonical string with the app's signing secret.",
    fix: "Build the canonical lines exactly as documented (8 for cpt-user-attrs-v1, 15 for cpt-user-attrs-v2) and sign with the app's current signing secret.",
  },
  changelog_entry_not_found: {
    status: 404,
    message: "Changelog entry not found",
    meaning: "The release does not exist in this workspace.",
    fix: "List the workspace's changelog first.",
  },
  webhook_not_found: {
    status: 404,
    message: "Webhook endpoint not found",
    meaning: "The webhook endpoint does not exist in this app.",
    fix: "List the app's webhook endpoints first.",
  },
  webhook_delivery_not_found: {
    status: 404,
    message: "Webhook delivery not found",
    meaning: "The delivery does not exist for this webhook endpoint.",
    fix: "List the endpoint's deliveries first.",
  },
  github_not_connected: {
    status: 404,
    message: "This app has no GitHub connection",
    meaning: "The app is not connected to a GitHub repository, or the webhook URL names a connection that no longer exists.",
    fix: "Connect the app to a repository first (`POST …/apps/{appId}/github`), and copy the webhook URL it answers.",
  },
  github_already_connected: {
    status: 409,
    message: "This app is already connected to a GitHub repository",
    meaning: "An app has one GitHub connection; connecting again would orphan its links.",
    fix: "Change the token or mapping with `PATCH …/github`, or disconnect first to use another repository.",
  },
  github_connection_broken: {
    status: 409,
    message: "The GitHub connection is broken",
    meaning: "GitHub refused the connection's token (revoked or expired) or the repository is gone; nothing is sent to GitHub until it is repaired.",
    fix: "Save a new token with `PATCH …/github` (see docs/integrations.md for the permissions).",
  },
  github_issue_not_found: {
    status: 404,
    message: "GitHub issue not found",
    meaning: "The connected repository has no issue with that number (or it is a pull request), or the URL names another repository.",
    fix: "Give the number or URL of an issue of the connected repository.",
  },
  github_link_not_found: {
    status: 404,
    message: "This request is not linked to a GitHub issue",
    meaning: "The request has no linked issue.",
    fix: "Create or link an issue first.",
  },
  github_already_linked: {
    status: 409,
    message: "Already linked to a GitHub issue",
    meaning: "The request already has an issue, or the issue is already linked to another request.",
    fix: "Unlink the request (or the other request) first.",
  },
  github_unavailable: {
    status: 502,
    message: "GitHub could not be reached or refused the call",
    meaning: "GitHub answered an error, was rate limiting the connection, or did not answer in time. `details.status` is GitHub's status when it answered.",
    fix: "Retry later (after `Retry-After` seconds when the answer has it).",
  },
  linear_not_connected: {
    status: 404,
    message: "This app has no Linear connection",
    meaning: "The app is not connected to a Linear team, or the webhook URL names a connection that no longer exists.",
    fix: "Connect the app to a team first (`POST …/apps/{appId}/linear`), and give Linear the webhook URL it answers.",
  },
  linear_already_connected: {
    status: 409,
    message: "This app is already connected to a Linear team",
    meaning: "An app has one Linear connection; connecting again would orphan its links.",
    fix: "Change the key, secret or mapping with `PATCH …/linear`, or disconnect first to use another team.",
  },
  linear_connection_broken: {
    status: 409,
    message: "The Linear connection is broken",
    meaning: "Linear refused the connection's API key (revoked, or without access to the team); nothing is sent to Linear until a new key is saved.",
    fix: "Save a new API key with `PATCH …/linear` (see docs/integrations.md).",
  },
  linear_issue_not_found: {
    status: 404,
    message: "Linear issue not found",
    meaning: "No issue of the connected team has that identifier or URL.",
    fix: "Give the identifier (`ENG-123`) or URL of an issue of the connected team.",
  },
  linear_link_not_found: {
    status: 404,
    message: "This request is not linked to a Linear issue",
    meaning: "The request has no linked Linear issue.",
    fix: "Create or link an issue first.",
  },
  linear_already_linked: {
    status: 409,
    message: "Already linked to a Linear issue",
    meaning: "The request already has a Linear issue, or the issue is already linked to another request.",
    fix: "Unlink the request (or the other request) first.",
  },
  linear_unavailable: {
    status: 502,
    message: "Linear could not be reached or refused the call",
    meaning: "Linear answered an error, was rate limiting the connection, or did not answer in time.",
    fix: "Retry later (after `Retry-After` seconds when the answer has it).",
  },
  invalid_webhook_signature: {
    status: 401,
    message: "Invalid webhook signature",
    meaning: "An inbound webhook's signature (`X-Hub-Signature-256` from GitHub, `Linear-Signature` from Linear) is missing or is not HMAC-SHA256 of the body with the connection's webhook secret, or a Linear delivery's `webhookTimestamp` is more than a minute away.",
    fix: "GitHub: paste the webhook secret the connection showed into the webhook's settings; rotate it if it was lost. Linear: save the signing secret Linear shows for the webhook (`PATCH …/linear`).",
  },
  invalid_confirmation_token: {
    status: 400,
    message: "Invalid or expired confirmation token",
    meaning: "A confirmation token is missing, tampered with, expired or already used.",
    fix: "Subscribe again to receive a fresh confirmation mail.",
  },
  invalid_unsubscribe_token: {
    status: 400,
    message: "Invalid or expired unsubscribe token",
    meaning: "An unsubscribe token is missing or its signature does not match (expiry alone is never refused).",
    fix: "Use the link of a mail you received, or unsubscribe by address.",
  },
  post_required: {
    status: 405,
    message: "GET does not change anything here. POST the token to this endpoint.",
    meaning: "A JSON client sent GET to a confirm or unsubscribe link, which only shows an HTML page.",
    fix: "POST the token (query `token`, JSON `{token}` or form field) to the same URL.",
  },
  request_timeout: {
    status: 408,
    message: "Request timeout",
    meaning: "The request's headers did not arrive in full within 60 seconds. The connection is closed after the answer.",
    fix: "Send the whole request head at once; check for a stalled proxy or network.",
  },
  payload_too_large: {
    status: 413,
    message: "Payload exceeds size limit",
    meaning: "The body is larger than the route accepts (256 KB public, 1 MB console), or its chunk extensions exceed 16 KB.",
    fix: "Send less data; upload files through the upload endpoints.",
  },
  uri_too_long: {
    status: 414,
    message: "URI too long",
    meaning: "A path segment is longer than 1,000 characters, or the request line alone exceeds the 16 KB head limit.",
    fix: "Check the ids and keys in the URL.",
  },
  unsupported_media_type: {
    status: 415,
    message: "Unsupported Content-Type",
    meaning: "The body's Content-Type is not one the route accepts.",
    fix: "Send `Content-Type: application/json`.",
  },
  unsupported_content_encoding: {
    status: 415,
    message: "Unsupported Content-Encoding",
    meaning: "The body was sent with a `Content-Encoding` (gzip, br, …); the server reads bodies uncompressed only.",
    fix: "Send the body uncompressed, without `Content-Encoding` (or with `identity`).",
  },
  expectation_failed: {
    status: 417,
    message: "Expectation failed",
    meaning: "The `Expect` header asked for something other than `100-continue`.",
    fix: "Send no `Expect` header, or `Expect: 100-continue`.",
  },
  rate_limited: {
    status: 429,
    message: "Too many requests. Please try again shortly.",
    meaning: "The client exceeded a rate limit.",
    fix: "Wait for the number of seconds in `Retry-After`.",
  },
  headers_too_large: {
    status: 431,
    message: "Request headers too large",
    meaning:
      "The request line and headers together exceed 16 KB (a request line that alone exceeds it answers `414 uri_too_long` when the server can tell). The connection is closed after the answer.",
    fix: "Send fewer or shorter headers (cookies included); put large data in the body.",
  },
  internal_error: {
    status: 500,
    message: "Internal server error",
    meaning: "An unexpected server fault; the request id is in the logs.",
    fix: "Retry; report the X-Request-Id if it persists.",
  },
  service_unavailable: {
    status: 503,
    message: "Service unavailable",
    meaning: "The server is starting, shutting down or cannot reach its database.",
    fix: "Retry shortly.",
  },
} as const satisfies Record<string, ErrorDefinition>;

/** A stable machine code from the registry. */
export type ErrorCode = keyof typeof ErrorCodes;

/** The error envelope every non-2xx JSON answer carries. */
export interface ErrorBody {
  error: string;
  code?: ErrorCode;
  details?: unknown;
}

/** Field-level validation details (the shape of zod's `flatten()`, read by existing SDKs). */
export interface ValidationDetails {
  formErrors: string[];
  fieldErrors: Record<string, string[]>;
}

/** True when `code` names a registry entry. */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === "string" && Object.hasOwn(ErrorCodes, code);
}
