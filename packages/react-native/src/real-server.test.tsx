// The package against the real Tidings server (the built CLI on port 0), not a fake fetch: an end
// user proposes a request, another votes on it and comments, and feedback goes out with a PNG.
//
// `driver` holds how the user acts. Today each step runs the shared hooks (and VoteButton, the
// screen part on main); when a screen lands, its step renders the screen and types and presses
// by label instead. The assertions read what the user sees and what the server recorded through
// the console API, so they stay as they are.
import { createHash } from "node:crypto";
import type { FeedbackClient, FeatureRequestDraft } from "@tidings/client";
import { useComments, useFeatureRequests, useFeedbackComposer, useProposeRequest } from "@tidings/react-core";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { act, fireEvent, render, renderHook, screen, waitFor, within } from "@testing-library/react-native";
import type { ReactNode } from "react";
import { Text, View } from "react-native";
import { TidingsProvider } from "./TidingsProvider.js";
import { VoteButton } from "./components/VoteButton.js";
import { solidPng } from "./test-support/png.js";
import { startRealServer, type RealServer } from "./test-support/real-server.js";

let server: RealServer;

beforeAll(async () => {
  server = await startRealServer();
}, 30_000);
afterAll(async () => {
  await server?.close();
});

function wrapper(client: FeedbackClient) {
  return function Wrapper(props: { children: ReactNode }) {
    return (
      <TidingsProvider client={client} locale="en">
        {props.children}
      </TidingsProvider>
    );
  };
}

/** The listing with a vote button per request (later: `<FeatureRequestsScreen />`). */
function Listing() {
  const list = useFeatureRequests({ sort: "newest" });
  return (
    <View>
      {list.items.map((item) => (
        <View key={item.id} accessibilityLabel={`request ${item.title}`}>
          <Text>{item.title}</Text>
          <VoteButton item={item} votes={list.votes} />
        </View>
      ))}
    </View>
  );
}

/** How an end user acts; each step is one screen's job once that screen is on main. */
const driver = {
  /** Later: FeatureRequestComposeSheet (type title and details, press Submit). */
  async propose(client: FeedbackClient, draft: FeatureRequestDraft) {
    const { result } = renderHook(() => useProposeRequest(), { wrapper: wrapper(client) });
    await waitFor(() => expect(result.current.enabled).toBe(true));
    let created: Awaited<ReturnType<typeof result.current.submit>> = null;
    await act(async () => {
      created = await result.current.submit(draft);
    });
    expect(result.current.error).toBeUndefined();
    return created!;
  },

  /** Later: FeatureRequestsScreen (the same button, found by the same label). */
  async vote(client: FeedbackClient, title: string) {
    render(<Listing />, { wrapper: wrapper(client) });
    fireEvent.press(await screen.findByRole("button", { name: `Vote for ${title}` }));
    const voted = await screen.findByRole("button", { name: `Remove your vote for ${title}` });
    // The count shows at once; the server's answer settles it.
    await waitFor(() => expect(voted).not.toBeBusy());
    return voted;
  },

  /** Later: FeatureRequestDetail (type in "Add a comment", press Post). */
  async comment(client: FeedbackClient, requestId: string, body: string) {
    const { result } = renderHook(() => useComments(requestId), { wrapper: wrapper(client) });
    await waitFor(() => expect(result.current.status).toBe("ready"));
    await act(async () => {
      expect(await result.current.post({ body, authorName: "Robin" })).toBe(true);
    });
    return result.current.comments.map((c) => c.body);
  },

  /** Later: FeedbackComposer with a picker function handing it the PNG. */
  async sendFeedback(client: FeedbackClient, draft: { title: string; details: string }, png: Uint8Array) {
    const { result } = renderHook(() => useFeedbackComposer({ defaultPlatform: "ios" }), { wrapper: wrapper(client) });
    await waitFor(() => expect(result.current.enabled).toBe(true));
    act(() => result.current.addAttachment({ file: png, filename: "screen.png", mimeType: "image/png" }));
    await waitFor(() => expect(result.current.attachments.map((a) => a.status)).toEqual(["ready"]));
    act(() => {
      result.current.setTitle(draft.title);
      result.current.setDetails(draft.details);
    });
    let sent: Awaited<ReturnType<typeof result.current.submit>> = null;
    await act(async () => {
      sent = await result.current.submit();
    });
    expect(result.current.error).toBeUndefined();
    expect(result.current.status).toBe("sent");
    return sent!;
  },
};

interface AdminRequest {
  id: string;
  title: string;
  moderation: string;
  voteCount: number;
  voters: { votedAt: string }[];
}

describe("against the real server", () => {
  test("a proposal waits for review, is approved, then gets a vote and a comment from another user", async () => {
    const author = server.client({ defaultPlatform: "ios" });
    const title = `Offline sync ${Date.now()}`;
    const proposed = await driver.propose(author, { title, details: "Keep working on the train." });
    expect(proposed.pending).toBe(true);
    const review = await server.ws<AdminRequest>("GET", `/feature-requests/${proposed.featureRequestId}`);
    expect(review).toMatchObject({ title, moderation: "pending", voteCount: 0 });

    // The author sees their own request in the listing, not votable.
    const own = render(<Listing />, { wrapper: wrapper(author) });
    const mine = await screen.findByLabelText(`request ${title}`);
    expect(within(mine).getByRole("button", { name: "Your request" })).toBeDisabled();
    own.unmount();

    await server.ws("POST", `/feature-requests/${proposed.featureRequestId}/approve`);

    const voter = server.client({ defaultPlatform: "android" });
    const voted = await driver.vote(voter, title);
    expect(within(voted).getByText("1")).toBeTruthy();
    const afterVote = await server.ws<AdminRequest>("GET", `/feature-requests/${proposed.featureRequestId}`);
    expect(afterVote.moderation).toBe("approved");
    expect(afterVote.voteCount).toBe(1);
    expect(afterVote.voters).toHaveLength(1);

    const shown = await driver.comment(voter, proposed.featureRequestId, "Would use this every day");
    expect(shown).toContain("Would use this every day");
    const thread = await server.ws<{ comments: { body: string; authorName: string | null; isTeam: boolean }[] }>(
      "GET",
      `/feature-requests/${proposed.featureRequestId}/comments`,
    );
    expect(thread.comments).toEqual([expect.objectContaining({ body: "Would use this every day", authorName: "Robin", isTeam: false })]);
  });

  test("feedback goes out with a PNG the team can download byte for byte", async () => {
    const png = solidPng(6, 4, [79, 70, 229]);
    const title = `Crash on the settings tab ${Date.now()}`;
    const sent = await driver.sendFeedback(server.client(), { title, details: "It closes when I open settings." }, png);

    const detail = await server.ws<{
      submission: { title: string; platform: string; attachmentCount: number };
      attachments: { mimeType: string; sizeBytes: number; sha256: string; url: string }[];
    }>("GET", `/submissions/${sent.submissionId}`);
    expect(detail.submission).toMatchObject({ title, platform: "ios", attachmentCount: 1 });
    expect(detail.attachments).toEqual([
      expect.objectContaining({ mimeType: "image/png", sizeBytes: png.length, sha256: createHash("sha256").update(png).digest("hex") }),
    ]);
    const download = await fetch(new URL(detail.attachments[0]!.url, server.baseUrl));
    expect(download.status).toBe(200);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(png);
  });
});
