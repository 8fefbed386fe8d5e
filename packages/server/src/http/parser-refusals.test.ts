import { describe, expect, it } from "vitest";
import { clientErrorAnswer } from "./parser-refusals.js";

describe("clientErrorAnswer", () => {
  it("answers a head that took longer than the headers timeout with 408 request_timeout", () => {
    const timeout = Object.assign(new Error("Request timeout"), { code: "ERR_HTTP_REQUEST_TIMEOUT" });
    expect(clientErrorAnswer(timeout)).toEqual({ status: 408, body: { error: "Request timeout", code: "request_timeout" } });
  });
});
