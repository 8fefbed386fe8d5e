import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import fs from "node:fs";
import type { Socket } from "node:net";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { S3Storage } from "../../server/src/storage/s3-storage.js";

/** s3rver accepts these keys (and checks the signatures made with them). */
const S3RVER_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

/** A running S3-protocol server on loopback, with one empty bucket. */
export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** Environment that points a server at this bucket, as an operator would set it. */
  env(prefix?: string): Record<string, string>;
  /** A storage on this server's bucket under `prefix`. */
  storage(prefix?: string): S3Storage;
  /** Bytes the server has read off its sockets so far (requests with their bodies). */
  bytesReceived(): number;
  /** Every object key in the bucket with its size, sorted by key. */
  objects(): Promise<{ key: string; size: number }[]>;
  close(): Promise<void>;
}

/**
 * Starts s3rver (the S3 HTTP API over a temp folder) on a free loopback port with the bucket
 * `tidings-test`. Storages it hands out are closed with it.
 *
 * @example
 * ```ts
 * const s3 = await startTestS3Server();
 * const storage = s3.storage("uploads");
 * expect(await s3.objects()).toEqual([]);
 * ```
 */
export async function startTestS3Server(): Promise<TestS3Server> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-s3-"));
  const bucket = "tidings-test";
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const sockets = new Set<Socket>();
  let closedBytes = 0;
  server.httpServer.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => {
      closedBytes += socket.bytesRead;
      sockets.delete(socket);
    });
  });
  const storages: S3Storage[] = [];
  const storage = (prefix = "") => {
    const s = new S3Storage({ bucket, prefix, endpoint, region: "us-east-1", forcePathStyle: true, credentials: S3RVER_CREDENTIALS });
    storages.push(s);
    return s;
  };
  const lister = storage();
  return {
    endpoint,
    bucket,
    env: (prefix = "") => ({
      STORAGE_URL: `s3://${bucket}/${prefix}`,
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_FORCE_PATH_STYLE: "true",
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    }),
    storage,
    bytesReceived: () => [...sockets].reduce((sum, socket) => sum + socket.bytesRead, closedBytes),
    async objects() {
      const found: { key: string; size: number }[] = [];
      let token: string | undefined;
      do {
        const page = await lister.client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
        for (const o of page.Contents ?? []) found.push({ key: o.Key ?? "", size: o.Size ?? 0 });
        token = page.NextContinuationToken;
      } while (token !== undefined);
      return found.sort((a, b) => a.key.localeCompare(b.key));
    },
    async close() {
      await Promise.all(storages.map((s) => s.close()));
      server.httpServer.closeAllConnections();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
