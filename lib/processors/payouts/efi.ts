/**
 * PIX Out through Efí's Pix Envio, from the merchant's own Efí account (`pagador.chave`), with the
 * account's API Pix credentials (lib/processors/api-pix/config.ts). What each answer means:
 *
 * - 201: accepted (the PSP's e2eId); then `GET .../id-envio/{idEnvio}` until REALIZADO or NAO_REALIZADO.
 * - 409 `id_envio_duplicado`: an earlier try of this same send reached Efí (its answer was lost):
 *   the transfer is read back by idEnvio and followed; it is never sent again.
 * - another 4xx (invalid key, payment refused by Efí's analysis, no balance): rejected, with Efí's words,
 *   once a read-back by idEnvio shows that Efí holds no send of it. An earlier try whose answer was lost
 *   may have reached Efí, and a retry can be refused for another reason before Efí's duplicate check: a
 *   cash-out is never failed (its money returned to the merchant) while Efí may still pay it out.
 * - 5xx, 408, 425, 429, timeout, unreachable, credentials or scope refused: nothing decided; tried again
 *   later.
 * - settings that cannot make a client (deleted, a field cleared, undecryptable) and an access token
 *   refused: nothing decided, and marked as never sent (`mayHaveReachedPsp: false`). Only a cash-out
 *   whose every attempt is known never to have left may be failed for incomplete settings
 *   (lib/services/cash-outs/advance-cash-outs.ts); every other failure counts as possibly at Efí.
 * - the read-back of an accepted send answering 404: pending (`notFound`), never failed: Efí took it.
 */
import { EFI_PIX_ENVIO } from "@/lib/domain/ledger";
import { centsToValor, valorToCents } from "@/lib/processors/api-pix/helpers";
import { ApiPixError } from "@/lib/processors/api-pix/errors";
import { TOKEN_OPERATION } from "@/lib/processors/api-pix/oauth-session";
import { clientConfigOf, incompleteReason, pspConfigOf, type PspConfigRow } from "@/lib/processors/api-pix/config";
import { getLogger } from "@/lib/logger";
import { EfiPixEnvioClient } from "./efi-client";
import { PAYOUT_NOT_CONFIGURED, PayoutUnavailableError, type PayoutSendResult, type PayoutStatus, type PixPayoutProvider } from "./types";

export const EFI_PAYOUT_PROVIDER = EFI_PIX_ENVIO;
const POLL_MS = 5_000;

/** Codes after which the same request cannot succeed: the send is refused, the money comes back. */
const REJECTING = new Set(["psp_rejected", "invalid_request"]);

const g = globalThis as unknown as { __araraEfiClients?: Map<number, { version: number; client: EfiPixEnvioClient }> };

function efiClientFor(row: PspConfigRow): EfiPixEnvioClient {
  const cache = (g.__araraEfiClients ??= new Map());
  const version = row.updatedAt.getTime();
  const hit = cache.get(row.id);
  if (hit && hit.version === version) return hit.client;
  hit?.client.close();
  const client = new EfiPixEnvioClient(clientConfigOf(row));
  cache.set(row.id, { version, client });
  return client;
}

/** Drops every cached Efí client (tests; a process shutting down). */
export function closeEfiClients(): void {
  for (const { client } of g.__araraEfiClients?.values() ?? []) client.close();
  g.__araraEfiClients?.clear();
}

/**
 * The account's Efí client. Settings that cannot make one (deleted, a field cleared, secrets that no
 * longer decrypt) throw `not_configured`: nothing was sent.
 */
async function clientOf(companyId: number): Promise<EfiPixEnvioClient> {
  const row = await pspConfigOf(companyId);
  const notConfigured = (reason: string) => new PayoutUnavailableError(reason, PAYOUT_NOT_CONFIGURED, { mayHaveReachedPsp: false });
  if (!row) throw notConfigured("Configuração do PSP incompleta: a configuração do PSP foi removida.");
  const reason = incompleteReason(row);
  if (reason) throw notConfigured(`Configuração do PSP incompleta: ${reason.replace(/^Configuração incompleta: /, "")}`);
  try {
    return efiClientFor(row);
  } catch (e) {
    // Secrets that do not decrypt (KEY_ENCRYPTION_SECRET changed) or a certificate that does not load:
    // the detail is for the operator's log, not for the merchant.
    getLogger().error({ job: "cash-outs", account: companyId, err: e instanceof Error ? e.message : String(e) }, "Efí client cannot be made from the saved PSP settings");
    throw notConfigured("Configuração do PSP incompleta: as credenciais salvas não puderam ser lidas (certificado ou segredos).");
  }
}

const unavailable = (e: ApiPixError) => new PayoutUnavailableError(e.message, e.code);

export const efiPixPayouts: PixPayoutProvider = {
  name: EFI_PAYOUT_PROVIDER,
  async send(input): Promise<PayoutSendResult> {
    if (!input.payerKey) return { status: "rejected", reason: "Sem chave PIX pagadora configurada na Efí." };
    const client = await clientOf(input.companyId);
    const body = {
      valor: centsToValor(input.amount),
      pagador: { chave: input.payerKey, infoPagador: `Saque ${input.cashOutId}` },
      favorecido: { chave: input.pixKey },
    };
    try {
      const res = await client.sendPix(input.idEnvio, body);
      if (res.status === "NAO_REALIZADO") return { status: "rejected", reason: "A Efí não realizou o Pix (NAO_REALIZADO)." };
      return { status: "accepted", reference: res.e2eId };
    } catch (e) {
      if (!(e instanceof ApiPixError)) throw e;
      if (e.causeCode === "id_envio_duplicado") {
        const sent = await readBack(client, input.idEnvio);
        if (!sent) throw unavailable(e); // 409 for a send Efí cannot find: nothing decided yet
        return follow(sent, input.amount);
      }
      // The access token was refused: the send was never made (a 401 to the send itself is a refusal
      // of it), and nothing about it was decided.
      if (e.operation === TOKEN_OPERATION) throw new PayoutUnavailableError(e.message, e.code, { mayHaveReachedPsp: false });
      if (REJECTING.has(e.code)) {
        const sent = await readBack(client, input.idEnvio);
        return sent ? follow(sent, input.amount) : { status: "rejected", reason: e.message };
      }
      throw unavailable(e);
    }
  },
  async status(input): Promise<PayoutStatus> {
    const client = await clientOf(input.companyId);
    let sent;
    try {
      sent = await client.getSent(input.idEnvio);
    } catch (e) {
      // Efí accepted this send (201 with its e2eId) but does not show it: it may still make it.
      if (e instanceof ApiPixError && e.code === "not_found") return { status: "pending", notFound: true };
      if (e instanceof ApiPixError) throw unavailable(e);
      throw e;
    }
    if (sent.status === "REALIZADO") return { status: "completed", end2endId: sent.endToEndId };
    if (sent.status === "NAO_REALIZADO") return { status: "failed", reason: "A Efí não realizou o Pix (NAO_REALIZADO)." };
    return { status: "pending" };
  },
  pollDelayMs: () => POLL_MS,
};

/** The send Efí holds under this idEnvio, or null when it has none (404); any other failure decides nothing. */
async function readBack(client: EfiPixEnvioClient, idEnvio: string) {
  try {
    return await client.getSent(idEnvio);
  } catch (e) {
    if (e instanceof ApiPixError && e.code === "not_found") return null;
    if (e instanceof ApiPixError) throw unavailable(e);
    throw e;
  }
}

/** A send Efí already holds for this cash-out: followed (then polled), unless it was made for another amount. */
function follow(sent: { valor: string; endToEndId: string }, amount: number): PayoutSendResult {
  if (valorToCents(sent.valor) !== amount) return { status: "rejected", reason: "O idEnvio já foi usado na Efí para outro valor." };
  return { status: "accepted", reference: sent.endToEndId };
}
