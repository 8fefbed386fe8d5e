import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

/** A real SMTP server on a free loopback port that keeps every message it accepts (tests only). */
export interface SmtpTestServer {
  url: string;
  messages: ParsedMail[];
  /** Messages to one recipient. */
  to(address: string): ParsedMail[];
  /** Makes the next `count` deliveries fail with a 451 (a temporary error). */
  failNext(count: number): void;
  close(): Promise<void>;
}

/**
 * Starts the server. A message is parsed before it is acknowledged, so once a send resolved its
 * mail is in `messages`.
 *
 * @example
 * ```ts
 * const smtp = await startSmtpTestServer();
 * const app = await createTestApp("sqlite", { smtpUrl: smtp.url });
 * ```
 */
export async function startSmtpTestServer(): Promise<SmtpTestServer> {
  const messages: ParsedMail[] = [];
  let failures = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          if (failures > 0) {
            failures--;
            const error = new Error("Try again later") as Error & { responseCode: number };
            error.responseCode = 451;
            callback(error);
            return;
          }
          messages.push(mail);
          callback();
        })
        .catch((error: unknown) => callback(error as Error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    to: (address) => messages.filter((m) => (Array.isArray(m.to) ? m.to : [m.to]).some((a) => a?.value.some((v) => v.address === address))),
    failNext: (count) => {
      failures = count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
