"use client";

import { useEffect, useState } from "react";
import { Alert } from "../ui/Alert";
import { keptAttempt } from "./attempt";
import { dictionary, type Locale } from "./i18n";
import s from "./checkout.module.css";

type Pending = { secureId: string; paymentMethod: "pix" | "boleto" };

/**
 * "Você já gerou um PIX para este pedido. Continuar pagamento": asked of the server with this
 * browser's attempt key (components/checkout/attempt.ts), so only the browser that made the PIX or
 * boleto is offered it; anyone else who opens the shared link sees nothing of it.
 */
export function PendingCharge({ linkSecureId, locale }: { linkSecureId: string; locale: Locale }) {
  const t = dictionary(locale);
  const [pending, setPending] = useState<Pending | null>(null);
  useEffect(() => {
    const attempt = keptAttempt(linkSecureId);
    if (!attempt) return;
    let gone = false;
    void (async () => {
      try {
        const res = await fetch(`/checkout/${linkSecureId}/pending`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ attempt }),
          cache: "no-store",
        });
        const json = (await res.json().catch(() => null)) as { data?: Pending | null } | null;
        if (!gone && res.ok && json?.data) setPending(json.data);
      } catch {
        // Offline: nothing to offer; paying again with the same details gives the same charge anyway.
      }
    })();
    return () => {
      gone = true;
    };
  }, [linkSecureId]);
  if (!pending) return null;
  return (
    <Alert tone="info">
      <p>
        {t.link.pending(pending.paymentMethod)}{" "}
        <a className={s.textLink} href={`/checkout/${pending.secureId}`} data-testid="continue-pending">
          {t.link.continue}
        </a>
      </p>
    </Alert>
  );
}
