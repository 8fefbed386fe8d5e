import type { CustomFieldValue as WireValue, PublicBoard, PublicCustomField, PublicTag as WireTag } from "@tidings/protocol";
import { describe, expect, expectTypeOf, it } from "vitest";
import { checkCustomFieldValues, customFieldErrors } from "./custom-fields.js";
import { errorFromResponse } from "./error-responses.js";
import { UnexpectedStatusException } from "./errors.js";
import { client, recorder } from "./testing/recorder.js";
import type { Board, CustomField, CustomFieldValue, PublicTag } from "./types.js";

// The SDK declares its own copy of the wire shapes (its published types must not import the
// server's schema library); these checks fail when the two drift.
type Assignable<A, B> = [A] extends [B] ? true : false;

const field = (key: string, type: CustomField["type"], extra: Partial<CustomField> = {}): CustomField => ({
  key,
  label: key,
  description: "",
  type,
  required: false,
  appliesTo: ["feature_request", "feedback"],
  options: [],
  limits: {},
  position: 0,
  ...extra,
});

const plan = field("plan", "single_select", { options: [{ value: "free", label: "Free" }, { value: "pro", label: "Pro" }] });
const os = field("os", "multi_select", { options: ["ios", "android", "web"].map((v) => ({ value: v, label: v })), limits: { maxSelected: 2 } });
const seats = field("seats", "number", { limits: { min: 1, max: 500, integer: true } });
const summary = field("summary", "text", { required: true, limits: { maxLength: 5 } });
const notes = field("notes", "long_text", { limits: { maxLength: 10 } });
const accept = field("accept", "checkbox", { required: true });

describe("custom field types", () => {
  it("are assignable both ways to the protocol's public shapes", () => {
    expectTypeOf<Assignable<CustomField, PublicCustomField>>().toEqualTypeOf<true>();
    expectTypeOf<Assignable<PublicCustomField, CustomField>>().toEqualTypeOf<true>();
    expectTypeOf<Assignable<CustomFieldValue, WireValue>>().toEqualTypeOf<true>();
    expectTypeOf<Assignable<WireValue, CustomFieldValue>>().toEqualTypeOf<true>();
    expectTypeOf<Assignable<PublicBoard, Board>>().toEqualTypeOf<true>();
    expectTypeOf<Assignable<Board, PublicBoard>>().toEqualTypeOf<true>();
    expectTypeOf<Assignable<WireTag, PublicTag>>().toEqualTypeOf<true>();
  });
});

describe("checkCustomFieldValues", () => {
  it("answers what to send: text trimmed, a typed number parsed, blanks and other boards' keys left out", () => {
    const check = checkCustomFieldValues([plan, os, seats, summary, notes, accept], {
      plan: "pro",
      os: ["ios", "ios"],
      seats: " 12 ",
      summary: "  Sync ",
      notes: "   ",
      accept: true,
      elsewhere: "kept out",
    });
    expect(check).toEqual({ values: { plan: "pro", os: ["ios"], seats: 12, summary: "Sync", accept: true }, problems: {} });
  });

  it("names every problem the server would, by key", () => {
    const { problems, values } = checkCustomFieldValues([plan, os, seats, summary, notes, accept], {
      plan: "gold",
      os: ["ios", "android", "web"],
      seats: "2.5",
      summary: "",
      notes: "0123456789🦄",
      accept: false,
    });
    expect(values).toEqual({});
    expect(problems).toEqual({
      plan: { code: "not_an_option" },
      os: { code: "too_many", max: 2 },
      seats: { code: "not_whole" },
      summary: { code: "required" },
      notes: { code: "too_long", max: 10 },
      accept: { code: "unchecked" },
    });
  });

  it("counts characters as the server does (an emoji is one) and keeps text to one line", () => {
    expect(checkCustomFieldValues([summary], { summary: "🦄🦄🦄🦄🦄" }).problems).toEqual({});
    expect(checkCustomFieldValues([summary], { summary: "a\nb" }).problems).toEqual({ summary: { code: "single_line" } });
    expect(checkCustomFieldValues([notes], { notes: "a\nb" }).values).toEqual({ notes: "a\nb" });
  });

  it.each([
    ["0x10", { code: "not_a_number" }],
    ["Infinity", { code: "not_a_number" }],
    ["twelve", { code: "not_a_number" }],
    ["0", { code: "below_min", min: 1 }],
    ["501", { code: "above_max", max: 500 }],
    [Number.NaN, { code: "not_a_number" }],
  ])("refuses %s in a number field from 1 to 500", (input, problem) => {
    expect(checkCustomFieldValues([seats], { seats: input }).problems).toEqual({ seats: problem });
  });

  it("reads a decimal comma and a typed exponent", () => {
    const price = field("price", "number");
    expect(checkCustomFieldValues([price], { price: "2,5" }).values).toEqual({ price: 2.5 });
    expect(checkCustomFieldValues([price], { price: "1e3" }).values).toEqual({ price: 1000 });
    expect(checkCustomFieldValues([price], { price: "" }).values).toEqual({});
  });

  it("sends an optional checkbox left unticked as false, and asks for a required one", () => {
    const optIn = field("beta", "checkbox");
    expect(checkCustomFieldValues([optIn, accept], { beta: false, accept: true }).values).toEqual({ beta: false, accept: true });
    expect(checkCustomFieldValues([accept], {}).problems).toEqual({ accept: { code: "unchecked" } });
  });
});

describe("customFieldErrors", () => {
  const refusal = (body: unknown, status = 400) => errorFromResponse({ status, rawBody: JSON.stringify(body) });

  it("reads the server's field errors of a 400 validation_failed by key", () => {
    const error = refusal({
      error: "fields.plan: Not an option: gold",
      code: "validation_failed",
      details: { formErrors: [], fieldErrors: { "fields.plan": ["Not an option: gold"], "fields.extra": ["Unknown field"], title: ["Too short"] } },
    });
    expect(customFieldErrors(error)).toEqual({
      plan: { code: "rejected", message: "Not an option: gold" },
      extra: { code: "rejected", message: "Unknown field" },
    });
  });

  it("is undefined for any other error", () => {
    expect(customFieldErrors(refusal({ error: "Too short", code: "validation_failed", details: { fieldErrors: { title: ["Too short"] } } }))).toBeUndefined();
    expect(customFieldErrors(refusal({ error: "No such board", code: "unknown_board" }))).toBeUndefined();
    expect(customFieldErrors(refusal({ error: "Boom", code: "validation_failed" }, 500))).toBeUndefined();
    expect(customFieldErrors(new Error("x"))).toBeUndefined();
  });
});

describe("FeedbackClient boards and custom fields", () => {
  it("lists the boards and a board's fields by position, with the user's identity when the host vouches for it", async () => {
    const { seen, fetch } = recorder((s) =>
      Response.json(
        s.url.pathname.endsWith("/boards")
          ? { boards: [{ id: "b2", slug: "bugs", position: 1 }, { id: "b1", slug: "feature-requests", position: 0 }] }
          : { fields: [{ key: "b", position: 2 }, { key: "a", position: 1 }] },
      ),
    );
    const c = client(fetch, { userHash: "h-1" });
    expect((await c.listBoards()).map((b) => b.slug)).toEqual(["feature-requests", "bugs"]);
    expect((await c.listCustomFields({ board: " bugs " })).map((f) => f.key)).toEqual(["a", "b"]);
    await c.listCustomFields();
    expect(seen.map((s) => `${s.url.pathname}${s.url.search}`)).toEqual([
      "/api/v1/public/apps/app_demo/boards",
      "/api/v1/public/apps/app_demo/fields?board=bugs",
      "/api/v1/public/apps/app_demo/fields",
    ]);
    expect(seen.map((s) => s.headers["X-User-Hash"])).toEqual(["h-1", "h-1", "h-1"]);
  });

  it("reads anonymously without a hash, and throws the server's unknown_board", async () => {
    const { seen, fetch } = recorder(() => Response.json({ error: "No such board", code: "unknown_board" }, { status: 400 }));
    const error = await client(fetch).listCustomFields({ board: "secret" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedStatusException);
    expect((error as UnexpectedStatusException).code).toBe("unknown_board");
    expect(seen[0]!.headers).not.toHaveProperty("X-User-Token");
  });
});
