"use client";

import Link from "next/link";
import ui from "@/components/dashboard/ui.module.css";

/** What the dashboard shows when a page fails on the server: in Portuguese, with a way out. */
export default function DashboardError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className={ui.card} style={{ maxWidth: 560 }} role="alert" data-testid="dashboard-error">
      <h1 style={{ margin: "0 0 8px", fontSize: "1.4rem" }}>Algo deu errado</h1>
      <p className={ui.muted} style={{ marginTop: 0 }}>
        Não foi possível carregar esta página agora. Tente de novo em instantes; se continuar, fale com o suporte informando o
        código abaixo.
      </p>
      {error.digest && (
        <p className={ui.small}>
          Código do erro: <span className={ui.mono}>{error.digest}</span>
        </p>
      )}
      <div className={ui.buttonRow}>
        <button type="button" className={ui.button} onClick={() => reset()}>
          Tentar de novo
        </button>
        <Link href="/dashboard" className={`${ui.button} ${ui.secondary}`}>
          Visão geral
        </Link>
      </div>
    </div>
  );
}
