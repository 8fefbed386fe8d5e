import type { FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import { rateLimitCaller } from "./caller.js";

const request = (parts: { ip?: string; headers?: Record<string, string | string[]>; query?: unknown; body?: unknown }) =>
  ({ ip: "203.0.113.7", headers: {}, query: {}, body: undefined, ...parts }) as unknown as FastifyRequest;

describe("rateLimitCaller", () => {
  it("keys a request without a token by its IP alone", () => {
    expect(rateLimitCaller(request({}))).toBe("203.0.113.7");
    expect(rateLimitCaller(request({ headers: { "x-user-token": "  " } }))).toBe("203.0.113.7");
  });

  it("keys a token by IP and a digest that does not hold the token", () => {
    const key = rateLimitCaller(request({ headers: { "x-user-token": "user-42-secret" } }));
    expect(key).toMatch(/^203\.0\.113\.7 [\w-]{22}$/);
    expect(key).not.toContain("user-42");
    expect(rateLimitCaller(request({ headers: { "x-user-token": " user-42-secret " } }))).toBe(key);
    expect(rateLimitCaller(request({ headers: { "x-user-token": "user-43-secret" } }))).not.toBe(key);
    expect(rateLimitCaller(request({ ip: "198.51.100.2", headers: { "x-user-token": "user-42-secret" } }))).not.toBe(key);
  });

  it("prefers the SSO token, as identification does, and reads legacy query and body tokens", () => {
    const byHeader = rateLimitCaller(request({ headers: { "x-user-token": "u1" } }));
    expect(rateLimitCaller(request({ query: { userToken: "u1" } }))).toBe(byHeader);
    expect(rateLimitCaller(request({ body: { userToken: "u1" } }))).toBe(byHeader);
    expect(rateLimitCaller(request({ body: { requesterToken: "u1" } }))).toBe(byHeader);
    const sso = rateLimitCaller(request({ headers: { "x-user-token": "u1", "x-sso-token": "eyJhbGciOi.u1" } }));
    expect(sso).not.toBe(byHeader);
    expect(rateLimitCaller(request({ headers: { "x-sso-token": "eyJhbGciOi.u1" } }))).toBe(sso);
  });

  it("counts repeated token headers, which identification refuses, as the IP's tokenless caller", () => {
    expect(rateLimitCaller(request({ headers: { "x-user-token": ["a", "b"] } }))).toBe("203.0.113.7");
  });
});
