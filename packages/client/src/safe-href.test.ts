import { describe, expect, it } from "vitest";
import { safeHref, safeImageSrc } from "./safe-href.js";

describe("safeHref", () => {
  it.each([["https://example.com/a?b#c"], ["HTTP://EXAMPLE.COM"], ["mailto:team@example.com"]])("keeps %s", (href) => {
    expect(safeHref(href)).toBe(href);
  });

  it.each([["javascript:alert(1)"], [" javascript:alert(1)"], ["data:text/html,x"], ["https:/one-slash"], ["https://"], ["//host"], ["/path"], ["ftp://x"], ["https://x\u0000y"], ["tel:123"]])(
    "refuses %j",
    (href) => {
      expect(safeHref(href)).toBeNull();
    },
  );

  it("allows images from https only", () => {
    expect(safeImageSrc("https://x.example/a.png")).toBe("https://x.example/a.png");
    expect(safeImageSrc("http://x.example/a.png")).toBeNull();
  });
});
