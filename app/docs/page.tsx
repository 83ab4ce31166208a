import type { Metadata } from "next";
import { openApiDocument } from "@/lib/openapi/document";
import type { Guide } from "@/lib/openapi/guides";
import { fieldRows, operationsByTag, refName, typeLabel } from "@/lib/openapi/render";
import s from "./docs.module.css";
import { Example, Fields, GuideSection, Parameters, Prose, Text } from "./parts";

// Rendered on the server from the same document as /api/v1/openapi.json: no client script, nothing
// fetched from elsewhere. Dynamic because the document names this deployment's base URL.
export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "API reference", description: "Arara payments API reference (OpenAPI 3.1)" };

type Json = Record<string, any>;

function Operation({ doc, method, path, op, id }: { doc: Json; method: string; path: string; op: Json; id: string }) {
  const media: Json | undefined = op.requestBody?.content ? Object.values<Json>(op.requestBody.content)[0] : undefined;
  const security: string[] = (op.security ?? []).flatMap((x: Json) => Object.keys(x));
  const bodyRows = media ? fieldRows(doc, media.schema) : [];
  return (
    <section className={s.operation} id={id}>
      <h4>
        <span className={`${s.method} ${s[method]}`}>{method.toUpperCase()}</span> <code className={s.path}>{path}</code>
      </h4>
      <p className={s.summary}>{op.summary}</p>
      <Prose text={op.description} />
      <p className={s.meta}>
        Auth:{" "}
        {security.includes("basicAuth")
          ? "HTTP Basic with your secret key"
          : security.includes("publicKey")
            ? "your public key in ?publicKey="
            : "none (public)"}
        {op["x-idempotent"] ? " · Idempotency-Key honoured" : ""}
      </p>
      {(op["x-notes"] ?? []).map((n: string) => (
        <Prose key={n} text={n} className={s.note} />
      ))}
      <Parameters params={op.parameters} />
      {media ? (
        <>
          <Fields title={`Request body (${Object.keys(op.requestBody.content)[0]})`} rows={bodyRows} />
          <Prose text={op.requestBody.description} />
          <Example value={media.example} />
          {Object.entries<Json>(media.examples ?? {}).map(([name, ex]) => (
            <Example key={name} value={ex.value} label={`Example: ${name}`} />
          ))}
        </>
      ) : null}
      <h5>Responses</h5>
      <ul className={s.responses}>
        {Object.entries<Json>(op.responses ?? {}).map(([status, r]) => {
          const m: Json | undefined = r.content ? Object.values<Json>(r.content)[0] : undefined;
          const schema = m?.schema;
          return (
            <li key={status}>
              <span className={Number(status) < 400 ? s.ok : s.err}>{status}</span> <Text>{r.description}</Text>
              {schema?.$ref ? (
                <>
                  {" "}
                  — <a href={`#schema-${refName(schema.$ref)}`}>{refName(schema.$ref)}</a>
                </>
              ) : null}
              {Number(status) < 400 && m?.example !== undefined ? <Example value={m.example} label="Example response" /> : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export default function DocsPage() {
  const doc = openApiDocument();
  const groups = operationsByTag(doc);
  const guides: Guide[] = doc["x-guides"] ?? [];
  const webhooks = Object.entries<Json>(doc.webhooks ?? {});
  const schemas = Object.entries<Json>(doc.components?.schemas ?? {}).sort(([a], [b]) => a.localeCompare(b));
  const base: string = doc.servers?.[0]?.url ?? "";

  return (
    <div className={s.page}>
      <nav className={s.nav} aria-label="Contents">
        <p className={s.brand}>Arara API</p>
        <p className={s.navHead}>Guides</p>
        <ul>
          {guides.map((g) => (
            <li key={g.id}>
              <a href={`#${g.id}`}>{g.title}</a>
            </li>
          ))}
        </ul>
        {groups.map((grp) => (
          <div key={grp.tag}>
            <p className={s.navHead}>{grp.tag}</p>
            <ul>
              {grp.operations.map((o) => (
                <li key={`${o.method} ${o.path}`}>
                  <a href={`#${o.op.operationId}`}>{o.op.summary}</a>
                </li>
              ))}
            </ul>
          </div>
        ))}
        <p className={s.navHead}>Webhooks</p>
        <ul>
          {webhooks.map(([name, item]) => (
            <li key={name}>
              <a href={`#webhook-${name}`}>{item.post?.summary ?? name}</a>
            </li>
          ))}
        </ul>
        <p className={s.navHead}>
          <a href="#schemas">Schemas</a>
        </p>
      </nav>
      <main className={s.main}>
        <header className={s.header}>
          <h1>{doc.info.title}</h1>
          <Prose text={doc.info.summary} />
          <p className={s.meta}>
            Version {doc.info.version} · OpenAPI {doc.openapi} · Base URL <code>{base}</code> · Machine-readable:{" "}
            <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>
          </p>
        </header>

        <h2>Guides</h2>
        {guides.map((g) => (
          <GuideSection key={g.id} g={g} />
        ))}

        {groups.map((grp) => (
          <div key={grp.tag}>
            <h2 id={`tag-${grp.tag}`}>{grp.tag}</h2>
            <Prose text={grp.description} />
            {grp.operations.map((o) => (
              <Operation key={`${o.method} ${o.path}`} doc={doc} method={o.method} path={o.path} op={o.op} id={o.op.operationId} />
            ))}
          </div>
        ))}

        <h2 id="webhooks-sent">Webhooks we send</h2>
        {webhooks.map(([name, item]) => (
          <Operation key={name} doc={doc} method="post" path="{postbackUrl}" op={item.post} id={`webhook-${name}`} />
        ))}

        <h2 id="schemas">Schemas</h2>
        {schemas.map(([name, schema]) => (
          <section key={name} id={`schema-${name}`} className={s.schema}>
            <h4>{name}</h4>
            <Prose text={schema.description} />
            {fieldRows(doc, schema, { expandRefs: false }).length ? (
              <Fields rows={fieldRows(doc, schema, { expandRefs: false })} />
            ) : (
              <p className={s.meta}>{typeLabel(doc, schema)}</p>
            )}
            {schema.example !== undefined ? <Example value={schema.example} /> : null}
          </section>
        ))}
      </main>
    </div>
  );
}
