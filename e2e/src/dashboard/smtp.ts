import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

/** A real SMTP server on a loopback port that keeps every message it accepts (browser tests). */
export interface Inbox {
  url: string;
  messages: ParsedMail[];
  to(address: string): ParsedMail[];
  close(): Promise<void>;
}

export async function startInbox(): Promise<Inbox> {
  const messages: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    // On close, connections still open (a client's QUIT not yet through on a loaded machine) are
    // cut after a second, not smtp-server's default 30 s, which is also the test hooks' timeout.
    closeTimeout: 1000,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          messages.push(mail);
          callback();
        },
        (error: unknown) => callback(error as Error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    to: (address) => messages.filter((m) => (Array.isArray(m.to) ? m.to : [m.to]).some((a) => a?.value.some((v) => v.address === address))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a mail's text that contains `part`. */
export function linkIn(mail: ParsedMail | undefined, part: string): string {
  const link = (mail?.text ?? "").match(/https?:\/\/\S+/g)?.find((l) => l.includes(part));
  if (link === undefined) throw new Error(`no ${part} link in: ${mail?.text}`);
  return link;
}
