/**
 * The "Simular pagamento (sandbox)" control of the hosted checkout: pays a test PIX or clears a test
 * boleto as the sandbox PSP would, through the same `sandboxMove` as PUT /api/v1/transactions/{id}/test.
 * Runs server-side in the merchant's account; the page never sees a key. Live transactions refuse, and
 * so does a charge of a payment link another charge already paid (409).
 */
import { findAccountById } from "../accounts/accounts";
import { findTransactionBySecureId, isSecureId } from "./checkout-lookup";
import { ServiceError, notFound } from "../errors";
import type { PayerRequest } from "./pay-checkout";
import { sandboxMove } from "../transactions/sandbox-move";

export async function simulateCheckoutPayment(secureId: string, req: PayerRequest): Promise<{ status: string }> {
  if (!isSecureId(secureId)) throw notFound("Checkout");
  const t = await findTransactionBySecureId(secureId.toLowerCase());
  if (!t) throw notFound("Checkout");
  if (t.livemode) throw new ServiceError("forbidden", "Only sandbox (test) transactions can be simulated.");
  if (t.status === "paid") return { status: "paid" };
  if (t.paymentMethod === "credit_card") throw new ServiceError("conflict", "A card charge is decided when it is made; there is nothing to simulate.");
  const account = await findAccountById(t.companyId);
  if (!account) throw notFound("Checkout");
  try {
    const moved = await sandboxMove({ account, actor: "checkout", requestId: req.requestId, now: req.now }, t.id, "paid");
    return { status: moved.status };
  } catch (err) {
    // The API's message names the link and the transaction that paid it; the payer's page needs neither.
    if (err instanceof ServiceError && err.code === "conflict") {
      throw new ServiceError("conflict", "This charge can no longer be paid: its order is already paid, or it changed meanwhile. Reload the page.");
    }
    throw err;
  }
}
