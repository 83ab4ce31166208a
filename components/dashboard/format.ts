/**
 * Portuguese labels and pt-BR formatting for the dashboard. Dates are shown in Brasília time
 * whatever the server's zone. Pure: usable from server and client components.
 */
import { formatBRL } from "@/lib/domain/money";
import { BRASILIA_TIME_ZONE } from "@/lib/domain/time";
import type { CashOutSource } from "@/lib/domain/cash-out";

export { formatBRL };

/** A transaction's statuses, methods and the payer's phone (lib/domain/transaction-labels.ts, which the CSV export reads too). */
export { displayStatus, formatPhone, METHOD_LABEL, STATUS_LABEL, TX_STATUS_LABEL } from "@/lib/domain/transaction-labels";

const TZ = BRASILIA_TIME_ZONE;

const dateTimeFmt = new Intl.DateTimeFormat("pt-BR", { timeZone: TZ, dateStyle: "short", timeStyle: "short" });
const dateTimeSecFmt = new Intl.DateTimeFormat("pt-BR", { timeZone: TZ, dateStyle: "short", timeStyle: "medium" });
const dateFmt = new Intl.DateTimeFormat("pt-BR", { timeZone: TZ, dateStyle: "short" });
const longDateFmt = new Intl.DateTimeFormat("pt-BR", { timeZone: TZ, day: "numeric", month: "long", year: "numeric" });

const toDate = (d: Date | string) => (typeof d === "string" ? new Date(d) : d);

export const formatDateTime = (d: Date | string) => dateTimeFmt.format(toDate(d));
export const formatDateTimeSeconds = (d: Date | string) => dateTimeSecFmt.format(toDate(d));
export const formatDate = (d: Date | string) => dateFmt.format(toDate(d));
export const formatLongDate = (d: Date | string) => longDateFmt.format(toDate(d));

/** "20/03" for a YYYY-MM-DD day. */
export function formatDayMonth(ymd: string): string {
  const [, m, d] = ymd.split("-");
  return `${d}/${m}`;
}

export function formatPercent(ratio: number | null): string {
  if (ratio === null) return "—";
  return new Intl.NumberFormat("pt-BR", { style: "percent", maximumFractionDigits: 1 }).format(ratio);
}

export function formatInt(n: number): string {
  return new Intl.NumberFormat("pt-BR").format(n);
}

/** Short BRL for chart axes: "R$ 0", "R$ 950", "R$ 1,2 mil", "R$ 3,4 mi". */
export function formatBRLCompact(cents: number): string {
  const reais = cents / 100;
  if (Math.abs(reais) >= 1_000_000) return `R$ ${(reais / 1_000_000).toLocaleString("pt-BR", { maximumFractionDigits: 1 })} mi`;
  if (Math.abs(reais) >= 1_000) return `R$ ${(reais / 1_000).toLocaleString("pt-BR", { maximumFractionDigits: 1 })} mil`;
  return `R$ ${reais.toLocaleString("pt-BR", { maximumFractionDigits: 0 })}`;
}



export const METHOD_SHORT: Record<string, string> = { pix: "PIX", credit_card: "Cartão", boleto: "Boleto" };

export { ENTRY_TYPE_LABEL } from "@/lib/domain/statement-labels";

/** The statement's balances (lib/domain/statement-labels.ts, which the CSV export reads too). */
export { ACCOUNT_LABEL } from "@/lib/domain/statement-labels";

/** Where a cash-out's money comes from (`source` of a cash-out request). */
export const CASH_OUT_SOURCE_LABEL: Record<CashOutSource, string> = {
  arara: "Saldo na Arara",
  psp: "Saldo no seu PSP (Efí)",
};

export const CASH_OUT_STATUS_LABEL: Record<string, string> = {
  pending: "Pendente",
  processing: "Em processamento",
  completed: "Concluído",
  failed: "Falhou",
};

export const CHECKOUT_STATUS_LABEL: Record<string, string> = { open: "Aberto", paid: "Pago", expired: "Expirado" };

export const DELIVERY_STATE_LABEL: Record<string, string> = {
  pending: "Aguardando envio",
  succeeded: "Entregue",
  failed: "Falhou",
  skipped: "Sem URL de notificação",
  abandoned: "Abandonado",
};

export const CAUSE_LABEL: Record<string, string> = {
  created: "Transação criada",
  payment_processing: "Pagamento em processamento",
  payment_received: "Pagamento recebido",
  acquirer_approved: "Aprovada pela adquirente",
  acquirer_refused: "Recusada pela adquirente",
  refund: "Reembolso total",
  partial_refund: "Reembolso parcial",
  duplicate_payment_refund: "Devolvido: o link já estava pago",
  psp_amount_mismatch: "PIX recebido com valor diferente (não aceito)",
  psp_duplicate_payment: "PIX recebido em duplicidade (não aplicado)",
  psp_paid_after_expiry: "PIX pago após o vencimento",
  psp_charge_expired: "Cobrança PIX vencida no PSP",
  psp_charge_removed: "Cobrança PIX removida no PSP: não pode mais ser paga",
  psp_refund_requested: "Devolução solicitada ao PSP",
  psp_refund_failed: "Devolução não realizada pelo PSP",
  psp_med_return: "Devolução feita pelo PSP (MED, Mecanismo Especial de Devolução): reembolso registrado",
  psp_med_return_unbooked: "Devolução feita pelo PSP (MED) não registrada (saldo no PSP insuficiente ou nada a reembolsar) — verificar no PSP",
  psp_charge_unreachable: "Cobrança PIX sem resposta do PSP há 7 dias após o vencimento — verificar no PSP",
  chargeback: "Chargeback recebido",
  protest: "Chargeback contestado",
  protest_won: "Contestação ganha",
  protest_lost: "Contestação perdida",
};

/** The natureza of a return the PSP made by itself (MED), as a timeline entry names it. */
const MED_NATUREZA_LABEL: Record<string, string> = {
  MED_FRAUDE: "fraude",
  MED_OPERACIONAL: "falha operacional",
  MED_PIX_AUTOMATICO: "Pix Automático",
};

/**
 * A timeline entry's text: the cause's label, and for a return made at the PSP without Arara (MED, or
 * one the merchant made in the PSP's own app: natureza ORIGINAL or none) what it was
 * and the PSP's motivo (free text, already one line and capped: rendered as text, never markup), e.g.
 * "Devolução feita pelo PSP (MED: fraude): reembolso registrado — motivo: “Golpe do falso vendedor”".
 */
export function timelineEntryLabel(e: { cause: string; pspReturn?: { natureza: string | null; motivo: string | null } | null }): string {
  const label = CAUSE_LABEL[e.cause] ?? e.cause;
  if (!e.pspReturn) return label;
  const natureza = MED_NATUREZA_LABEL[e.pspReturn.natureza ?? ""];
  const med = (e.pspReturn.natureza ?? "").startsWith("MED_");
  // Not a MED (ORIGINAL, or none given): the money was returned at the PSP, in its app, without Arara.
  // A MED natureza this list does not know yet keeps the label's plain "(MED)".
  const named = natureza
    ? label.replace(/^Devolução feita pelo PSP \(MED[^)]*\)/, `Devolução feita pelo PSP (MED: ${natureza})`)
    : med
      ? label
      : label.replace(/^Devolução feita pelo PSP \(MED[^)]*\)/, "Devolução feita na sua conta do PSP, fora da Arara");
  return e.pspReturn.motivo ? `${named} — motivo: “${e.pspReturn.motivo}”` : named;
}

export const PIX_KEY_TYPE_LABEL: Record<string, string> = {
  cpf: "CPF",
  cnpj: "CNPJ",
  email: "E-mail",
  phone: "Telefone",
  evp: "Chave aleatória",
};

export type Tone = "neutral" | "success" | "warning" | "danger" | "info";

export const STATUS_TONE: Record<string, Tone> = {
  pending: "warning",
  processing: "info",
  paid: "success",
  approved: "success",
  refused: "danger",
  refunded: "neutral",
  chargedback: "danger",
  in_protest: "warning",
  completed: "success",
  failed: "danger",
  open: "info",
  expired: "neutral",
  succeeded: "success",
  skipped: "neutral",
  abandoned: "neutral",
};

export { formatDocument } from "@/lib/domain/documents";


/** Why the acquirer refused a card, in words (the API keeps the code in `refusedReason`). */
export const REFUSAL_LABEL: Record<string, string> = {
  card_declined: "O banco emissor recusou o cartão.",
  insufficient_funds: "Saldo ou limite insuficiente no cartão.",
  expired_card: "O cartão está vencido.",
  processing_error: "Erro ao processar o pagamento na adquirente.",
};

export function refusalLabel(reason: string): string {
  return REFUSAL_LABEL[reason] ?? "A adquirente não aprovou o pagamento.";
}

/**
 * Why a cash-out failed, in words. The PSP answers in its own terms (kept as they came in
 * `failReason`); the known ones are told in Portuguese, anything else with a general sentence.
 */
export function cashOutFailureLabel(reason: string): string {
  // Written by Arara in Portuguese for the merchant (a cash-out failed for incomplete PSP settings): as is.
  if (reason.startsWith("Configuração do PSP")) return reason;
  const r = reason.toLowerCase();
  if (/not registered|not found|dict|unknown key|nao encontrad|não encontrad/.test(r)) {
    return "A chave PIX não está cadastrada no DICT. Confira a chave e tente de novo.";
  }
  if (/rejected|recus|refused|declined/.test(r)) return "A instituição de destino recusou a transferência.";
  if (/timeout|timed out|unavailable|indispon/.test(r)) return "O PSP não respondeu a tempo; o valor voltou ao saldo disponível.";
  if (/limit|limite/.test(r)) return "A transferência passou de um limite da instituição.";
  return "A transferência não foi concluída pelo PSP; o valor voltou ao saldo disponível.";
}

/**
 * The "Client secret" line of the PIX settings' status panel. With `client_id no corpo` and no secret
 * stored, none is needed (the PSP identifies the application by its certificate and client id): saying
 * "Não informado" there read as something missing.
 */
export function clientSecretStatusLabel(view: { clientAuth: string; hasClientSecret: boolean }): string {
  if (view.hasClientSecret) return "Guardado (criptografado)";
  if (view.clientAuth === "body") return "Não usado: o PSP identifica a aplicação pelo client_id e pelo certificado";
  return "Não informado";
}
