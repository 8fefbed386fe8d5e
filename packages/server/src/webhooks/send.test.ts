import type dns from "node:dns";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebhookReceiver, type WebhookReceiver } from "@tidings/testing/webhook-receiver";
import { addressAllowed, checkWebhookUrl, guardedLookup, NO_WEBHOOK_ALLOW, parseWebhookAllow } from "./address-guard.js";
import { postWebhook } from "./send.js";

const loopback = parseWebhookAllow("127.0.0.1/32");

describe("the webhook allow list", () => {
  it("reads host names, addresses and CIDR ranges, and names the entry it cannot read", () => {
    const allow = parseWebhookAllow(" hooks.internal , 10.1.0.0/16,::1, Relay.Example.COM. ");
    expect([...allow.hosts]).toEqual(["hooks.internal", "relay.example.com"]);
    expect(addressAllowed("10.1.200.3", allow)).toBe(true);
    expect(addressAllowed("10.2.0.1", allow)).toBe(false);
    expect(addressAllowed("::1", allow)).toBe(true);
    expect(() => parseWebhookAllow("10.0.0.0/33")).toThrow(/10\.0\.0\.0\/33/);
    expect(() => parseWebhookAllow("http://x")).toThrow(/http:\/\/x/);
  });

  it("lets only public unicast addresses through by default", () => {
    for (const address of ["8.8.8.8", "2606:4700::1"]) expect(addressAllowed(address, NO_WEBHOOK_ALLOW), address).toBe(true);
    for (const address of ["127.0.0.1", "10.0.0.1", "172.16.0.1", "192.168.0.1", "169.254.169.254", "100.100.100.200", "0.0.0.0", "255.255.255.255", "224.0.0.1", "::1", "::", "fe80::1", "fd00:ec2::254", "::ffff:127.0.0.1", "64:ff9b::a00:1", "2002:a00:1::", "not-an-ip"]) {
      expect(addressAllowed(address, NO_WEBHOOK_ALLOW), address).toBe(false);
    }
  });
});

describe("the guarded lookup", () => {
  const lookup = (hostname: string, allow = NO_WEBHOOK_ALLOW) =>
    new Promise<{ error: NodeJS.ErrnoException | null; addresses: dns.LookupAddress[] }>((resolve) =>
      guardedLookup(allow)(hostname, { all: true }, (error, addresses) => resolve({ error, addresses: addresses as dns.LookupAddress[] })),
    );

  it("refuses a name that resolves only to loopback, and keeps the allowed addresses of a name", async () => {
    expect((await lookup("localhost")).error?.code).toBe("EWEBHOOKREFUSED");
    const allowed = await lookup("localhost", loopback);
    expect(allowed.error).toBeNull();
    expect(allowed.addresses.map((a) => a.address)).toEqual(["127.0.0.1"]);
    // A host named in the allow list may resolve anywhere.
    expect((await lookup("localhost", parseWebhookAllow("localhost"))).addresses.length).toBeGreaterThan(0);
  });

  it("refuses a loopback name at save time", async () => {
    await expect(checkWebhookUrl("http://localhost:8080/hook", NO_WEBHOOK_ALLOW)).rejects.toThrow(/private|loopback/);
    await expect(checkWebhookUrl("http://localhost:8080/hook", loopback)).resolves.toBeInstanceOf(URL);
  });
});

describe("postWebhook", () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(() => receiver.close());

  const post = (url: string, options: { allow?: typeof loopback; timeoutMs?: number } = {}) =>
    postWebhook(url, { "content-type": "application/json" }, '{"a":1}', { allow: options.allow ?? loopback, ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }) });

  it("never connects to a loopback name without the allow list", async () => {
    const before = receiver.received.length;
    const result = await post(`http://localhost:${receiver.port}/`, { allow: NO_WEBHOOK_ALLOW });
    expect(result).toMatchObject({ outcome: "refused", statusCode: null });
    expect(receiver.received.length).toBe(before);
  });

  it("gives up after the timeout on a receiver that never answers", async () => {
    const hanging = await startWebhookReceiver(() => "hang");
    try {
      const result = await post(hanging.url, { timeoutMs: 200 });
      expect(result.outcome).toBe("timeout");
    } finally {
      await hanging.close();
    }
  });

  it("reads only the start of a large answer", async () => {
    receiver.answer(() => ({ status: 500, body: "e".repeat(2_000_000) }));
    const result = await post(receiver.url);
    expect(result).toMatchObject({ outcome: "http_error", statusCode: 500 });
    expect(result.excerpt).toBe("e".repeat(1024));
  });

  it("stops after three redirects", async () => {
    receiver.answer((hook) => ({ status: 302, headers: { location: `${hook.path}x` } }));
    const before = receiver.received.length;
    const result = await post(`${receiver.url}/r`);
    expect(result).toMatchObject({ outcome: "http_error", statusCode: 302 });
    expect(result.excerpt).toMatch(/Too many redirects/);
    expect(receiver.received.length - before).toBe(4);
  });

  it("refuses a redirect to another scheme", async () => {
    receiver.answer(() => ({ status: 301, headers: { location: "file:///etc/passwd" } }));
    expect(await post(receiver.url)).toMatchObject({ outcome: "refused", statusCode: 301 });
  });

  it("reports a receiver that is down as a network error", async () => {
    const gone = await startWebhookReceiver();
    await gone.close();
    expect((await post(gone.url)).outcome).toBe("network_error");
  });
});
