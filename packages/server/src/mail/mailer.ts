import fs from "node:fs/promises";
import path from "node:path";
import type { FastifyBaseLogger } from "fastify";
import type nodemailer from "nodemailer";
import { JOB_LEASE_MS } from "../jobs/job-claims.js";

/** One outgoing mail, fully rendered. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (List-Unsubscribe, …); nodemailer encodes them, so no value can add a header. */
  headers: Record<string, string>;
  /** Stable across retries, so a receiving server can drop a duplicate after a crash mid-send. */
  messageId: string;
  /** Links in the mail, logged when mail goes to the outbox folder. */
  links: readonly string[];
}

/** Sends mail. Throws when the message was not accepted (the job queue retries). */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** Mail settings, from `SMTP_URL`, `MAIL_FROM` and `DATA_DIR`. */
export interface MailerOptions {
  smtpUrl: string | null;
  from: string;
  dataDir: string;
  /** The job lease (`TIDINGS_JOB_LEASE_SECONDS`): SMTP timeouts stay inside it. @default JOB_LEASE_MS */
  leaseMs?: number;
}

/**
 * A transport made on the first mail: nodemailer is loaded then, not when the server starts, so an
 * instance that sends no mail never loads it (see docs/capacity.md, "A server at rest").
 */
function onFirstMail<T extends { close(): void }>(make: (mailer: typeof nodemailer) => T): { transport(): Promise<T>; close(): void } {
  let made: Promise<T> | undefined;
  return {
    transport: () => (made ??= import("nodemailer").then(({ default: mailer }) => make(mailer))),
    close: () => void made?.then((transport) => transport.close(), () => undefined),
  };
}

/**
 * Nodemailer to `smtpUrl`, or, without one, `.eml` files under `DATA_DIR/outbox` with the links
 * logged (the embedded default, so a fresh install can confirm a subscription by hand).
 *
 * @example
 * ```ts
 * const mailer = createMailer({ smtpUrl: "smtp://mail:25", from: "Tidings <no-reply@example.com>", dataDir: "./data" }, log);
 * ```
 */
export function createMailer(options: MailerOptions, log: FastifyBaseLogger): Mailer {
  const toMail = (m: MailMessage) => ({
    from: options.from,
    to: m.to,
    subject: m.subject.replace(/[\r\n]+/g, " "),
    text: m.text,
    html: m.html,
    headers: m.headers,
    messageId: m.messageId,
  });
  if (options.smtpUrl !== null) {
    // Timeouts well inside the job lease, so a stalled server fails the send and the job is
    // retried, rather than another instance taking the job over while this send still runs.
    const lease = options.leaseMs ?? JOB_LEASE_MS;
    const waitMs = Math.min(30_000, Math.floor(lease / 4));
    const smtpUrl = options.smtpUrl;
    const smtp = onFirstMail((mailer) => mailer.createTransport({ url: smtpUrl, connectionTimeout: waitMs, greetingTimeout: waitMs, socketTimeout: Math.min(60_000, Math.floor(lease / 2)) }));
    return {
      send: async (message) => {
        await (await smtp.transport()).sendMail(toMail(message));
      },
      close: smtp.close,
    };
  }
  const outbox = path.join(options.dataDir, "outbox");
  const files = onFirstMail((mailer) => mailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" }));
  return {
    send: async (message) => {
      const info = await (await files.transport()).sendMail(toMail(message));
      await fs.mkdir(outbox, { recursive: true });
      const safeId = message.messageId.replace(/[^A-Za-z0-9._-]/g, "_");
      const file = path.join(outbox, `${Date.now()}-${safeId}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      log.info({ to: message.to, subject: message.subject, file, links: message.links }, "mail written to the outbox (SMTP_URL is not set)");
    },
    close: files.close,
  };
}
