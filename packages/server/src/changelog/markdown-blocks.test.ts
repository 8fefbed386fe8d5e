import { describe, expect, it } from "vitest";
import type { MarkdownBlock, MarkdownInline } from "@tidings/client";
import { renderRelease } from "./markdown.js";

const parseMarkdown = (source: string): MarkdownBlock[] => renderRelease(source).blocks;

const text = (t: string): MarkdownInline => ({ type: "text", text: t });
const para = (...children: MarkdownInline[]): MarkdownBlock => ({ type: "paragraph", children });
const inline = (source: string) => {
  const [block] = parseMarkdown(source);
  return block?.type === "paragraph" ? block.children : [];
};

describe("release-note blocks", () => {
  it("reads ATX and setext headings, with closing hashes dropped", () => {
    expect(parseMarkdown("# One\n## Two ##\n###### Six\n####### Seven\nTitle\n===\nSub\n---")).toEqual([
      { type: "heading", level: 1, children: [text("One")] },
      { type: "heading", level: 2, children: [text("Two")] },
      { type: "heading", level: 6, children: [text("Six")] },
      { type: "heading", level: 1, children: [text("####### Seven Title")] },
      { type: "heading", level: 2, children: [text("Sub")] },
    ]);
  });

  it("splits paragraphs on blank lines and joins soft-broken lines with a space", () => {
    expect(parseMarkdown("one\ntwo\n\n  three  ")).toEqual([para(text("one two")), para(text("three"))]);
  });

  it("reads hard line breaks from two trailing spaces or a backslash", () => {
    expect(inline("one  \ntwo\\\nthree")).toEqual([text("one"), { type: "break" }, text("two"), { type: "break" }, text("three")]);
  });

  it("reads bullet lists, ordered lists with their start, and task items", () => {
    expect(parseMarkdown("- a\n- b\n\n3. c\n4. d\n\n* [x] done\n* [ ] todo")).toEqual([
      { type: "list", ordered: false, start: 1, items: [{ checked: null, children: [para(text("a"))] }, { checked: null, children: [para(text("b"))] }] },
      { type: "list", ordered: true, start: 3, items: [{ checked: null, children: [para(text("c"))] }, { checked: null, children: [para(text("d"))] }] },
      { type: "list", ordered: false, start: 1, items: [{ checked: true, children: [para(text("done"))] }, { checked: false, children: [para(text("todo"))] }] },
    ]);
  });

  it("nests lists by indentation and keeps lazy continuation lines in the item", () => {
    const [list] = parseMarkdown("- parent\n  - child\n    more\n- next\nlazy");
    expect(list).toEqual({
      type: "list",
      ordered: false,
      start: 1,
      items: [
        {
          checked: null,
          children: [para(text("parent")), { type: "list", ordered: false, start: 1, items: [{ checked: null, children: [para(text("child more"))] }] }],
        },
        { checked: null, children: [para(text("next lazy"))] },
      ],
    });
  });

  it("starts a new list when the bullet changes, and a thematic break wins over a bullet", () => {
    expect(parseMarkdown("- a\n+ b\n* * *").map((b) => b.type)).toEqual(["list", "list", "rule"]);
  });

  it("reads fenced code with its language, unclosed fences to the end, and indented code", () => {
    expect(parseMarkdown("```ts\nconst a = 1;\n\n**not bold**\n```\n\n    indented\n    code\n\n~~~\nopen")).toEqual([
      { type: "code", text: "const a = 1;\n\n**not bold**", language: "ts" },
      { type: "code", text: "indented\ncode", language: null },
      { type: "code", text: "open", language: null },
    ]);
  });

  it("reads block quotes, nested, with lazy continuation", () => {
    expect(parseMarkdown("> quoted\nlazy\n> > inner")).toEqual([
      { type: "quote", children: [para(text("quoted lazy")), { type: "quote", children: [para(text("inner"))] }] },
    ]);
  });

  it("reads thematic breaks", () => {
    expect(parseMarkdown("a\n\n***\n- - -\n___").map((b) => b.type)).toEqual(["paragraph", "rule", "rule", "rule"]);
  });

  it("reads GFM tables with alignment, escaped pipes and short rows filled", () => {
    expect(parseMarkdown("| Feature | Status |\n| :--- | ---: |\n| a \\| b | **on** |\n| c |")).toEqual([
      {
        type: "table",
        align: ["left", "right"],
        header: [[text("Feature")], [text("Status")]],
        rows: [
          [[text("a | b")], [{ type: "strong", children: [text("on")] }]],
          [[text("c")], []],
        ],
      },
    ]);
  });

  it("resolves reference links defined anywhere, and drops the definitions from the text", () => {
    expect(parseMarkdown("See [the docs][Docs], [docs][] and [docs].\n\n[docs]: https://example.com/docs \"Docs\"")).toEqual([
      para(
        text("See "),
        { type: "link", href: "https://example.com/docs", title: "Docs", children: [text("the docs")] },
        text(", "),
        { type: "link", href: "https://example.com/docs", title: "Docs", children: [text("docs")] },
        text(" and "),
        { type: "link", href: "https://example.com/docs", title: "Docs", children: [text("docs")] },
        text("."),
      ),
    ]);
  });

  it("keeps raw HTML as visible text", () => {
    expect(parseMarkdown("<b>raw</b> <script>alert(1)</script>")).toEqual([para(text("<b>raw</b> <script>alert(1)</script>"))]);
  });
});

describe("release-note inline tokens", () => {
  it("reads emphasis, strong, both, and strikethrough", () => {
    expect(inline("*em* _em_ **strong** __strong__ ***both*** ~~gone~~ ~one~")).toEqual([
      { type: "emphasis", children: [text("em")] },
      text(" "),
      { type: "emphasis", children: [text("em")] },
      text(" "),
      { type: "strong", children: [text("strong")] },
      text(" "),
      { type: "strong", children: [text("strong")] },
      text(" "),
      { type: "emphasis", children: [{ type: "strong", children: [text("both")] }] },
      text(" "),
      { type: "strikethrough", children: [text("gone")] },
      text(" "),
      { type: "strikethrough", children: [text("one")] },
    ]);
  });

  it("follows the flanking rules: no emphasis inside words with underscores or around spaces", () => {
    expect(inline("snake_case_name and * not * and 2*3*4")).toEqual([
      text("snake_case_name and * not * and 2"),
      { type: "emphasis", children: [text("3")] },
      text("4"),
    ]);
  });

  it("treats Unicode punctuation next to a delimiter as punctuation", () => {
    expect(inline("*«quoted»* and 5*€*")).toEqual([
      { type: "emphasis", children: [text("«quoted»")] },
      text(" and 5*€*"),
    ]);
  });

  it("reads code spans of any backtick count, literally", () => {
    expect(inline("`a*b*` ``x ` y`` ` `` `")).toEqual([
      { type: "code", text: "a*b*" },
      text(" "),
      { type: "code", text: "x ` y" },
      text(" "),
      { type: "code", text: "``" },
    ]);
  });

  it("reads inline links with titles, angle destinations and balanced parentheses", () => {
    expect(inline('[a](https://x.example/a "T") [b](<https://x.example/b c>) [c](https://x.example/(c))')).toEqual([
      { type: "link", href: "https://x.example/a", title: "T", children: [text("a")] },
      text(" "),
      { type: "link", href: "https://x.example/b%20c", title: null, children: [text("b")] },
      text(" "),
      { type: "link", href: "https://x.example/(c)", title: null, children: [text("c")] },
    ]);
  });

  it("formats inside link text and keeps mailto links", () => {
    expect(inline("[**bold** docs](mailto:team@example.com)")).toEqual([
      { type: "link", href: "mailto:team@example.com", title: null, children: [{ type: "strong", children: [text("bold")] }, text(" docs")] },
    ]);
  });

  it("reads angle autolinks and GFM bare links without trailing punctuation", () => {
    expect(inline("<https://a.example> <me@example.com> see https://b.example/x_(y)). and www.c.example!")).toEqual([
      { type: "link", href: "https://a.example", title: null, children: [text("https://a.example")] },
      text(" "),
      { type: "link", href: "mailto:me@example.com", title: null, children: [text("me@example.com")] },
      text(" see "),
      { type: "link", href: "https://b.example/x_(y)", title: null, children: [text("https://b.example/x_(y)")] },
      text("). and "),
      { type: "link", href: "http://www.c.example", title: null, children: [text("www.c.example")] },
      text("!"),
    ]);
  });

  it("keeps https images and turns any other image into its alt text", () => {
    expect(inline("![Shot](https://x.example/a.png) ![Old](http://x.example/a.png)")).toEqual([
      { type: "image", src: "https://x.example/a.png", alt: "Shot", title: null },
      text(" Old"),
    ]);
  });

  it("decodes character references and backslash escapes", () => {
    expect(inline("&amp; &copy; &#35; &#x1F600; &bogus; \\*not em\\* \\q")).toEqual([text("& © # 😀 &bogus; *not em* \\q")]);
  });
});
