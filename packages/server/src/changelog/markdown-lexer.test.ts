import { decodeHTML } from "entities";
import fc from "fast-check";
import { Marked, type Token } from "marked";
import { describe, expect, it } from "vitest";
import { escapeDenseRuns, lexMarkdown, LONG_RUN, MAX_LEX_DEPTH } from "./markdown-lexer.js";

const marked = new Marked({ gfm: true, breaks: false, async: false });
const lex = (source: string) => lexMarkdown(source, marked.defaults);
const html = (source: string) => marked.parser(lex(source));

/** The tokens a token holds, if it holds any. */
const inner = (token: Token | undefined): Token[] | undefined => (token !== undefined && "tokens" in token ? (token.tokens as Token[] | undefined) : undefined);

/** The tokens of `type` along the first child at every level, outermost first. */
function chain(tokens: readonly Token[], type: string): Token[] {
  const out: Token[] = [];
  let level: readonly Token[] | undefined = tokens;
  while (level !== undefined) {
    const token: Token | undefined = level.find((t) => t.type === type);
    if (token === undefined) break;
    out.push(token);
    level = inner(token);
  }
  return out;
}

describe("lexMarkdown", () => {
  it.each([
    "# One\n## Two ##\nTitle\n===\n\n- a\n  - b\n    more\n- [x] done\n\n3. c\n\n> quoted\nlazy\n> > inner",
    "```ts\nconst a = 1;\n```\n\n    indented\n\n| a | b |\n| :- | -: |\n| `x \\| y` | **on** |",
    '*em* _em_ **strong** ***both*** ~~gone~~ ~one~ snake_case_name 2*3*4 `a*b*` [a](https://x.example/a_b "T")',
    "See [the docs][Docs] <https://a.example> me@example.com www.c.example https://b.example/x_(y)).\n\n[docs]: https://example.com/docs",
    `https://example.com/${"segment_with_underscores/".repeat(8)}end and ${"word ".repeat(400)}`,
    `${"> ".repeat(MAX_LEX_DEPTH - 1)}deep and ${"*a ".repeat(MAX_LEX_DEPTH - 2)}b${" a*".repeat(MAX_LEX_DEPTH - 2)}`,
  ])("lexes an ordinary note exactly as marked does: %j", (source) => {
    expect(lex(source)).toEqual(marked.lexer(source));
  });

  it("lexes generated notes exactly as marked does", () => {
    const piece = fc.constantFrom(
      "*", "**", "_", "~~", "`", "[", "]", "(", ")", "\\", "&amp;", "\n", "\n\n", "  \n", "# ", "- ", "1. ", "> ", "```", "|", "---",
      "https://x.example", "www.y.example", "a@b.example", "[t](https://z.example)", "<b>", "a", "b c", "é",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
        const source = pieces.join("");
        expect(lex(source)).toEqual(marked.lexer(source));
      }),
      { numRuns: 300, seed: 20_261_129 },
    );
  });

  it("reads quotes nested deeper than MAX_LEX_DEPTH as the text of the deepest one drawn", () => {
    const quotes = chain(lex(`${"> ".repeat(MAX_LEX_DEPTH + 8)}deep`), "blockquote");
    expect(quotes).toHaveLength(MAX_LEX_DEPTH);
    expect(inner(quotes.at(-1))?.[0]).toMatchObject({ type: "paragraph", text: `${"> ".repeat(8)}deep` });
  });

  it("reads emphasis nested deeper than MAX_LEX_DEPTH as its source text", () => {
    const extra = 5;
    const source = `${"*a ".repeat(MAX_LEX_DEPTH + extra)}<b>&amp;${" a*".repeat(MAX_LEX_DEPTH + extra)}`;
    const spans = chain(inner(lex(source)[0]) ?? [], "em");
    expect(spans).toHaveLength(MAX_LEX_DEPTH);
    expect(inner(spans.at(-1))).toEqual([{ type: "text", raw: expect.any(String), text: `a ${"*a ".repeat(extra)}<b>&amp;${" a*".repeat(extra)} a`, escaped: false }]);
    // Raw HTML there is text, not a tag.
    expect(html(source)).toContain("*a &lt;b&gt;&amp; a*");
  });

  it("shows a long run dense with delimiters as the text it is", () => {
    for (const run of ["a*".repeat(200), "~~a~".repeat(100), "`a".repeat(200), "a_".repeat(200)]) {
      expect(decodeHTML(html(`x ${run} y`))).toBe(`<p>x ${run} y</p>\n`);
    }
  });
});

describe("escapeDenseRuns", () => {
  it("writes each delimiter of a run longer than LONG_RUN with more than 16 of them as a reference", () => {
    expect(escapeDenseRuns(`x ${"a*_~`".repeat(100)} y`)).toBe(`x ${"a&#42;&#95;&#126;&#96;".repeat(100)} y`);
  });

  it("leaves short runs, sparse runs, and a character already escaped as they are", () => {
    const short = "a*".repeat(LONG_RUN / 2);
    const sparse = `https://x.example/${"a_b".repeat(16)}${"c".repeat(LONG_RUN)}`;
    expect(escapeDenseRuns(`${short} ${sparse}`)).toBe(`${short} ${sparse}`);
    expect(escapeDenseRuns(`\\${"*a".repeat(200)}`)).toBe(`\\*a${"&#42;a".repeat(199)}`);
  });
});
