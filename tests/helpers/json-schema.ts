/**
 * A small JSON Schema (2020-12 subset) validator for checking real responses against the published
 * OpenAPI document: type (incl. type arrays), const, enum, properties, required,
 * additionalProperties: false, items, anyOf/oneOf/allOf, $ref to #/components/schemas. Enough for
 * what zod-openapi emits; an unknown keyword is ignored. Returns the problems found (empty = valid).
 */
type Schema = Record<string, any>;

export function validateAgainst(doc: Schema, schema: Schema, value: unknown, at = "$"): string[] {
  if (!schema || Object.keys(schema).length === 0) return [];
  if (schema.$ref) {
    const name = String(schema.$ref).replace("#/components/schemas/", "");
    const target = doc.components?.schemas?.[name];
    if (!target) return [`${at}: unresolved $ref ${schema.$ref}`];
    return validateAgainst(doc, target, value, at);
  }
  const problems: string[] = [];
  if (schema.anyOf || schema.oneOf) {
    const alts: Schema[] = schema.anyOf ?? schema.oneOf;
    const results = alts.map((s) => validateAgainst(doc, s, value, at));
    if (!results.some((r) => r.length === 0)) {
      problems.push(`${at}: matches none of ${alts.length} alternatives (${results.map((r) => r[0]).join(" | ")})`);
    }
  }
  for (const s of schema.allOf ?? []) problems.push(...validateAgainst(doc, s, value, at));
  if ("const" in schema && value !== schema.const) problems.push(`${at}: expected ${JSON.stringify(schema.const)}, got ${JSON.stringify(value)}`);
  if (schema.enum && !schema.enum.includes(value)) problems.push(`${at}: ${JSON.stringify(value)} not in enum ${JSON.stringify(schema.enum)}`);
  if (schema.type) {
    const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type];
    const actual =
      value === null ? "null" : Array.isArray(value) ? "array" : typeof value === "number" && Number.isInteger(value) ? "integer" : typeof value;
    const ok = types.some((t) => t === actual || (t === "number" && actual === "integer"));
    if (!ok) {
      problems.push(`${at}: expected ${types.join("|")}, got ${actual} (${JSON.stringify(value)?.slice(0, 60)})`);
      return problems;
    }
  }
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    const props: Schema = schema.properties ?? {};
    for (const r of schema.required ?? []) if (!(r in obj)) problems.push(`${at}: missing required ${r}`);
    for (const [k, v] of Object.entries(obj)) {
      if (props[k]) problems.push(...validateAgainst(doc, props[k], v, `${at}.${k}`));
      else if (schema.additionalProperties === false) problems.push(`${at}: undocumented property ${k}`);
      else if (typeof schema.additionalProperties === "object") problems.push(...validateAgainst(doc, schema.additionalProperties, v, `${at}.${k}`));
    }
  }
  if (Array.isArray(value) && schema.items) value.forEach((v, i) => problems.push(...validateAgainst(doc, schema.items, v, `${at}[${i}]`)));
  return problems;
}

/** The documented JSON schema of an operation's response for a status. */
export function responseSchema(doc: Schema, method: string, path: string, status: number): Schema {
  const op = doc.paths?.[path]?.[method.toLowerCase()];
  if (!op) throw new Error(`No operation ${method} ${path} in the document`);
  const r = op.responses?.[String(status)];
  if (!r) throw new Error(`${method} ${path} documents no ${status} response (has ${Object.keys(op.responses ?? {}).join(", ")})`);
  const media = r.content?.["application/json"];
  if (!media) throw new Error(`${method} ${path} ${status} has no JSON body in the document`);
  return media.schema;
}
