// The package's screens against the real Tidings server (the built CLI on port 0), not a fake
// fetch: an end user proposes a request from the feature request screen, another votes on it and
// comments in its detail, the author replies, feedback goes out with a PNG from the picker, and
// the changelog overlay shows a release the team published once.
//
// Every step types and presses as a user would (role and accessible name) and waits for what the
// screen shows; every step then checks what the server recorded, through the console API.
import { Blob } from "node:buffer";
import { createHash } from "node:crypto";
import { memoryStorage, SEEN_CHANGELOGS_KEY, type FeedbackClient, type StorageAdapter } from "@tidings/client";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react-native";
import type { ReactNode } from "react";
import { TidingsProvider } from "./TidingsProvider.js";
import { ChangelogOverlay } from "./components/ChangelogOverlay.js";
import { FeatureRequestsScreen } from "./components/FeatureRequestsScreen.js";
import { FeedbackComposer } from "./components/FeedbackComposer.js";
import { solidPng } from "./test-support/png.js";
import { startRealServer, type RealServer } from "@tidings/testing/real-server";

// A cold first run compiles modules while a query waits on the server; give it the time.

let server: RealServer;

beforeAll(async () => {
  server = await startRealServer();
}, 30_000);
afterAll(async () => {
  await server?.close();
});

function app(client: FeedbackClient, children: ReactNode) {
  return render(
    <TidingsProvider client={client} locale="en">
      {children}
    </TidingsProvider>,
  );
}

interface AdminRequest {
  id: string;
  title: string;
  moderation: string;
  voteCount: number;
  voters: { votedAt: string }[];
}

interface AdminComment {
  id: string;
  body: string;
  authorName: string | null;
  authorClerkId: string | null;
  parentId: string | null;
  isTeam: boolean;
}

/** The console's record of the one request titled `title`. */
async function requestTitled(title: string): Promise<AdminRequest> {
  const list = await server.ws<{ requests: AdminRequest[] }>("GET", `/feature-requests?q=${encodeURIComponent(title)}`);
  expect(list.requests.map((r) => r.title)).toEqual([title]);
  return server.ws<AdminRequest>("GET", `/feature-requests/${list.requests[0]!.id}`);
}

/** A request row's accessible name: its title, then its badges and comment count. */
const rowName = (title: string, rest = "") => new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}${rest}(, |$)`);

/** Waits until a tap's round trip is over: the button is no longer busy. */
async function settled(button: ReturnType<typeof screen.getByRole>) {
  await waitFor(() => expect(button).not.toBeBusy());
}

describe("the screens against the real server", () => {
  test("a proposal waits for review, is approved, gets a vote and a comment, and the author replies", async () => {
    // 1. Propose: the author suggests a feature from the feature request screen.
    const author = server.client({ defaultPlatform: "ios" });
    const title = `Offline sync ${Date.now()}`;
    const authorApp = app(author, <FeatureRequestsScreen sort="newest" />);
    fireEvent.press(await screen.findByRole("button", { name: "Suggest a feature" }));
    fireEvent.changeText(await screen.findByLabelText("Title"), title);
    fireEvent.changeText(screen.getByLabelText("Details"), "Keep working on the train.");
    fireEvent.press(screen.getByRole("button", { name: "Submit" }));
    expect(await screen.findByText("Thanks! Your request is waiting for review.")).toBeTruthy();
    // The sheet closed; the refreshed list shows the request with its badge, not votable by its author.
    expect(screen.queryByLabelText("Title")).toBeNull();
    const mine = await screen.findByRole("button", { name: rowName(title, ", Pending review") });
    expect(within(mine).getByText("Pending review")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Your request" })).toBeDisabled();
    authorApp.unmount();

    const review = await requestTitled(title);
    expect(review).toMatchObject({ title, moderation: "pending", voteCount: 0 });
    await server.ws("POST", `/feature-requests/${review.id}/approve`);

    // 2. Vote: another user sees the approved request and votes from the list.
    const voter = server.client({ defaultPlatform: "android" });
    const voterApp = app(voter, <FeatureRequestsScreen sort="newest" />);
    const row = await screen.findByRole("button", { name: rowName(title) });
    expect(within(row).queryByText("Pending review")).toBeNull();
    fireEvent.press(screen.getByRole("button", { name: `Vote for ${title}` }));
    // The count shows at once; the server's answer settles it.
    const voted = await screen.findByRole("button", { name: `Remove your vote for ${title}` });
    expect(within(voted).getByText("1")).toBeTruthy();
    await settled(voted);
    expect(within(voted).getByText("1")).toBeTruthy();
    const afterVote = await server.ws<AdminRequest>("GET", `/feature-requests/${review.id}`);
    expect(afterVote.moderation).toBe("approved");
    expect(afterVote.voteCount).toBe(1);
    expect(afterVote.voters).toHaveLength(1);
    const listed = await server.client().listFeatureRequests({ sort: "newest" });
    expect(listed.requests.find((i) => i.id === review.id)).toMatchObject({ voteCount: 1 });

    // 3. Comment: the voter opens the request and comments.
    fireEvent.press(screen.getByRole("button", { name: rowName(title) }));
    expect(await screen.findByText("No comments yet.")).toBeTruthy();
    fireEvent.changeText(screen.getByLabelText("Add a comment"), "Would use this every day");
    fireEvent.press(screen.getByRole("button", { name: "Post" }));
    expect(await screen.findByText("Would use this every day")).toBeTruthy();
    await waitFor(() => expect(screen.getByLabelText("Add a comment")).toHaveDisplayValue(""));
    voterApp.unmount();

    const commentsUrl = `/feature-requests/${review.id}/comments`;
    const first = await server.ws<{ comments: AdminComment[] }>("GET", commentsUrl);
    expect(first.comments).toEqual([expect.objectContaining({ body: "Would use this every day", authorName: null, parentId: null, isTeam: false })]);
    const comment = first.comments[0]!;
    expect(comment.authorClerkId).toMatch(/^u_/);

    // The author opens their request, sees the comment and replies to it.
    app(author, <FeatureRequestsScreen sort="newest" />);
    fireEvent.press(await screen.findByRole("button", { name: rowName(title, ".*, 1 comment") }));
    expect(await screen.findByText("Would use this every day")).toBeTruthy();
    fireEvent.press(screen.getByRole("button", { name: "Reply to Anonymous" }));
    // The reply form replaces the comment form while it is open.
    await waitFor(() => expect(screen.queryByLabelText("Add a comment")).toBeNull());
    fireEvent.changeText(screen.getByPlaceholderText("Reply to Anonymous"), "Planned for the next release");
    fireEvent.press(screen.getByRole("button", { name: "Post" }));
    expect(await screen.findByText("Planned for the next release")).toBeTruthy();
    expect(await screen.findByLabelText("Add a comment")).toBeTruthy();

    const thread = await server.ws<{ comments: AdminComment[] }>("GET", commentsUrl);
    expect(thread.comments).toHaveLength(2);
    const reply = thread.comments.find((c) => c.body === "Planned for the next release");
    expect(reply).toMatchObject({ parentId: comment.id, isTeam: false });
    expect(reply!.authorClerkId).toMatch(/^u_/);
    expect(reply!.authorClerkId).not.toBe(comment.authorClerkId);
  });

  test("feedback goes out with a PNG from the picker that the team can download byte for byte", async () => {
    const png = solidPng(6, 4, [79, 70, 229]);
    const title = `Crash on the settings tab ${Date.now()}`;
    // The host's picker hands over an upload request with the image's bytes in a Blob (Node's,
    // the global one here; React Native's typings would take only strings and blobs).
    const image = new Blob([png], { type: "image/png" });
    const pickAttachment = () => ({ file: image, filename: "screen.png", mimeType: "image/png" });
    app(server.client(), <FeedbackComposer pickAttachment={pickAttachment} defaultPlatform="ios" />);

    fireEvent.changeText(await screen.findByLabelText("Title"), title);
    fireEvent.changeText(screen.getByLabelText("Details"), "It closes when I open settings.");
    fireEvent.press(screen.getByRole("button", { name: "Add files" }));
    expect(await screen.findByLabelText("screen.png attached")).toBeTruthy();
    fireEvent.press(screen.getByRole("button", { name: "Send" }));

    expect(await screen.findByRole("header", { name: "Thank you! Your feedback was sent." })).toBeTruthy();
    const reference = screen.getByText(/^Reference: /);
    const submissionId = String(reference.props.children).replace(/^Reference: /, "");

    const detail = await server.ws<{
      submission: { title: string; platform: string; attachmentCount: number };
      attachments: { mimeType: string; sizeBytes: number; sha256: string; url: string }[];
    }>("GET", `/submissions/${submissionId}`);
    expect(detail.submission).toMatchObject({ title, platform: "ios", attachmentCount: 1 });
    expect(detail.attachments).toEqual([
      expect.objectContaining({ mimeType: "image/png", sizeBytes: png.length, sha256: createHash("sha256").update(png).digest("hex") }),
    ]);
    const download = await fetch(new URL(detail.attachments[0]!.url, server.baseUrl));
    expect(download.status).toBe(200);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(png);
  });

  test("the changelog overlay shows a newly published release once per device", async () => {
    const versionLabel = `9.${Date.now()}`;
    const release = `Dark mode everywhere ${versionLabel}`;
    await server.ws("POST", "/changelog", { appId: server.demo.appId, title: release, body: "- **Dark mode** on every screen", versionLabel, publishNow: true });

    // The device's storage, counting reads of the seen releases so the test knows when the overlay decided.
    const inner = memoryStorage();
    const storage: StorageAdapter & { seenReads: number } = {
      seenReads: 0,
      getItem(key) {
        if (key === SEEN_CHANGELOGS_KEY) storage.seenReads++;
        return inner.getItem(key);
      },
      setItem: (key, value) => inner.setItem(key, value),
      removeItem: (key) => inner.removeItem?.(key),
    };

    const first = server.client({ storage });
    // The overlay's copy is the app's (console appearance settings), else the built-in one.
    const copy = (await server.client().getConfig()).sdk?.changelogOverlay ?? {};
    const heading = copy.title || "What's new";
    const launch = app(first, <ChangelogOverlay onlyIfUnseen />);
    expect(await screen.findByRole("header", { name: heading })).toBeTruthy();
    expect(screen.getByRole("header", { name: release })).toBeTruthy();
    expect(screen.getByText("Dark mode")).toBeTruthy();
    fireEvent.press(screen.getByRole("button", { name: copy.primaryButton || "Continue" }));
    expect(screen.queryByText(release)).toBeNull();
    await waitFor(async () => expect(await first.seenChangelogs.hasSeen(versionLabel)).toBe(true));
    launch.unmount();

    // The next launch: a fresh client on the same storage fetches the changelog and shows nothing.
    const reads = storage.seenReads;
    app(server.client({ storage }), <ChangelogOverlay onlyIfUnseen />);
    await waitFor(() => expect(storage.seenReads).toBeGreaterThan(reads));
    await act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
    expect(screen.queryByText(release)).toBeNull();
    expect(screen.queryByText(heading)).toBeNull();
  });
});
