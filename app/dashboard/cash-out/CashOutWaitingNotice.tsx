import Link from "next/link";
import type { CashOutWaiting } from "@/lib/services/cash-outs/psp-waiting";
import { formatDateTime } from "@/components/dashboard/format";
import ui from "@/components/dashboard/ui.module.css";

/** The headline of why a cash-out waits on its PSP. */
export function waitingTitle(w: CashOutWaiting): string {
  if (w.code === "not_configured") return "Configuração do PSP incompleta";
  if (w.code === "confirmation_pending") return "Aguardando confirmação da Efí";
  return "A Efí não pôde ser consultada";
}

/** One line under the status, in the cash-out list. */
export function CashOutWaitingLine({ waiting }: { waiting: CashOutWaiting }) {
  return (
    <div className={`${ui.small} ${ui.muted}`} data-testid="cash-out-waiting" title={waiting.message} style={{ marginTop: 4, maxWidth: 170 }}>
      {waitingTitle(waiting)}
      <br />
      desde {formatDateTime(waiting.since)}
    </div>
  );
}

/** The cash-out's page: why it waits, since when, and what happens next. */
export function CashOutWaitingNotice({ waiting, status }: { waiting: CashOutWaiting; status: string }) {
  return (
    <div className={`${ui.alert} ${ui.alertWarning}`} role="status" data-testid="cash-out-waiting" style={{ display: "grid", gap: 6, marginBottom: 16 }}>
      <strong>
        {waitingTitle(waiting)} desde {formatDateTime(waiting.since)}
      </strong>
      <span data-testid="cash-out-waiting-message">{waiting.message}</span>
      {waiting.failsAt ? (
        <span>
          O saque ainda não foi enviado à Efí. Se a configuração não for completada em{" "}
          <Link href="/dashboard/settings/pix">Configurações → Recebimento PIX</Link>, ele será cancelado em {formatDateTime(waiting.failsAt)} e o valor e a
          tarifa voltarão ao saldo disponível.
        </span>
      ) : status === "processing" ? (
        <span>
          A Efí aceitou o Pix: o saque não é cancelado enquanto ela puder realizá-lo. A consulta continua, cada vez mais espaçada (no máximo a cada 15
          minutos), e o saque é concluído ou devolvido ao saldo quando a Efí responder.
        </span>
      ) : (
        <span>
          Uma tentativa de envio pode ter chegado à Efí, por isso o saque não é cancelado automaticamente: o valor segue reservado e o envio é tentado
          de novo com o mesmo identificador (a Efí nunca faz duas transferências com ele).
          {waiting.code === "not_configured" && (
            <>
              {" "}
              Complete a configuração em <Link href="/dashboard/settings/pix">Configurações → Recebimento PIX</Link>.
            </>
          )}
        </span>
      )}
    </div>
  );
}
