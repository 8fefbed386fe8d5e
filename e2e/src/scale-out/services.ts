import { randomBytes } from "node:crypto";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { simpleParser, type ParsedMail } from "mailparser";
import pg from "pg";
import S3rver from "s3rver";
import { SMTPServer, type SMTPServerSession } from "smtp-server";

/**
 * The PostgreSQL (`TEST_DATABASE_URL`) and Redis (`TEST_REDIS_URL`, default the local one) the
 * scale-out test needs, or null after saying why it is skipped. With CI=true a missing one fails.
 */
export async function sharedServices(env: Record<string, string | undefined> = process.env): Promise<{ databaseUrl: string; redisUrl: string } | null> {
  const skip = (why: string) => {
    if (env.CI === "true") throw new Error(`CI=true but ${why}: the scale-out test is required in CI`);
    process.stderr.write(`Skipping the scale-out test: ${why}\n`);
    return null;
  };
  const databaseUrl = env.TEST_DATABASE_URL;
  if (!databaseUrl) return skip("TEST_DATABASE_URL is not set (a PostgreSQL database the test may create databases from)");
  const redisUrl = env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
  const probe = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on("error", () => {});
  try {
    await probe.connect();
    if ((await probe.ping()) !== "PONG") return skip(`Redis at ${redisUrl} does not answer PING`);
  } catch {
    return skip(`no Redis at ${redisUrl}`);
  } finally {
    probe.disconnect();
  }
  return { databaseUrl, redisUrl };
}

/** A database of its own on the server of `baseUrl`, dropped (with its connections) by `drop`. */
export async function createThrowawayDatabase(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `tidings_e2e_${randomBytes(6).toString("hex")}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

/** s3rver on a free loopback port over a temp folder, with one bucket, and the environment that points an instance at it. */
export async function startS3Server(): Promise<{ env: Record<string, string>; objectCount(): number; close(): Promise<void> }> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-scale-out-s3-"));
  const bucket = "tidings-scale-out";
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  return {
    env: {
      STORAGE_URL: `s3://${bucket}/uploads`,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: "us-east-1",
      S3_FORCE_PATH_STYLE: "true",
      AWS_ACCESS_KEY_ID: "S3RVER",
      AWS_SECRET_ACCESS_KEY: "S3RVER",
    },
    // s3rver keeps each object as a folder holding `._S3rver_object`.
    objectCount: () => (fs.readdirSync(path.join(directory, bucket), { recursive: true }) as string[]).filter((f) => f.endsWith("._S3rver_object")).length,
    async close() {
      server.httpServer.closeAllConnections();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** A message the slow inbox accepted, with the envelope sender that says which instance sent it. */
export interface AcceptedMail {
  sender: string;
  mail: ParsedMail;
}

/**
 * A real SMTP server on loopback that takes `acceptDelayMs` before answering each message's DATA,
 * as a busy mail relay does. `beforeAccept` runs when a message has arrived and is not yet
 * answered; answering false drops it (the sender was killed meanwhile, so it never heard a 250).
 */
export async function startSlowInbox(acceptDelayMs: number) {
  const accepted: AcceptedMail[] = [];
  const dropped: AcceptedMail[] = [];
  let beforeAccept: (sender: string, mail: ParsedMail) => boolean | Promise<boolean> = () => true;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    closeTimeout: 1000,
    onData(stream, session: SMTPServerSession, callback) {
      const sender = session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address;
      simpleParser(stream)
        .then(async (mail) => {
          const keep = await beforeAccept(sender, mail);
          await new Promise((resolve) => setTimeout(resolve, acceptDelayMs));
          if (keep) {
            accepted.push({ sender, mail });
            callback();
          } else {
            dropped.push({ sender, mail });
            callback(new Error("connection lost before the message was accepted"));
          }
        })
        .catch((error: unknown) => callback(error as Error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    accepted,
    dropped,
    onBeforeAccept(hook: typeof beforeAccept) {
      beforeAccept = hook;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The addresses a parsed mail went to. */
export function recipientsOf(mail: ParsedMail): string[] {
  return (Array.isArray(mail.to) ? mail.to : [mail.to]).flatMap((to) => to?.value.map((v) => v.address ?? "") ?? []);
}
