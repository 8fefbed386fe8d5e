import net from "node:net";

/** A loopback TCP proxy in front of a real service, whose link a test can cut and restore. */
export interface TcpProxy {
  /** The proxy's port on 127.0.0.1. */
  port: number;
  /** Drops every open connection and refuses new ones, as a network partition would. */
  cut(): void;
  /** Forwards new connections again. */
  restore(): void;
  close(): Promise<void>;
}

/**
 * Starts a proxy to `host:port` on a free loopback port.
 *
 * @example
 * ```ts
 * const proxy = await startTcpProxy("127.0.0.1", 6379);
 * const redisUrl = `redis://127.0.0.1:${proxy.port}`;
 * proxy.cut(); // Redis is now unreachable through the proxy
 * ```
 */
export async function startTcpProxy(host: string, port: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let open = true;
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
  };
  const server = net.createServer((client) => {
    track(client);
    if (!open) {
      client.destroy();
      return;
    }
    const upstream = net.connect(port, host);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port: proxyPort } = server.address() as net.AddressInfo;
  return {
    port: proxyPort,
    cut: () => {
      open = false;
      for (const socket of sockets) socket.destroy();
    },
    restore: () => {
      open = true;
    },
    close: () => {
      open = false;
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
