import ui from "@/components/dashboard/ui.module.css";
import type { FormAction } from "./form-action";
import { SandboxMoves } from "./SandboxMoves";

/** The button's words for a sandbox move, by where the transaction is and where it goes. */
function sandboxLabel(from: string, to: string): string {
  if (to === "paid") return from === "in_protest" ? "Simular contestação ganha" : "Simular pagamento";
  if (to === "chargedback") return from === "in_protest" ? "Simular contestação perdida" : "Simular chargeback";
  const labels: Record<string, string> = {
    processing: "Simular processamento",
    refused: "Simular recusa",
    in_protest: "Contestar chargeback",
  };
  return labels[to] ?? to;
}

/** The sandbox moves offered on a test transaction. */
export function SandboxCard({ transactionId, status, moves, action }: { transactionId: number; status: string; moves: string[]; action: FormAction }) {
  return (
    <section className={ui.card} aria-labelledby="sandbox">
      <h2 id="sandbox">Simular no sandbox</h2>
      <p className={`${ui.small} ${ui.muted}`} style={{ marginTop: -6 }}>
        Move esta transação de teste como o banco ou a adquirente fariam, com os webhooks correspondentes.
      </p>
      <SandboxMoves transactionId={transactionId} moves={moves.map((to) => ({ to, label: sandboxLabel(status, to) }))} action={action} />
    </section>
  );
}
