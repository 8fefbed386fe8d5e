import http from "node:http";
import type { AddressInfo } from "node:net";

/** What the stand-in vendor answers: a JSON body (status 200 unless given), or never. */
export type VendorReply = { status?: number; body: unknown } | "hang";

/** One siteverify call as the vendor saw it. */
export interface VendorCall {
  path: string;
  form: URLSearchParams;
}

/**
 * A local stand-in for a verification vendor's siteverify endpoint (the only thing tests mock):
 * records every call and answers with what `reply` returns for it.
 *
 * @example
 * ```ts
 * const vendor = await startVendorServer(() => ({ body: { success: true } }));
 * const config = { turnstileVerifyUrl: `${vendor.url}/turnstile` };
 * ```
 */
export async function startVendorServer(initial: (call: VendorCall) => VendorReply) {
  let reply = initial;
  const calls: VendorCall[] = [];
  const server = http.createServer((req, res) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (text += chunk));
    req.on("end", () => {
      const call = { path: req.url ?? "/", form: new URLSearchParams(text) };
      calls.push(call);
      const answer = reply(call);
      if (answer === "hang") return;
      res.writeHead(answer.status ?? 200, { "content-type": "application/json" });
      res.end(typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    /** Changes the answer from now on. */
    answer(next: (call: VendorCall) => VendorReply): void {
      reply = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A URL on which nothing listens: a vendor that is down. */
export async function deadVendorUrl(): Promise<string> {
  const vendor = await startVendorServer(() => ({ body: {} }));
  await vendor.close();
  return vendor.url;
}
