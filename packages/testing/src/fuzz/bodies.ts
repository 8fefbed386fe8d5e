import fc from "fast-check";
import { JPEG_HEADER, multipartBody, png, type Part } from "../uploads-kit.js";
import { extraKey, oddString, type Hints } from "./values.js";

const BOUNDARY = "----fuzz-boundary-1f2e";

const filePart: fc.Arbitrary<Part> = fc.record({
  name: fc.constantFrom("file", "file", "image", "files[]", ""),
  filename: fc.oneof(fc.constantFrom("shot.png", "photo.jpg", "notes.txt", "logs.json", "run.exe", "image.svg", "", ".png", "a".repeat(2000) + ".png"), oddString),
  contentType: fc.constantFrom("image/png", "image/jpeg", "application/octet-stream", "text/html", "image/svg+xml", "application/x-msdownload", "", "image/png; charset=utf-8"),
  data: fc.oneof(
    fc.constant(png(64)),
    fc.constant(Buffer.concat([JPEG_HEADER, Buffer.alloc(40, 1)])),
    fc.constant(Buffer.from("MZ\x90\x00\x03\x00\x00\x00", "latin1")),
    fc.constant(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')),
    fc.constant(Buffer.alloc(0)),
    fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)),
  ),
});

const fieldPart = (hints: Hints): fc.Arbitrary<Part> =>
  fc.record({
    name: fc.oneof(fc.constantFrom("appKey", "appKey", "userToken", "purpose"), extraKey),
    value: fc.oneof(fc.constantFrom(...(hints.appKey ?? ["app_x"])), oddString),
  });

/** Multipart bodies, well formed or broken in the ways parsers trip on. */
const partsArb = (hints: Hints) => fc.array(fc.oneof(fieldPart(hints), filePart), { minLength: 0, maxLength: 4 });

/** An upload as a client sends it: the app key and one file part (its content may still be refused). */
export const goodMultipart = (hints: Hints): fc.Arbitrary<Body> =>
  fc.tuple(fc.constantFrom(...(hints.appKey ?? ["app_x"])), filePart).map(([appKey, file]) => {
    const built = multipartBody([{ name: "appKey", value: appKey }, { ...file, name: "file" }], BOUNDARY);
    return { payload: built.payload, contentType: built.headers["content-type"], how: "multipart upload" };
  });

export const multipartArb = (hints: Hints): fc.Arbitrary<{ payload: Buffer; contentType: string; how: string }> => {
  const parts = partsArb(hints);
  const good = parts.map((list) => {
    const built = multipartBody(list, BOUNDARY);
    return { payload: built.payload, contentType: built.headers["content-type"], how: "multipart" };
  });
  const broken = fc.tuple(parts, fc.constantFrom("truncate", "wrong-boundary", "no-boundary", "no-end", "no-disposition", "many-fields", "long-boundary", "bad-headers")).map(
    ([list, how]) => {
      const built = multipartBody(list, BOUNDARY);
      const text = built.payload;
      switch (how) {
        case "truncate":
          return { payload: text.subarray(0, Math.floor(text.length / 2)), contentType: built.headers["content-type"], how: `multipart ${how}` };
        case "wrong-boundary":
          return { payload: text, contentType: "multipart/form-data; boundary=other", how: `multipart ${how}` };
        case "no-boundary":
          return { payload: text, contentType: "multipart/form-data", how: `multipart ${how}` };
        case "no-end":
          return { payload: Buffer.from(text.toString("latin1").replace(`--${BOUNDARY}--\r\n`, ""), "latin1"), contentType: built.headers["content-type"], how: `multipart ${how}` };
        case "no-disposition":
          return { payload: Buffer.from(`--${BOUNDARY}\r\nContent-Type: image/png\r\n\r\nxyz\r\n--${BOUNDARY}--\r\n`), contentType: built.headers["content-type"], how: `multipart ${how}` };
        case "many-fields": {
          const many = multipartBody(Array.from({ length: 2000 }, (_, i) => ({ name: `f${i}`, value: "v" })), BOUNDARY);
          return { payload: many.payload, contentType: many.headers["content-type"], how: `multipart ${how}` };
        }
        case "long-boundary": {
          const long = "b".repeat(200);
          const built2 = multipartBody(list, long);
          return { payload: built2.payload, contentType: built2.headers["content-type"], how: `multipart ${how}` };
        }
        default:
          return {
            payload: Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type\r\n\r\n\x89PNG\r\n--${BOUNDARY}--\r\n`, "latin1"),
            contentType: built.headers["content-type"],
            how: `multipart ${how}`,
          };
      }
    },
  );
  return fc.oneof(good, broken);
};

/** Bodies that are not what a JSON route expects at all. */
export const junkBody: fc.Arbitrary<{ payload: string | Buffer; contentType: string | undefined; how: string }> = fc.oneof(
  fc.constantFrom(
    "", "{", "}", "[", "{\"a\":", "nul", "undefined", "NaN", "'x'", "{'a':1}", "{\"a\":1,}", "\uFEFF{}", "{\"__proto__\":{\"polluted\":true}}",
    "{\"constructor\":{\"prototype\":{\"polluted\":true}}}", "{\"a\":1,\"a\":2}", "[".repeat(5000) + "]".repeat(5000), "{\"a\":\"\\ud800\"}", "{\"a\":\"\\u0000\"}",
    "1e999", "\"string\"", "[]", "null", "true", "0", "{\"x\":1e999}",
  ).map((payload) => ({ payload, contentType: "application/json", how: "json junk" })),
  fc.tuple(fc.jsonValue({ maxDepth: 3 }), fc.constantFrom("application/json", "application/json; charset=utf-16", "application/json; charset=latin1", "text/plain", "application/x-www-form-urlencoded", "application/xml", "APPLICATION/JSON", "application/vnd.api+json", "", "multipart/form-data")).map(
    ([value, contentType]) => ({ payload: JSON.stringify(value) ?? "null", contentType: contentType === "" ? undefined : contentType, how: `body as ${contentType || "no type"}` }),
  ),
  fc.constantFrom(257 * 1024, 1025 * 1024).map((size) => ({ payload: `{"x":"${"a".repeat(size)}"}`, contentType: "application/json", how: "oversized body" })),
  fc.uint8Array({ maxLength: 300 }).map((bytes) => ({ payload: Buffer.from(bytes), contentType: "application/octet-stream", how: "random bytes" })),
);

/** A request body with its content type and a word on how it was made. */
export type Body = { payload: string | Buffer | undefined; contentType: string | undefined; how: string };
