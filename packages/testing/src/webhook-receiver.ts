import http from "node:http";
import type { AddressInfo } from "node:net";

/** One request as the receiver saw it: the raw body, as signed. */
export interface ReceivedHook {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** What the receiver answers a request with, or `hang`: never answer. */
export type ReceiverReply =
  | {
      status: number;
      body?: string;
      headers?: Record<string, string>;
    }
  | "hang";

/**
 * A real HTTP server on loopback standing in for a webhook receiver (a customer's endpoint, Slack
 * or Discord): records every request and answers with what `reply` returns for it.
 *
 * @example
 * ```ts
 * const receiver = await startWebhookReceiver(() => ({ status: 204 }));
 * await receiver.close();
 * ```
 */
export async function startWebhookReceiver(initial: (hook: ReceivedHook, index: number) => ReceiverReply = () => ({ status: 200, body: "ok" }), host = "127.0.0.1") {
  let reply = initial;
  const received: ReceivedHook[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers[name] = value;
      const hook = { method: req.method ?? "", path: req.url ?? "/", headers, body: Buffer.concat(chunks).toString("utf8") };
      received.push(hook);
      const answer = reply(hook, received.length - 1);
      if (answer === "hang") return;
      res.writeHead(answer.status, { "content-type": "text/plain", ...answer.headers });
      res.end(answer.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    /** Requests whose body is a JSON event of `type` (standard format). */
    ofType: (type: string) => received.filter((r) => (JSON.parse(r.body) as { type?: string }).type === type),
    /** Changes the answer from now on. */
    answer(next: (hook: ReceivedHook, index: number) => ReceiverReply): void {
      reply = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
