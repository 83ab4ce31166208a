import type { Metadata } from "next";
import Link from "next/link";
import { BrandMark } from "@/components/dashboard/BrandMark";
import { InstanceStatus } from "@/components/home/InstanceStatus";
import s from "@/components/home/home.module.css";
import { buttonClass } from "@/components/ui/Button";
import { getEnv } from "@/lib/env";
import { databaseHealth } from "@/lib/services/health";
import { DEMO } from "@/lib/services/accounts/demo-merchant";
import { version } from "@/package.json";

export const metadata: Metadata = { title: { absolute: "Arara · gateway de pagamentos" } };
// The instance's health is read when the page is requested, never at build time.
export const dynamic = "force-dynamic";

/**
 * What a self-hoster looks for first: sign in, sign up, the API reference, and whether this instance
 * is healthy (version, database, status).
 */
export default async function Home() {
  const env = getEnv();
  const health = await databaseHealth();
  return (
    <div className={s.page}>
      <header className={s.header}>
        <Link href="/" className={s.brand}>
          <BrandMark />
          Arara
        </Link>
        <nav aria-label="Principal" className={s.headerNav}>
          <Link href="/docs" className={buttonClass("ghost")}>
            API
          </Link>
          <Link href="/login" className={buttonClass("ghost")}>
            Entrar
          </Link>
        </nav>
      </header>
      <main className={s.main}>
        <section className={s.hero} aria-labelledby="titulo">
          <h1 id="titulo">Receba por PIX, boleto e cartão</h1>
          <p>
            Gateway de pagamentos para o Brasil que você hospeda: API para o seu sistema, checkout hospedado para quem paga e
            painel para acompanhar vendas, saldo e saques.
          </p>
          <div className={s.actions}>
            <Link href="/login" className={buttonClass("primary")}>
              Entrar no painel
            </Link>
            {env.signupOpen ? (
              <Link href="/signup" className={buttonClass("secondary")}>
                Criar conta
              </Link>
            ) : null}
          </div>
        </section>
        <div className={s.grid}>
          <section className={s.card} aria-labelledby="dev">
            <h2 id="dev">Para desenvolvedores</h2>
            <ul className={s.links}>
              <li>
                <Link href="/docs">
                  Referência da API
                  <span>Rotas, campos, erros, webhooks e dados de teste</span>
                </Link>
              </li>
              <li>
                <a href="/api/v1/openapi.json">
                  Documento OpenAPI 3.1
                  <span>Para gerar clientes ou importar no Postman e similares</span>
                </a>
              </li>
            </ul>
            {env.demoMerchant ? (
              <p className={s.small}>
                Conta de demonstração pronta: entre no painel com <code>{DEMO.email}</code> (a senha está na página de entrada)
                e chame a API com a chave secreta <code>{DEMO.secretKey}</code>.
              </p>
            ) : null}
          </section>
          <InstanceStatus info={{ ok: health.ok, version, database: health.kind, environment: env.nodeEnv }} />
        </div>
      </main>
      <footer className={s.footer}>
        <p>Ambiente sandbox: nenhuma cobrança real é feita.</p>
        <p>Código aberto sob a licença Apache 2.0.</p>
      </footer>
    </div>
  );
}
