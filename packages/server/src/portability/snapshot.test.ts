import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_APP_KEY } from "../demo/seed-demo.js";
import { testDialects } from "@tidings/testing/test-database";
import { createUploadTestApp, type UploadTestApp } from "@tidings/testing/uploads-kit";
import { importArchive } from "./archive-import.js";
import { exportArchive } from "./export.js";
import { withSnapshot } from "./snapshot.js";

describe.each(testDialects())("an export taken while the app changes, on %s", (dialect) => {
  let source: UploadTestApp;
  let target: UploadTestApp;
  beforeAll(async () => {
    source = await createUploadTestApp(dialect);
    target = await createUploadTestApp(dialect, { demo: false });
  });
  afterAll(async () => {
    await source?.close();
    await target?.close();
  });

  it("is the app as of its first read: a voter arriving mid-export is in neither its users nor its votes, and it imports", async () => {
    const db = source.app.ctx.db;
    const lines = withSnapshot(db, (k) => exportArchive(k, source.app.ctx.storage, { scope: { appKey: DEMO_APP_KEY }, pageSize: 5 }));
    const read: string[] = [];
    // Read up to the first request: end users are behind us, votes ahead.
    for (;;) {
      const next = await lines.next();
      if (next.done === true) throw new Error("archive ended early");
      read.push(next.value);
      if (next.value.includes('"table":"featureRequests"')) break;
    }
    const request = JSON.parse(read.at(-1)!) as { row: { id: string } };
    const vote = await source.app.inject({ method: "POST", url: `/api/v1/feature-requests/${request.row.id}/vote`, headers: { "x-user-token": "late-voter" }, payload: {} });
    expect(vote.statusCode).toBe(200);
    expect(vote.json()).toMatchObject({ voted: true });
    for await (const line of lines) read.push(line);

    const end = JSON.parse(read.at(-1)!) as { counts: Record<string, number> };
    expect(end.counts.featureRequestVotes).toBe(191);
    const summary = await importArchive(target.app.ctx.db, target.app.ctx.storage, Readable.from(read));
    expect(summary.inserted.featureRequestVotes).toBe(191);
  });
});
