/**
 * The API Pix processor (`acquirerType: "api-pix"`): a PIX charge is an immediate charge at the
 * merchant's PSP, `PUT /cob/{txid}` with a txid Arara draws (32 letters and digits, 190 random bits),
 * `calendario.expiracao` from the request, `devedor` from the customer, `valor.original` and the
 * merchant's PIX key at that PSP. The payer is shown the PSP's `pixCopiaECola`, or, when the PSP
 * leaves it out (optional in the spec), the dynamic BR Code built from the charge's `location` with
 * the account's name and city (dynamicBrCodeFromLocation).
 *
 * Chosen per account (account_psp_configs.processor); the sandbox stays the default. Only PIX goes
 * to the PSP: card and boleto stay with the account's processor. The transaction records the
 * processor that made it, so a configuration change affects new charges only.
 */
import type { Tx } from "@/lib/db/client";
import { pspCharges } from "@/lib/db/schema";
import type { Account } from "@/lib/core/rows";
import { ServiceError } from "@/lib/core/errors";
import type { PixCharge, PixChargeInput, PixProvider } from "../types";
import { sandboxPixProvider } from "../sandbox/pix";
import { ApiPixError } from "./errors";
import { API_PIX_PROCESSOR, clientFor, incompleteReason, pspConfigOf, type PspConfigRow } from "./config";
import { buildCobRequest, cobExpiracaoSeconds, cobExpiresAt, devedorFromCustomer, dynamicBrCodeFromLocation, generateTxid } from "./helpers";
import type { Devedor } from "./schemas";

/** How soon the reconciliation first looks at a new charge (the webhook usually comes first). */
export const FIRST_CHECK_MS = 60_000;

function devedorOf(customer: PixChargeInput["customer"]): Devedor | null {
  if (!customer) return null;
  try {
    return devedorFromCustomer(customer);
  } catch {
    // The API validated the document already; a debtor the API Pix cannot carry is left out (optional).
    return null;
  }
}

export function apiPixPixProvider(config: PspConfigRow): PixProvider {
  return {
    async createCharge(input: PixChargeInput): Promise<PixCharge> {
      const reason = incompleteReason(config);
      if (reason) throw new ServiceError("unprocessable", `PIX receiving through the PSP is not ready: ${reason}`);
      const txid = generateTxid();
      let body;
      try {
        body = buildCobRequest({
          amount: input.amount,
          chave: config.pixKey!,
          expiracao: cobExpiracaoSeconds({ expiresInDays: input.expiresInDays, expiresInSeconds: input.expiresInSeconds }),
          devedor: devedorOf(input.customer),
        });
      } catch (e) {
        throw new ServiceError("unprocessable", `The PIX charge cannot be made at the PSP: ${e instanceof Error ? e.message : String(e)}`);
      }
      let cob;
      try {
        cob = await clientFor(config).createCob(txid, body);
      } catch (e) {
        if (e instanceof ApiPixError) throw new ServiceError("unprocessable", `O PSP não criou a cobrança PIX: ${e.message}`);
        throw e;
      }
      let qrcode = cob.pixCopiaECola;
      if (!qrcode) {
        const location = cob.location ?? cob.loc?.location;
        if (!location) throw new ServiceError("unprocessable", "O PSP criou a cobrança PIX sem o código copia e cola (pixCopiaECola) e sem a sua location.");
        try {
          qrcode = dynamicBrCodeFromLocation({ location, merchantName: input.merchant.name, merchantCity: input.merchant.city });
        } catch (e) {
          throw new ServiceError("unprocessable", `O PSP criou a cobrança PIX sem o código copia e cola, e a sua location não serve a um BR Code: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
      const expiresAt = cobExpiresAt(cob);
      return {
        qrcode,
        txid,
        expiresAt,
        async record(tx: Tx, transactionId: number) {
          await tx.insert(pspCharges).values({
            transactionId,
            companyId: config.companyId,
            txid,
            amount: input.amount,
            expiresAt,
            status: "pending",
            nextCheckAt: new Date(input.now.getTime() + FIRST_CHECK_MS),
            createdAt: input.now,
            updatedAt: input.now,
          });
        },
      };
    },
  };
}

export type PixProcessorChoice = { name: string; pix: PixProvider };

/**
 * The PIX provider of an account's new charges: its API Pix PSP when configured as the processor,
 * else `fallback` (the account's processor, the sandbox today). `known`: the processor the account's
 * settings name as already read with the request's authentication (null: no settings); when it is not
 * API Pix, the settings are not read again.
 */
export async function pixProcessorFor(account: Pick<Account, "id">, fallback: PixProcessorChoice, q?: Tx, known?: string | null): Promise<PixProcessorChoice> {
  if (known !== undefined && known !== API_PIX_PROCESSOR) return fallback;
  const config = await pspConfigOf(account.id, q);
  if (!config || config.processor !== API_PIX_PROCESSOR) return fallback;
  return { name: API_PIX_PROCESSOR, pix: apiPixPixProvider(config) };
}

export { sandboxPixProvider };
