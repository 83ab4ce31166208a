"use client";

import { useActionState, useState } from "react";
import { KeyBox } from "@/components/ui/KeyBox";
import type { ActionState } from "@/lib/auth/action";
import { rotateSecretKeyAction } from "./actions";
import ui from "@/components/dashboard/ui.module.css";

export function SecretKeyRotation({ currentHint }: { currentHint: string | null }) {
  const [state, formAction, pending] = useActionState<ActionState<{ secretKey: string }>>(rotateSecretKeyAction, { status: "idle" });
  const [confirming, setConfirming] = useState(false);

  if (state.status === "ok" && state.data) {
    return (
      <div className={ui.form}>
        <div className={`${ui.alert} ${ui.alertWarning}`} role="alert">
          <strong>Nova chave secreta gerada. Copie agora: ela não será mostrada de novo.</strong>
          A chave anterior foi revogada e já não autentica na API. As outras sessões do painel desta conta foram encerradas e pedem
          login de novo; a sua continua.
        </div>
        <KeyBox value={state.data.secretKey} label="Nova chave secreta" testId="new-secret-key" />
      </div>
    );
  }

  return (
    <div className={ui.form}>
      {state.status === "error" && (
        <div className={`${ui.alert} ${ui.alertError}`} role="alert">
          {state.message}
        </div>
      )}
      {!confirming ? (
        <div>
          <button type="button" className={`${ui.button} ${ui.secondary}`} onClick={() => setConfirming(true)}>
            Gerar nova chave secreta
          </button>
        </div>
      ) : (
        <form action={formAction} className={ui.confirmBox} aria-label="Confirmar troca da chave secreta">
          <div>
            <strong>Trocar a chave secreta?</strong>
            <p className={ui.small} style={{ margin: "4px 0 0" }}>
              A chave atual{currentHint ? ` (${currentHint})` : ""} para de funcionar imediatamente. Atualize seus sistemas com a nova
              chave logo em seguida.
            </p>
            <p className={ui.small} style={{ margin: "4px 0 0" }} data-testid="rotation-ends-sessions">
              Todas as sessões do painel desta conta também são encerradas (outros navegadores, aparelhos e membros da equipe precisam
              entrar de novo); só esta continua. É o esperado numa troca por vazamento: quem tinha a chave ou uma sessão aberta perde o
              acesso.
            </p>
          </div>
          <div className={ui.buttonRow}>
            <button type="submit" className={`${ui.button} ${ui.danger}`} disabled={pending}>
              {pending ? "Gerando…" : "Revogar e gerar nova"}
            </button>
            <button type="button" className={`${ui.button} ${ui.secondary}`} onClick={() => setConfirming(false)} disabled={pending}>
              Cancelar
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
