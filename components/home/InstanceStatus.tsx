import s from "./home.module.css";

export type InstanceInfo = {
  ok: boolean;
  version: string;
  database: "pglite" | "postgres";
  environment: "development" | "production" | "test";
};

const DATABASE_LABEL: Record<InstanceInfo["database"], string> = {
  pglite: "PGlite (PostgreSQL embutido)",
  postgres: "PostgreSQL",
};

const ENVIRONMENT_LABEL: Record<InstanceInfo["environment"], string> = {
  development: "desenvolvimento",
  production: "produção",
  test: "teste",
};

/** The health of this instance, read when the page is rendered: status, version, database. */
export function InstanceStatus({ info }: { info: InstanceInfo }) {
  return (
    <section className={s.card} aria-labelledby="instancia">
      <h2 id="instancia">Esta instância</h2>
      <p className={info.ok ? s.statusOk : s.statusDown} data-testid="instance-status">
        <span className={s.dot} aria-hidden="true" />
        {info.ok ? "Operando normalmente" : "Banco de dados indisponível"}
      </p>
      <dl className={s.facts}>
        <div>
          <dt>Versão</dt>
          <dd data-testid="instance-version">{info.version}</dd>
        </div>
        <div>
          <dt>Banco de dados</dt>
          <dd data-testid="instance-database">{DATABASE_LABEL[info.database]}</dd>
        </div>
        <div>
          <dt>Ambiente</dt>
          <dd>{ENVIRONMENT_LABEL[info.environment]} · sandbox</dd>
        </div>
      </dl>
      <p className={s.small}>
        Para monitoramento:{" "}
        {/* A JSON endpoint, not a page: a plain link, no client-side navigation. */}
        {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
        <a href="/api/v1/health">/api/v1/health</a> (JSON, HTTP 200 quando está tudo certo).
      </p>
    </section>
  );
}
