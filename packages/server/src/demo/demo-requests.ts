import type { Kysely } from "kysely";
import type { Clock } from "../clock.js";
import type { DialectName } from "../db/database.js";
import type { Database } from "../db/schema.js";
import { addComment } from "../feature-requests/comments.js";
import { createFeatureRequest } from "../feature-requests/feature-requests.js";
import { recountVotes } from "../feature-requests/recounts.js";
import { ensureEndUser } from "../users/identity.js";

interface DemoRequest {
  title: string;
  description: string;
  column: "under-review" | "planned" | "in-progress" | "shipped";
  daysAgo: number;
  votes: number;
  comments?: Array<{ author: string; body: string; team?: boolean }>;
  pending?: boolean;
}

// A believable board: a spread of stages, ages, vote counts and a few conversations.
const REQUESTS: DemoRequest[] = [
  { title: "Dark mode", description: "A dark theme that follows the system setting, easier on the eyes at night.", column: "shipped", daysAgo: 60, votes: 42, comments: [{ author: "Maya", body: "Would love this for late-night sessions." }, { author: "Team", body: "Shipped in 1.0, thanks for the votes!", team: true }] },
  { title: "Export data to CSV", description: "Let me download my entries as a spreadsheet to analyse them elsewhere.", column: "in-progress", daysAgo: 40, votes: 31, comments: [{ author: "Leo", body: "An Excel-friendly export would be perfect." }] },
  { title: "Offline mode", description: "Keep working on the train; sync when the connection comes back.", column: "planned", daysAgo: 35, votes: 27 },
  { title: "Widgets for the home screen", description: "A small widget showing today's summary.", column: "planned", daysAgo: 28, votes: 19, comments: [{ author: "Ana", body: "A lock-screen widget too, please!" }] },
  { title: "Two-factor authentication", description: "Support authenticator apps for extra account security.", column: "in-progress", daysAgo: 22, votes: 24 },
  { title: "Shared workspaces for families", description: "Invite family members and share lists with them.", column: "under-review", daysAgo: 18, votes: 12 },
  { title: "Apple Watch app", description: "Quick capture from the wrist.", column: "under-review", daysAgo: 14, votes: 9, comments: [{ author: "Sam", body: "Complications would be great." }, { author: "Team", body: "Looking into it for the next quarter.", team: true }] },
  { title: "Custom reminder sounds", description: "Pick a sound per reminder so I know which one fired.", column: "under-review", daysAgo: 9, votes: 6 },
  { title: "Markdown in notes", description: "Bold, lists and links inside notes.", column: "planned", daysAgo: 6, votes: 15 },
  { title: "Café mode: larger buttons", description: "Bigger touch targets when using the app one-handed.", column: "under-review", daysAgo: 3, votes: 4 },
  { title: "Import from other apps", description: "Bring my data over from the app I used before.", column: "under-review", daysAgo: 1, votes: 2 },
  { title: "Calendar integration", description: "Show my entries next to calendar events.", column: "under-review", daysAgo: 0, votes: 0, pending: true },
];

/** Seeds the demo app's feature requests, votes and comments (inside the seeding transaction). */
export async function seedDemoRequests(trx: Kysely<Database>, clock: Clock, dialect: DialectName, appId: string): Promise<void> {
  const columns = new Map(
    (await trx.selectFrom("boardColumns").select(["id", "slug"]).where("appId", "=", appId).execute()).map((c) => [c.slug, c.id]),
  );
  const voters = [];
  for (let i = 0; i < 45; i++) voters.push(await ensureEndUser(trx, clock, appId, `demo-voter-${i}`));
  const now = clock.now().getTime();
  for (const r of REQUESTS) {
    const at: Clock = { now: () => new Date(now - r.daysAgo * 86_400_000) };
    const requester = voters[r.daysAgo % voters.length]!;
    const row = await createFeatureRequest(trx, at, dialect, {
      appId,
      title: r.title,
      description: r.description,
      approved: r.pending !== true,
      requesterEndUserId: requester.id,
      requesterName: null,
      requesterEmail: null,
      createdByAdmin: false,
      columnId: columns.get(r.column)!,
      actor: null,
    });
    for (let v = 0; v < r.votes; v++) {
      // Votes spread over the request's lifetime, so `trending` has something to rank.
      const votedAt = new Date(now - Math.floor((r.daysAgo * 86_400_000 * v) / Math.max(r.votes, 1)));
      await trx
        .insertInto("featureRequestVotes")
        .values({ featureRequestId: row.id, endUserId: voters[v % voters.length]!.id, shipNotifyEmail: null, createdAt: votedAt.toISOString() })
        .execute();
    }
    await recountVotes(trx, row.id);
    for (const [i, c] of (r.comments ?? []).entries()) {
      const commentClock: Clock = { now: () => new Date(now - r.daysAgo * 86_400_000 + (i + 1) * 3_600_000) };
      await addComment(trx, commentClock, {
        featureRequestId: row.id,
        body: c.body,
        authorName: c.author,
        authorEmail: null,
        endUserId: c.team === true ? null : voters[(i + 7) % voters.length]!.id,
        teamUserId: null,
        isTeam: c.team === true,
        parentId: null,
      });
    }
  }
}
