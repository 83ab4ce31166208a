"use client";

import { useActionState, useState } from "react";
import { KeyBox } from "@/components/ui/KeyBox";
import type { ActionState } from "@/lib/auth/action";
import { revealWebhookSecretAction, rotateWebhookSecretAction } from "./actions";
import ui from "@/components/dashboard/ui.module.css";

type S = ActionState<{ secret: string }>;

export function WebhookSecret() {
  const [revealed, reveal, revealing] = useActionState<S>(revealWebhookSecretAction, { status: "idle" });
  const [confirming, setConfirming] = useState(false);
  const [rotated, rotate, rotating] = useActionState<S>(async () => {
    const result = await rotateWebhookSecretAction();
    setConfirming(false);
    return result;
  }, { status: "idle" });
  const secret = rotated.status === "ok" ? rotated.data?.secret : revealed.status === "ok" ? revealed.data?.secret : undefined;
  const error = rotated.status === "error" ? rotated.message : revealed.status === "error" ? revealed.message : null;

  return (
    <div className={ui.form}>
      {error && (
        <div className={`${ui.alert} ${ui.alertError}`} role="alert">
          {error}
        </div>
      )}
      {rotated.status === "ok" && (
        <div className={`${ui.alert} ${ui.alertSuccess}`} role="status">
          Novo segredo gerado. Os próximos webhooks já são assinados com ele.
        </div>
      )}
      {secret ? (
        <KeyBox value={secret} label="Segredo de assinatura dos webhooks" testId="webhook-secret" />
      ) : (
        <div className={ui.keyBox}>
          <code aria-label="Segredo oculto">whsec_••••••••••••••••</code>
          <form action={reveal}>
            <button type="submit" className={`${ui.button} ${ui.secondary} ${ui.buttonSmall}`} disabled={revealing}>
              {revealing ? "Revelando…" : "Revelar"}
            </button>
          </form>
        </div>
      )}
      {!confirming ? (
        <div>
          <button type="button" className={`${ui.button} ${ui.ghost}`} onClick={() => setConfirming(true)}>
            Gerar novo segredo
          </button>
        </div>
      ) : (
        <form action={rotate} className={ui.confirmBox} aria-label="Confirmar troca do segredo">
          <div>
            <strong>Gerar um novo segredo de assinatura?</strong>
            <p className={ui.small} style={{ margin: "4px 0 0" }}>
              Webhooks enviados a partir de agora serão assinados com o novo segredo; quem verifica a assinatura com o atual
              passará a rejeitá-los até ser atualizado.
            </p>
          </div>
          <div className={ui.buttonRow}>
            <button type="submit" className={`${ui.button} ${ui.danger}`} disabled={rotating}>
              Gerar novo segredo
            </button>
            <button type="button" className={`${ui.button} ${ui.secondary}`} onClick={() => setConfirming(false)}>
              Cancelar
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
