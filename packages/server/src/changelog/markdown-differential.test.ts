import type { MarkdownBlock, MarkdownInline } from "@tidings/client";
import { decodeHTML } from "entities";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { renderRelease } from "./markdown.js";

// Browsers draw `html`, React Native draws `blocks`: a reader must see the same words and be
// offered the same links on both. Images and raw HTML are left out of the comparison on purpose
// (an image is a picture in HTML and a labelled link in blocks; raw HTML is dropped by the
// sanitiser and shown as text in blocks).

const squash = (text: string) => text.replace(/\s+/g, "").normalize("NFC");
const normalizeHref = (href: string) => {
  try {
    return decodeURI(href);
  } catch {
    return href;
  }
};

function fromHtml(html: string): { text: string; hrefs: string[] } {
  const hrefs = [...html.matchAll(/<a\s[^>]*href="([^"]*)"/g)].map(([, href]) => normalizeHref(decodeHTML(href ?? "")));
  return { text: squash(decodeHTML(html.replace(/<[^>]*>/g, ""))), hrefs };
}

function fromBlocks(blocks: MarkdownBlock[]): { text: string; hrefs: string[] } {
  const parts: string[] = [];
  const hrefs: string[] = [];
  const inline = (list: MarkdownInline[]) => {
    for (const t of list) {
      if (t.type === "text" || t.type === "code") parts.push(t.text);
      else if (t.type === "link") {
        hrefs.push(normalizeHref(t.href));
        inline(t.children);
      } else if (t.type === "strong" || t.type === "emphasis" || t.type === "strikethrough") inline(t.children);
    }
  };
  const block = (b: MarkdownBlock) => {
    if (b.type === "heading" || b.type === "paragraph") inline(b.children);
    else if (b.type === "code") parts.push(b.text);
    else if (b.type === "quote") b.children.forEach(block);
    else if (b.type === "list") b.items.forEach((item) => item.children.forEach(block));
    else if (b.type === "table") [b.header, ...b.rows].forEach((row) => row.forEach(inline));
  };
  blocks.forEach(block);
  return { text: squash(parts.join("")), hrefs };
}

function expectAgreement(source: string) {
  const { html, blocks } = renderRelease(source);
  expect(fromBlocks(blocks), source).toEqual(fromHtml(html));
}

const corpus = [
  "# One\n## Two ##\n###### Six\n####### Seven\nTitle\n===\nSub\n---",
  "one\ntwo\n\n  three  ",
  "one  \ntwo\\\nthree",
  "- a\n- b\n\n3. c\n4. d\n\n* [x] done\n* [ ] todo",
  "- parent\n  - child\n    more\n- next\nlazy",
  "```ts\nconst a = 1;\n\n**not bold**\n```\n\n    indented\n    code\n\n~~~\nopen",
  "> quoted\nlazy\n> > inner",
  "| Feature | Status |\n| :--- | ---: |\n| a \\| b | **on** |\n| c |",
  'See [the docs][Docs], [docs][] and [docs].\n\n[docs]: https://example.com/docs "Docs"',
  "*em* _em_ **strong** __strong__ ***both*** ~~gone~~ ~one~",
  "snake_case_name and * not * and 2*3*4",
  "`a*b*` ``x ` y`` ` `` `",
  '[a](https://x.example/a "T") [b](<https://x.example/b c>) [c](https://x.example/(c))',
  "[**bold** docs](mailto:team@example.com)",
  "<https://a.example> <me@example.com> see https://b.example/x_(y)). and www.c.example!",
  "&amp; &copy; &#35; &#x1F600; &bogus; \\*not em\\* \\q",
  "[click](javascript:alert(1)) [x](data:text/html;base64,PHNjcmlwdD4=) [x](/relative/path) [x](//evil.example/path)",
  "[a [b](https://b.example) c](https://a.example) [[[x]]] [y[z]](https://y.example)",
  // Past the lexer's bounds: emphasis and quotes nested too deep, and a run dense with delimiters.
  `${"*a ".repeat(40)}&amp; [l](https://l.example) ${" a*".repeat(40)}`,
  `${"> ".repeat(40)}deep`,
  `x ${"a*".repeat(200)} [l](https://l.example)`,
];

describe("release-note html and blocks", () => {
  it.each(corpus.map((source) => [source]))("agree on text and links for %j", (source) => {
    expectAgreement(source);
  });

  it("agree on text and links for generated Markdown", () => {
    const piece = fc.constantFrom(
      "*", "**", "_", "~~", "`", "[", "]", "(", ")", "\\", "&amp;", "\n", "\n\n", "  \n", "# ", "- ", "1. ", "> ", "```", "|", "---",
      "https://x.example", "www.y.example", "mailto:a@b.example", "javascript:x", "[t](https://z.example)", "[t](javascript:x)", "a", "b c", "é",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        expectAgreement(pieces.join(""));
      }),
      { numRuns: 400, seed: 20_261_128 },
    );
  });
});
