/**
 * The PSP's notification (`POST {webhookUrl}/pix` with `{ pix: [...] }`): a wake-up call, nothing
 * more. The body only names end-to-end ids; each is read back from the PSP (`GET /pix/{e2eid}`,
 * then `GET /cob/{txid}` of the charge it paid) with our credentials, and what the PSP answers is
 * what is decided (sync.ts). A forged body can at most make us ask the PSP about a Pix.
 */
import { z } from "zod";
import { getLogger } from "@/lib/logger";
import { clientFor, incompleteReason, pspConfigByWebhookToken } from "@/lib/processors/api-pix/config";
import { ApiPixError } from "@/lib/processors/api-pix/errors";
import { openRefundsOf, applyDevolucao } from "./api-pix-refunds";
import { devolucaoSchema, E2EID_REGEX } from "@/lib/processors/api-pix/schemas";
import { chargeByTxid, syncCharge } from "./api-pix-sync";

/** What is read of the body: end-to-end ids (at most 100). Anything else in it is ignored. */
const notificationSchema = z.object({
  pix: z
    .array(z.object({ endToEndId: z.string() }).loose())
    .max(100)
    .transform((list) => [...new Set(list.map((p) => p.endToEndId).filter((e) => E2EID_REGEX.test(e)))]),
});

export type WebhookOutcome = { found: false } | { found: true; ids: number; checked: number; failed: number };

export async function handleApiPixWebhook(token: string, body: unknown, now: Date = new Date()): Promise<WebhookOutcome> {
  const config = await pspConfigByWebhookToken(token);
  if (!config) return { found: false };
  const log = getLogger().child({ component: "api-pix-webhook", account: config.companyId });
  const parsed = notificationSchema.safeParse(body);
  const ids = parsed.success ? parsed.data.pix : [];
  if (ids.length === 0 || incompleteReason(config)) return { found: true, ids: ids.length, checked: 0, failed: 0 };
  const client = clientFor(config);
  let checked = 0;
  let failed = 0;
  for (const e2eid of ids) {
    try {
      const pix = await client.getPix(e2eid);
      if (pix.txid) {
        const charge = await chargeByTxid(config.companyId, pix.txid);
        if (charge) {
          await syncCharge(client, charge, now);
          checked++;
        }
      }
      for (const refund of await openRefundsOf(config.companyId, e2eid)) {
        // Our own devolução in the list is read strictly before it decides anything (its status
        // among the known ones); one that does not read is left to the refund's own re-read.
        const listed = (pix.devolucoes ?? []).find((d) => d.id === refund.devolucaoId);
        const dev = listed ? devolucaoSchema.safeParse(listed) : null;
        if (dev?.success) await applyDevolucao(refund, dev.data, now);
      }
    } catch (e) {
      failed++;
      // The reconciliation finds what could not be read now.
      log.warn(e instanceof ApiPixError ? { code: e.code, operation: e.operation } : { code: "internal" }, "api-pix webhook: re-read failed");
    }
  }
  log.info({ ids: ids.length, checked, failed }, "api-pix webhook handled");
  return { found: true, ids: ids.length, checked, failed };
}
