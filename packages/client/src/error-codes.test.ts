import { ErrorCodes } from "@tidings/protocol";
import { describe, expect, it } from "vitest";
import { KNOWN_ERROR_CODES } from "./error-codes.js";

describe("known error codes", () => {
  it("are exactly the server registry's codes", () => {
    expect([...KNOWN_ERROR_CODES].sort()).toEqual(Object.keys(ErrorCodes).sort());
  });
});
