import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Página não encontrada" };

/** Any address nothing answers (outside the dashboard and the checkout, which have their own). */
export default function NotFound() {
  return (
    <main style={{ maxWidth: 560, margin: "15vh auto", padding: "0 20px", fontFamily: "system-ui, sans-serif", color: "#0f172a" }}>
      <h1 style={{ fontSize: "1.6rem", margin: "0 0 8px" }}>Página não encontrada</h1>
      <p style={{ color: "#475569" }}>O endereço não existe ou mudou. Confira o link ou volte para o início.</p>
      <p>
        <Link href="/" style={{ color: "#0f766e", fontWeight: 600 }}>
          Ir para o início
        </Link>
      </p>
    </main>
  );
}
