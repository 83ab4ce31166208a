/**
 * Reading helpers for the /docs page: flatten the JSON schemas of the OpenAPI document into field
 * tables (customer.document.number, items[].title) and short type labels. Pure functions of the
 * document, so the page shows exactly what /api/v1/openapi.json says.
 */
type Json = Record<string, any>;

export type FieldRow = {
  name: string;
  type: string;
  required: boolean;
  description: string;
  constraints: string[];
  /** The component the field's type is, when it is one (for a link). */
  ref?: string;
};

const MAX_DEPTH = 5;

export function refName(ref: string): string {
  return ref.replace("#/components/schemas/", "");
}

export function resolve(doc: Json, schema: Json | undefined): Json {
  let s = schema ?? {};
  for (let i = 0; i < 10 && s.$ref; i++) s = doc.components?.schemas?.[refName(s.$ref)] ?? {};
  return s;
}

/** Alternatives of a union, with a bare `null` folded into "nullable". */
function alternatives(s: Json): { alts: Json[]; nullable: boolean } {
  const list: Json[] = s.anyOf ?? s.oneOf ?? [];
  const flat: Json[] = [];
  for (const a of list) {
    const inner = a.anyOf ?? a.oneOf;
    if (inner && !a.$ref) flat.push(...inner);
    else flat.push(a);
  }
  const nullable = flat.some((a) => a.type === "null");
  return { alts: flat.filter((a) => a.type !== "null"), nullable };
}

export function typeLabel(doc: Json, schema: Json | undefined): string {
  const s = schema ?? {};
  if (s.$ref) return refName(s.$ref);
  if (s.anyOf || s.oneOf) {
    const { alts, nullable } = alternatives(s);
    const labels = [...new Set(alts.map((a) => typeLabel(doc, a)))];
    return labels.join(" | ") + (nullable ? " | null" : "");
  }
  if ("const" in s) return JSON.stringify(s.const);
  if (s.enum) return "enum";
  const types: string[] = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (types.includes("array") || (!types.length && s.items)) return `${typeLabel(doc, s.items)}[]`;
  if (!types.length) return s.properties ? "object" : "any";
  return types.join(" | ");
}

export function constraintsOf(s: Json): string[] {
  const out: string[] = [];
  if (s.enum) out.push(`one of: ${s.enum.map((v: unknown) => JSON.stringify(v)).join(", ")}`);
  if (s.format) out.push(`format ${s.format}`);
  // z.int() bounds every integer by the safe range: that is not a rule worth showing.
  const min = s.minimum !== undefined && s.minimum > Number.MIN_SAFE_INTEGER ? s.minimum : undefined;
  const max = s.maximum !== undefined && s.maximum < Number.MAX_SAFE_INTEGER ? s.maximum : undefined;
  if (min !== undefined && max !== undefined) out.push(`${min} to ${max}`);
  else if (min !== undefined) out.push(`at least ${min}`);
  else if (max !== undefined) out.push(`at most ${max}`);
  if (s.minLength !== undefined && s.minLength > 0) out.push(`min length ${s.minLength}`);
  if (s.maxLength !== undefined) out.push(`max length ${s.maxLength}`);
  if (s.minItems !== undefined) out.push(`min ${s.minItems} items`);
  if (s.maxItems !== undefined) out.push(`max ${s.maxItems} items`);
  if (s.pattern && s.pattern.length <= 40) out.push(`pattern ${s.pattern}`);
  if (s.default !== undefined) out.push(`default ${JSON.stringify(s.default)}`);
  return out;
}

/** The object schema a property leads into (through refs, nullable unions and arrays), if any. */
function objectInside(doc: Json, s: Json): { schema: Json; array: boolean } | null {
  let cur = resolve(doc, s);
  let array = false;
  if (cur.anyOf || cur.oneOf) {
    const { alts } = alternatives(cur);
    const objects = alts.map((a) => resolve(doc, a)).filter((a) => a.properties || a.items);
    if (objects.length !== 1) return null;
    cur = objects[0];
  }
  if (cur.items) {
    cur = resolve(doc, cur.items);
    array = true;
  }
  return cur.properties ? { schema: cur, array } : null;
}

/** The component a property refers to (directly, as array items or in a nullable union). */
function refOf(prop: Json): string | undefined {
  if (prop.$ref) return refName(prop.$ref);
  if (prop.items?.$ref) return refName(prop.items.$ref);
  const alts: Json[] = prop.anyOf ?? prop.oneOf ?? [];
  const refs = alts.filter((a) => a.$ref || a.items?.$ref);
  return refs.length === 1 ? refOf(refs[0]) : undefined;
}

/**
 * Rows for every property, nested objects expanded with dotted names. With `expandRefs` false,
 * a property whose type is a component is not expanded (the component is listed on its own).
 */
export function fieldRows(
  doc: Json,
  schema: Json | undefined,
  opts: { expandRefs?: boolean } = {},
  prefix = "",
  depth = 0,
  seen: Set<string> = new Set(),
): FieldRow[] {
  const s = resolve(doc, schema);
  if (!s.properties || depth > MAX_DEPTH) return [];
  const required = new Set<string>(s.required ?? []);
  const rows: FieldRow[] = [];
  for (const [name, raw] of Object.entries<Json>(s.properties)) {
    const prop = raw as Json;
    const inner = resolve(doc, prop);
    const { alts } = inner.anyOf || inner.oneOf ? alternatives(inner) : { alts: [] as Json[] };
    const described = prop.description ?? inner.description ?? alts.find((a) => a.description)?.description ?? "";
    const constraintSource = alts.length === 1 ? { ...resolve(doc, alts[0]), ...inner } : inner;
    const full = prefix + name;
    const ref = refOf(prop);
    rows.push({
      name: full,
      type: typeLabel(doc, prop),
      required: required.has(name),
      description: described,
      constraints: constraintsOf(constraintSource),
      ...(ref ? { ref } : {}),
    });
    if (ref && opts.expandRefs === false) continue;
    const nested = objectInside(doc, prop);
    const key = ref ?? "";
    if (nested && !(key && seen.has(key))) {
      const next = new Set(seen);
      if (key) next.add(key);
      rows.push(...fieldRows(doc, nested.schema, opts, `${full}${nested.array ? "[]" : ""}.`, depth + 1, next));
    }
  }
  return rows;
}

export type OperationEntry = { method: string; path: string; op: Json };

/** Operations grouped by their first tag, in the order of the document's tags. */
export function operationsByTag(doc: Json): { tag: string; description: string; operations: OperationEntry[] }[] {
  const groups = new Map<string, OperationEntry[]>();
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    for (const method of ["get", "post", "put", "patch", "delete"]) {
      const op = item[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? "Other";
      groups.set(tag, [...(groups.get(tag) ?? []), { method, path, op }]);
    }
  }
  const tags: Json[] = doc.tags ?? [];
  const order = [...tags.map((t) => t.name as string), ...[...groups.keys()].filter((k) => !tags.some((t) => t.name === k))];
  return order
    .filter((t) => groups.has(t))
    .map((t) => ({ tag: t, description: tags.find((x) => x.name === t)?.description ?? "", operations: groups.get(t)! }));
}

/** Splits text on `code` spans, for rendering inline code without Markdown. */
export function codeSpans(text: string): { code: boolean; text: string }[] {
  return text.split(/(`[^`]+`)/g).filter(Boolean).map((p) => (p.startsWith("`") && p.endsWith("`") && p.length > 1 ? { code: true, text: p.slice(1, -1) } : { code: false, text: p }));
}
