/**
 * What a charge leaves the merchant, as the ledger books it. A payment credits the merchant what the
 * payer was charged (`paidAmountOf`: the paid amount, which for a card in installments with interest
 * is the installment plan's total, more than the order's amount) less the gateway's fee
 * (paymentJournal in journals.ts posts exactly these two lines). Every page that says "líquido"
 * reads it from here, so the figure is the statement's credit and never `amount - fee`.
 */
import { paidAmountOf, type TransactionMoney } from "./journals";
import { chosenInstallmentOption, type InstallmentPlan } from "./installments";
import { isPendingPastExpiry } from "./sandbox-offer";

/** The merchant's credit of a payment: what the payer was charged less the fee (paymentJournal's two lines). */
export function paymentCreditOf(t: Pick<TransactionMoney, "paidAmount" | "amount" | "feeEstimated">): number {
  return paidAmountOf(t) - t.feeEstimated;
}

type ChargeTerms = Pick<TransactionMoney, "paymentMethod" | "amount" | "paidAmount"> & {
  installments: number;
  installmentPlan: InstallmentPlan | null;
};

/**
 * What the payer is (or was) charged: the paid amount once paid; before that, for a card in
 * installments, the chosen option's total under the charge's own plan, else the account's (as the
 * card is charged when it is approved); else the amount.
 */
export function chargedTotalOf(t: ChargeTerms, accountPlan: InstallmentPlan): number {
  if (t.paidAmount > 0) return t.paidAmount;
  if (t.paymentMethod === "credit_card" && t.installments > 1) {
    return chosenInstallmentOption(t.amount, t.installmentPlan ?? accountPlan, t.installments)?.total ?? t.amount;
  }
  return t.amount;
}

/**
 * The fee and net amount a page shows for a charge:
 * - `none`: no money moved and none will (refused; pending past its expiry; open while another charge
 *   of its payment link paid the link, `linkPaidElsewhere`: it can no longer be paid, and money that
 *   arrives anyway is returned without fee): no fee, nothing net.
 * - `estimate`: not paid yet (pending, processing): the fee the plan would charge and what would be
 *   credited, charged only if it is paid.
 * - `charged`: paid at some point (paid, refunded, chargedback, in protest): the fee kept and the
 *   net the payment credited (a refund or chargeback later debits the balance on its own line), and
 *   what went back since (`returned`: the refunds, or all that was paid once a chargeback took it;
 *   `returnedBy` says which) with the net that leaves (`netAfterReturns`: the fee is not given back,
 *   docs/money.md).
 */
export type FeeView =
  | { kind: "none"; reason: "refused" | "expired" | "link_paid" }
  | { kind: "estimate"; fee: number; fixed: number; charged: number; net: number }
  | {
      kind: "charged";
      fee: number;
      fixed: number;
      charged: number;
      net: number;
      returned: number;
      returnedBy: "refunds" | "chargeback" | "refunds_and_chargeback" | null;
      netAfterReturns: number;
    };

export function feeViewOf(
  t: ChargeTerms & Pick<TransactionMoney, "status" | "feeEstimated" | "refundedAmount"> & { feeFixed: number; expiresAt: Date | null },
  accountPlan: InstallmentPlan,
  now: Date,
  opts: { linkPaidElsewhere?: boolean } = {},
): FeeView {
  if (t.status === "refused") return { kind: "none", reason: "refused" };
  if (isPendingPastExpiry(t, now)) return { kind: "none", reason: "expired" };
  if (t.status === "pending" || t.status === "processing") {
    if (opts.linkPaidElsewhere) return { kind: "none", reason: "link_paid" };
    const charged = chargedTotalOf(t, accountPlan);
    return { kind: "estimate", fee: t.feeEstimated, fixed: t.feeFixed, charged, net: charged - t.feeEstimated };
  }
  const charged = paidAmountOf(t);
  const net = paymentCreditOf(t);
  // A chargeback takes back all that was paid (refunds before it included); else what the refunds returned.
  const returned = t.status === "chargedback" ? charged : t.refundedAmount;
  const returnedBy = t.status === "chargedback" ? (t.refundedAmount > 0 ? "refunds_and_chargeback" : "chargeback") : returned > 0 ? "refunds" : null;
  return { kind: "charged", fee: t.feeEstimated, fixed: t.feeFixed, charged, net, returned, returnedBy, netAfterReturns: net - returned };
}
