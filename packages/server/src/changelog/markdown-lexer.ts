import { Lexer, type MarkedOptions, type Token, type Tokens, type TokensList } from "marked";

/**
 * Containers (quotes, list items) and spans (emphasis, links) nested deeper than this are read as
 * their text. `marked` lexes each level again from its start, so n levels cost n passes over the
 * note; real notes nest two or three levels, and renderers draw at most 16
 * (`MAX_MARKDOWN_DEPTH`), so every level anyone sees is still parsed.
 */
export const MAX_LEX_DEPTH = 32;

/**
 * A run of characters that can start an e-mail address, longer than this and holding more than
 * {@link LONG_RUN_DELIMITERS} emphasis or code delimiters, has those delimiters written as
 * character references (`*` as `&#42;`), which both renderers show as the character itself.
 * `marked`'s GFM text rule looks for an address from every piece of text it emits, to the end of
 * the run, so a run that the delimiters cut into n pieces costs n passes over it (`a*a*a*…`,
 * `~~a~~~a…`, `` `a`a`a… ``); written as references, the run is one piece of text, and the `;`
 * of each ends the address search. No word or URL in a release note is both this long and this
 * dense.
 */
export const LONG_RUN = 256;
export const LONG_RUN_DELIMITERS = 16;

/** The characters of an e-mail address's local part (GFM's extended e-mail autolink). */
const LOCAL_PART = /[A-Za-z0-9.!#$%&'*+/=?_`{|}~-]/;
const DELIMITER = /[*_~`]/;
const REFERENCE: Record<string, string> = { "*": "&#42;", _: "&#95;", "~": "&#126;", "`": "&#96;" };

/**
 * `marked`'s lexer with its work bounded: linear in the note's length on hostile input, and the
 * same tokens as `marked.lexer` on every note that nests less than {@link MAX_LEX_DEPTH} levels and
 * has no run past {@link LONG_RUN}.
 *
 * @example
 * ```ts
 * lexMarkdown("a*".repeat(50_000), marked.defaults); // one paragraph of text, in milliseconds
 * ```
 */
export function lexMarkdown(markdown: string, options: MarkedOptions): TokensList {
  return new BoundedLexer(options).lex(markdown);
}

class BoundedLexer extends Lexer {
  #blockDepth = 0;
  #inlineDepth = 0;

  override blockTokens(src: string, tokens?: Token[], lastParagraphClipped?: boolean): Token[];
  override blockTokens(src: string, tokens?: TokensList, lastParagraphClipped?: boolean): TokensList;
  override blockTokens(src: string, tokens: Token[] = [], lastParagraphClipped = false): Token[] {
    this.#blockDepth++;
    try {
      if (this.#blockDepth <= MAX_LEX_DEPTH) return super.blockTokens(src, tokens, lastParagraphClipped);
      const paragraph: Tokens.Paragraph = { type: "paragraph", raw: src, text: src, tokens: [] };
      this.inline(src, paragraph.tokens);
      tokens.push(paragraph);
      return tokens;
    } finally {
      this.#blockDepth--;
    }
  }

  override inlineTokens(src: string, tokens: Token[] = []): Token[] {
    this.#inlineDepth++;
    try {
      if (this.#inlineDepth === 1) return super.inlineTokens(escapeDenseRuns(src), tokens);
      if (this.#inlineDepth <= MAX_LEX_DEPTH) return super.inlineTokens(src, tokens);
      // Plain text as `marked` emits it, so both renderers read its character references alike.
      tokens.push({ type: "text", raw: src, text: src, escaped: false });
      return tokens;
    } finally {
      this.#inlineDepth--;
    }
  }
}

/**
 * The text with the delimiters of every long, dense local-part run written as character
 * references (see {@link LONG_RUN}).
 *
 * @example
 * ```ts
 * escapeDenseRuns("a*".repeat(200)); // "a&#42;a&#42;…"
 * ```
 */
export function escapeDenseRuns(text: string): string {
  let out = "";
  let copied = 0;
  let start = 0;
  let delimiters = 0;
  for (let i = 0; i <= text.length; i++) {
    const char = text[i];
    if (char !== undefined && LOCAL_PART.test(char)) {
      if (DELIMITER.test(char)) delimiters++;
      continue;
    }
    if (i - start > LONG_RUN && delimiters > LONG_RUN_DELIMITERS) {
      out += text.slice(copied, start);
      for (let j = start; j < i; j++) {
        const part = text[j] ?? "";
        // A run right after a backslash starts with a character already escaped.
        out += j === start && text[j - 1] === "\\" ? part : (REFERENCE[part] ?? part);
      }
      copied = i;
    }
    start = i + 1;
    delimiters = 0;
  }
  return copied === 0 ? text : out + text.slice(copied);
}
