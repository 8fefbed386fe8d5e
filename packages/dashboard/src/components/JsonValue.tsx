/** Nesting shown as structure; anything deeper is shown as compact JSON text. */
const MAX_DEPTH = 6;

/** JSON text of `value`, or a plain description when it cannot be serialised. */
function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** Invisible characters that change how text around them reads: bidi overrides and isolates, other controls. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with its invisible controls spelled out (`[U+202E]`), so "\u202Eexe.txt" cannot pose as "txt.exe". */
export function visibleText(text: string): string {
  return text.replace(INVISIBLE, (c) => `[U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}]`);
}

/**
 * Any JSON value someone else supplied (feedback metadata, …), as React text only: strings as
 * they are, numbers, booleans and null as literals, arrays and objects as nested lists. Never
 * HTML, and never a value React cannot render, so one odd record cannot break a page.
 *
 * @example
 * ```tsx
 * <JsonValue value={{ screen: "Settings", tags: ["beta", null] }} />
 * ```
 */
export function JsonValue(props: { value: unknown; depth?: number }) {
  const { value } = props;
  const depth = props.depth ?? 0;
  if (value === null) return <span className="json-literal">null</span>;
  if (typeof value === "string") return <span className="json-string">{visibleText(value)}</span>;
  if (typeof value === "number" || typeof value === "boolean") return <span className="json-literal">{String(value)}</span>;
  if (typeof value !== "object") return <span className="json-literal">{jsonText(value)}</span>;
  if (depth >= MAX_DEPTH) return <code className="json-literal">{jsonText(value)}</code>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="json-literal">[]</span>;
    return (
      <ol className="json-array" start={0}>
        {value.map((item: unknown, index) => (
          <li key={index}>
            <JsonValue value={item} depth={depth + 1} />
          </li>
        ))}
      </ol>
    );
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return <span className="json-literal">{"{}"}</span>;
  return (
    <dl className="json-object">
      {entries.map(([key, item]) => (
        <div key={key}>
          <dt>{visibleText(key)}</dt>
          <dd>
            <JsonValue value={item} depth={depth + 1} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
