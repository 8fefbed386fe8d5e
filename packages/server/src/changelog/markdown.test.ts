import { describe, expect, it } from "vitest";
import { renderMarkdown, renderRelease } from "./markdown.js";

describe("renderMarkdown", () => {
  it("renders Markdown", () => {
    const html = renderMarkdown("# New\n\n- **fast** sync\n- [docs](https://example.com/docs)\n\n`code`");
    expect(html).toContain("<h1>New</h1>");
    expect(html).toContain("<strong>fast</strong>");
    expect(html).toContain('<a href="https://example.com/docs" rel="noopener noreferrer nofollow">docs</a>');
    expect(html).toContain("<code>code</code>");
  });

  it.each([
    ["a script tag", "<script>alert(1)</script>hello"],
    ["a script in an inline HTML block", '<div><script src="https://evil.example/x.js"></script></div>'],
    ["an uppercase script tag", "<SCRIPT>alert(1)</SCRIPT>"],
    ["an svg with onload", '<svg onload="alert(1)"></svg>'],
  ])("drops %s", (_name, markdown) => {
    const html = renderMarkdown(markdown).toLowerCase();
    expect(html).not.toContain("<script");
    expect(html).not.toContain("alert(1)</script");
    expect(html).not.toMatch(/\son[a-z]+\s*=/);
  });

  it.each([
    ['<img src="https://x.example/a.png" onerror="alert(1)">'],
    ['<a href="https://x.example" onclick="alert(1)">x</a>'],
    ['<p onmouseover="alert(1)">hover</p>'],
    ['<details open ontoggle="alert(1)">x</details>'],
  ])("strips event handler attributes from %s", (markdown) => {
    expect(renderMarkdown(markdown)).not.toMatch(/\son[a-z]+\s*=/i);
  });

  it.each([
    ["[click](javascript:alert(1))"],
    ["[click](JaVaScRiPt:alert(1))"],
    ["[click](java&#x73;cript:alert(1))"],
    ['<a href="javascript:alert(1)">x</a>'],
    ['<a href=" javascript:alert(1)">x</a>'],
    ["<javascript:alert(1)>"],
    ["[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)"],
    ['<img src="javascript:alert(1)">'],
    ['<iframe src="javascript:alert(1)"></iframe>'],
  ])("leaves no javascript: or data: link from %s", (markdown) => {
    const html = renderMarkdown(markdown).toLowerCase();
    // Every surviving URL attribute is http(s) or mailto (the text "javascript:" may remain as text).
    for (const [, url] of html.matchAll(/\s(?:href|src|action|formaction)\s*=\s*"([^"]*)"/g)) expect(url).toMatch(/^(https?:|mailto:)/);
    expect(html).not.toMatch(/(?:href|src)\s*=\s*["']?\s*(?:javascript|data):/);
    expect(html).not.toContain("<iframe");
  });
});

describe("renderRelease", () => {
  it("renders html and blocks from one parse, with the same link rules", () => {
    const { html, blocks } = renderRelease("[docs](https://example.com/docs) [here](/relative)");
    expect(html).toBe('<p><a href="https://example.com/docs" rel="noopener noreferrer nofollow">docs</a> <a rel="noopener noreferrer nofollow">here</a></p>\n');
    expect(blocks).toEqual([
      { type: "paragraph", children: [{ type: "link", href: "https://example.com/docs", title: null, children: [{ type: "text", text: "docs" }] }, { type: "text", text: " here" }] },
    ]);
  });

  it("renders a note once, however many reads show it", () => {
    const body = "# Read by every phone\n\n- one";
    expect(renderRelease(body)).toBe(renderRelease(body));
  });

  it("shows a note nested deeper than the parser can recurse as its text, instead of failing", () => {
    const { html, blocks } = renderRelease(`${"> ".repeat(5000)}deep`);
    expect(html).toContain("deep");
    expect(blocks).toHaveLength(1);
    expect(JSON.stringify(blocks)).toContain("deep");
  });
});
