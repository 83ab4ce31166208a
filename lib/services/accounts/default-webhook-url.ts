/**
 * The account's default webhook URL (dashboard, Desenvolvedores): where the notifications of a
 * transaction or cash-out created without a `postbackUrl` go. Many stores of this API family never
 * send one and configure the URL in the gateway's dashboard instead; without a default they would
 * never hear of a payment. Applied when a charge or cash-out is created (its `postbackUrl` is then the
 * default, shown in its resource and its webhook log), so changing the default later does not move
 * the notifications of what was already created.
 */
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { companies } from "@/lib/db/schema";
import { httpUrl } from "@/lib/schemas/fields";
import { assertPostbackUrlAllowed } from "@/lib/webhooks/ssrf";
import type { Account, ServiceContext } from "../context";
import { ServiceError, validation } from "../errors";

/** The URL a new transaction's or cash-out's notifications go to: its own, else the account's default. */
export function postbackUrlFor(account: Pick<Account, "webhookUrl">, own: string | null | undefined): string | null {
  return own ?? account.webhookUrl ?? null;
}

/**
 * Sets (or, with an empty value, clears) the account's default webhook URL. The same rules as a
 * request's `postbackUrl`: an absolute http(s) URL, and not an address inside a private network unless
 * WEBHOOK_ALLOW_PRIVATE_URLS is on (checked again at every delivery). Messages in Portuguese (the form's).
 */
export async function updateDefaultWebhookUrl(ctx: ServiceContext, raw: unknown): Promise<string | null> {
  const text = typeof raw === "string" ? raw.trim() : "";
  let url: string | null = null;
  if (text) {
    const parsed = httpUrl.safeParse(text);
    if (!parsed.success) {
      throw validation("URL de webhook inválida.", [{ field: "webhookUrl", message: "Use um endereço completo, começando por https:// (ou http://)." }]);
    }
    try {
      await assertPostbackUrlAllowed(parsed.data);
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      const why = err.errors?.[0]?.message ?? err.message;
      throw validation("URL de webhook não permitida.", [
        { field: "webhookUrl", message: `Este endereço não pode receber webhooks (${why}): use um endereço público da sua loja.` },
      ]);
    }
    url = parsed.data;
  }
  await getDb().update(companies).set({ webhookUrl: url }).where(eq(companies.id, ctx.account.id));
  return url;
}
