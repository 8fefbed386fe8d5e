// Renders docs/settings.md from packages/server/src/config.ts: one row per field of `Config`, with
// the environment variables `loadConfig` reads for it (through its own helpers and those of
// config/), its `@default` and its doc comment; the rate-limit variables come from
// `DEFAULT_RATE_LIMITS` in rate-limit/buckets.ts. Run
// `npm run docs:settings` after changing a setting; scripts/settings-reference.test.mjs fails
// while docs/settings.md is stale.
import fs from "node:fs";
import { URL } from "node:url";
import ts from "typescript";

const SERVER = new URL("../packages/server/src/", import.meta.url);
export const SETTINGS_DOC = new URL("../docs/settings.md", import.meta.url);

function parse(file) {
  return ts.createSourceFile(file, fs.readFileSync(new URL(file, SERVER), "utf8"), ts.ScriptTarget.Latest, true);
}

/** A node's doc comment as one Markdown line, and its `@default`. */
function docOf(node) {
  const doc = node.jsDoc?.at(-1);
  if (doc === undefined) return { text: "", fallback: undefined };
  const text = ts.getTextOfJSDocComment(doc.comment) ?? "";
  const tag = doc.tags?.find((t) => t.tagName.text === "default");
  return {
    text: text.replace(/\{@link\s+([^}|\s]+)[^}]*\}/g, "`$1`").replace(/\s+/g, " ").trim(),
    fallback: tag === undefined ? undefined : (ts.getTextOfJSDocComment(tag.comment) ?? "").replace(/\s+/g, " ").trim(),
  };
}

const VARIABLE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$|^(?:PORT|HOST)$/;

/** The environment variables an expression reads, following the file's own functions and constants. */
function variablesRead(node, scope, seen) {
  const found = [];
  const visit = (n) => {
    if (ts.isStringLiteral(n) && VARIABLE.test(n.text)) found.push(n.text);
    else if (ts.isPropertyAccessExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === "env" && VARIABLE.test(n.name.text)) found.push(n.name.text);
    else if (ts.isIdentifier(n) && scope.has(n.text) && !seen.has(n.text)) {
      seen.add(n.text);
      found.push(...variablesRead(scope.get(n.text), scope, seen));
    }
    ts.forEachChild(n, visit);
  };
  visit(node);
  return [...new Set(found)];
}

/** config.ts, then the modules of config/ holding the helpers it reads variables through. */
function configSources() {
  const helpers = fs.readdirSync(new URL("config/", SERVER)).filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"));
  return ["config.ts", ...helpers.sort().map((name) => `config/${name}`)];
}

function configRows() {
  const [source, ...helpers] = configSources().map(parse);
  const scope = new Map();
  let fields = [];
  let result;
  for (const statement of [source, ...helpers].flatMap((file) => file.statements)) {
    if (ts.isInterfaceDeclaration(statement) && statement.name.text === "Config") fields = statement.members.filter(ts.isPropertySignature);
    if (ts.isFunctionDeclaration(statement) && statement.name !== undefined) {
      scope.set(statement.name.text, statement.body);
      if (statement.name.text === "loadConfig") {
        // loadConfig's own locals (dataDir, logLevel, …) are followed like the helpers.
        const visit = (n) => {
          if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer) scope.set(n.name.text, n.initializer);
          if (ts.isReturnStatement(n) && n.expression && ts.isObjectLiteralExpression(n.expression)) result = n.expression;
          ts.forEachChild(n, visit);
        };
        visit(statement.body);
      }
    }
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name) && declaration.initializer) scope.set(declaration.name.text, declaration.initializer);
      }
    }
  }
  if (result === undefined || fields.length === 0) throw new Error("config.ts: no Config interface or loadConfig return object");
  const initializers = new Map(
    result.properties.map((p) => [p.name.getText(source), ts.isShorthandPropertyAssignment(p) ? p.name : p.initializer]),
  );
  return fields.map((field) => {
    const name = field.name.getText(source);
    const initializer = initializers.get(name);
    if (initializer === undefined) throw new Error(`config.ts: loadConfig does not set ${name}`);
    // Another field's local (databaseUrl's default reads dataDir) belongs to that field's row.
    const others = new Set(fields.map((f) => f.name.getText(source)).filter((other) => other !== name));
    return { name, variables: variablesRead(initializer, scope, others), ...docOf(field) };
  });
}

function rateLimitRows() {
  const source = parse("rate-limit/buckets.ts");
  const statement = source.statements.find(
    (s) => ts.isVariableStatement(s) && s.declarationList.declarations[0]?.name.getText(source) === "DEFAULT_RATE_LIMITS",
  );
  let literal = statement?.declarationList.declarations[0]?.initializer;
  while (literal !== undefined && !ts.isObjectLiteralExpression(literal)) literal = literal.expression;
  if (literal === undefined) throw new Error("buckets.ts: no DEFAULT_RATE_LIMITS object");
  return literal.properties.map((p) => {
    const rule = Object.fromEntries(p.initializer.properties.map((q) => [q.name.getText(source), q.initializer.getText(source)]));
    const bucket = p.name.getText(source);
    const variable = `TIDINGS_RATE_LIMIT_${bucket.toUpperCase()}`;
    return { bucket, variable, perIpVariable: rule.perIp === undefined ? undefined : `${variable}_PER_IP`, rule: `${rule.limit}/${rule.windowSeconds}`, perIp: rule.perIp, text: docOf(p).text };
  });
}

const cell = (text) => text.replace(/\|/g, "\\|");
const code = (text) => {
  if (text === undefined || text === "" || text === "null") return "unset";
  const match = /^("[^"]*"|\{[^}]*\}|\S+)\s*(.*)$/.exec(text);
  return `\`${match[1].replace(/^"(.*)"$/, "$1")}\`${match[2] === "" ? "" : ` ${match[2]}`}`;
};

/** The whole text of docs/settings.md. */
export function renderSettingsReference() {
  const rows = configRows().map(({ name, variables, text, fallback }) => {
    const vars = name === "rateLimits" ? "`TIDINGS_RATE_LIMIT_<BUCKET>`" : variables.map((v) => `\`${v}\``).join(", ");
    return `| ${vars} | \`${name}\` | ${cell(code(fallback))} | ${cell(text)} |`;
  });
  const limits = rateLimitRows().map(({ bucket, variable, perIpVariable, rule, perIp, text }) => {
    const cap = perIp === undefined ? "none: per IP" : `\`${perIpVariable}\` = \`${perIp.replace(/_/g, "")}\``;
    return `| \`${variable}\` | \`${bucket}\` | \`${rule}\` | ${cap} | ${cell(text)} |`;
  });
  return `<!-- Generated from packages/server/src/config.ts by \`npm run docs:settings\`; do not edit by hand. -->

# Settings reference

Every setting is an environment variable, read and checked once at start by \`loadConfig\`
(packages/server/src/config.ts); a bad value stops the server with a message naming the variable.
This page is generated from that file's \`Config\` interface and its doc comments, so it lists
exactly what the code reads. How to choose values for a real deployment:
[Going to production](going-to-production.md); several instances: [deploy.md](deploy.md).

| Variable | Setting | Default | Meaning |
|---|---|---|---|
${rows.join("\n")}

## Rate limits

Each public route spends the budget of its bucket before any lookup; past the limit it answers
\`429 rate_limited\` with \`Retry-After\` (see [public-api.md](public-api.md#rate-limits)). Search
and console sign-in count per client IP. The other buckets count per caller — the user or SSO
token a request carries, or its IP when it carries none — and cap all callers of one IP together,
so users sharing an address (an office, a school, a carrier's NAT) each get their own budget.
Override a bucket with \`<requests>/<seconds>\` (seconds 1–86400), e.g.
\`TIDINGS_RATE_LIMIT_SEARCH=60/60\`, and its per-IP cap with \`<requests>\` over the same window
(at least the bucket's limit; a limit raised past the default cap raises the cap with it).

| Variable | Bucket | Default | Per-IP cap | Routes |
|---|---|---|---|---|
${limits.join("\n")}
`;
}
