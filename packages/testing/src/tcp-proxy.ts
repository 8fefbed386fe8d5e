import net from "node:net";

/** A loopback TCP proxy a test can cut, hang and restore, to show what a lost dependency does. */
export interface TcpProxy {
  /** `host:port` clients connect to. */
  readonly address: string;
  /** Drops every open connection and refuses new ones. */
  cut(): Promise<void>;
  /** Keeps connections open but forwards nothing either way: a hung server. */
  hang(): void;
  /** Forwards again (new connections after a cut; open ones after a hang). */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Listens on a free loopback port and forwards each connection to `target` (`host:port`).
 *
 * @example
 * ```ts
 * const proxy = await startTcpProxy("127.0.0.1:6379");
 * const redis = new Redis(`redis://${proxy.address}`);
 * await proxy.cut(); // redis sees its connection close and reconnects in vain
 * ```
 */
export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const [targetHost, targetPort] = splitAddress(target);
  const sockets = new Set<net.Socket>();
  let hung = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, targetHost);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(from);
      from.on("data", (chunk) => {
        if (!hung) to.write(chunk);
      });
      from.on("close", () => {
        sockets.delete(from);
        to.destroy();
      });
      from.on("error", () => from.destroy());
    }
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve((server.address() as net.AddressInfo).port);
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  const port = await listen(0);
  return {
    address: `127.0.0.1:${port}`,
    cut: stop,
    hang: () => {
      hung = true;
    },
    restore: async () => {
      hung = false;
      if (!server.listening) await listen(port);
    },
    close: stop,
  };
}

function splitAddress(address: string): [string, number] {
  const at = address.lastIndexOf(":");
  return [address.slice(0, at), Number(address.slice(at + 1))];
}
