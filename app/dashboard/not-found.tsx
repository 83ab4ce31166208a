import Link from "next/link";
import ui from "@/components/dashboard/ui.module.css";

// Also what another merchant's ids show: the same as an id that does not exist.
export default function DashboardNotFound() {
  return (
    <div className={ui.card} style={{ maxWidth: 560 }}>
      <h1 style={{ margin: "0 0 8px", fontSize: "1.4rem" }}>Não encontrado</h1>
      <p className={ui.muted} style={{ marginTop: 0 }}>
        Não há nada com este endereço na sua conta. Confira o número ou volte para a lista.
      </p>
      <div className={ui.buttonRow}>
        <Link href="/dashboard/transactions" className={ui.button}>
          Ver transações
        </Link>
        <Link href="/dashboard" className={`${ui.button} ${ui.secondary}`}>
          Visão geral
        </Link>
      </div>
    </div>
  );
}
