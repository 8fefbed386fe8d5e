import Type, { type Static } from "typebox";

const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Kind = <K extends string>(kind: K) => Type.Literal(kind);

/**
 * Release-note Markdown as renderer-neutral tokens (no HTML): the server maps `marked`'s GFM
 * tokens into these so a renderer without an HTML engine (React Native) draws exactly what the
 * web's sanitised `html` shows. Links are http(s) or mailto, images https; raw HTML is text.
 */
export const MarkdownBlocksSchema = Type.Cyclic(
  {
    MarkdownInline: Type.Union([
      Type.Object({ type: Kind("text"), text: Type.String() }),
      Type.Object({ type: Kind("code"), text: Type.String() }),
      Type.Object({ type: Kind("break") }),
      Type.Object({ type: Type.Union([Kind("strong"), Kind("emphasis"), Kind("strikethrough")]), children: Type.Array(Type.Ref("MarkdownInline")) }),
      Type.Object({ type: Kind("link"), href: Type.String(), title: Nullable(Type.String()), children: Type.Array(Type.Ref("MarkdownInline")) }),
      Type.Object({ type: Kind("image"), src: Type.String(), alt: Type.String(), title: Nullable(Type.String()) }),
    ]),
    MarkdownListItem: Type.Object({ checked: Nullable(Type.Boolean()), children: Type.Array(Type.Ref("MarkdownBlock")) }),
    MarkdownBlock: Type.Union([
      Type.Object({
        type: Kind("heading"),
        level: Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(3), Type.Literal(4), Type.Literal(5), Type.Literal(6)]),
        children: Type.Array(Type.Ref("MarkdownInline")),
      }),
      Type.Object({ type: Kind("paragraph"), children: Type.Array(Type.Ref("MarkdownInline")) }),
      Type.Object({ type: Kind("list"), ordered: Type.Boolean(), start: Type.Integer(), items: Type.Array(Type.Ref("MarkdownListItem")) }),
      Type.Object({ type: Kind("code"), text: Type.String(), language: Nullable(Type.String()) }),
      Type.Object({ type: Kind("quote"), children: Type.Array(Type.Ref("MarkdownBlock")) }),
      Type.Object({ type: Kind("rule") }),
      Type.Object({
        type: Kind("table"),
        align: Type.Array(Nullable(Type.Union([Kind("left"), Kind("center"), Kind("right")]))),
        header: Type.Array(Type.Array(Type.Ref("MarkdownInline"))),
        rows: Type.Array(Type.Array(Type.Array(Type.Ref("MarkdownInline")))),
      }),
    ]),
    MarkdownBlocks: Type.Array(Type.Ref("MarkdownBlock")),
  },
  "MarkdownBlocks",
  { description: "The Markdown as renderer-neutral tokens (for renderers without HTML, such as React Native)" },
);
export type MarkdownBlocks = Static<typeof MarkdownBlocksSchema>;
export type MarkdownBlock = MarkdownBlocks[number];
