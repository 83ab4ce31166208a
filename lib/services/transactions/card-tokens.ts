/**
 * Card tokens: the card, the account and an expiry sealed with AES-256-GCM under a key derived for
 * this purpose alone. Nothing is stored when a token is made; the PAN and CVV exist only inside the
 * token and in memory while a charge is authorized. Single use is enforced by recording the token's
 * random id in `card_token_uses` inside the charge's own database transaction: if the charge rolls
 * back, the token is still usable; two charges racing with one token serialise on the primary key.
 */
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { decrypt, derivedKey, encrypt } from "@/lib/crypto";
import type { Tx } from "@/lib/db/client";
import { executePrepared } from "@/lib/db/prepared";
import { rowsOf } from "@/lib/db/rows";
import { cardTokenUses } from "@/lib/db/schema";
import { CARD_BRANDS } from "@/lib/domain/card/brand";
import type { CardData } from "@/lib/processors/types";
import { ServiceError } from "../errors";

export const CARD_TOKEN_TTL_MS = 5 * 60 * 1000;
const PREFIX = "ct_";
const PURPOSE = "card-token";
const AAD = "arara card token v1";

const Sealed = z.object({
  v: z.literal(1),
  id: z.string().min(16),
  companyId: z.number().int().positive(),
  exp: z.number().int(),
  card: z.object({
    number: z.string(),
    holderName: z.string(),
    expirationMonth: z.string(),
    expirationYear: z.string(),
    cvv: z.string(),
    brand: z.enum(CARD_BRANDS),
  }),
});

export function sealCardToken(card: CardData, companyId: number, now: Date): string {
  const payload: z.infer<typeof Sealed> = {
    v: 1,
    id: randomBytes(16).toString("base64url"),
    companyId,
    exp: now.getTime() + CARD_TOKEN_TTL_MS,
    card: {
      number: card.number,
      holderName: card.holderName,
      expirationMonth: card.expirationMonth,
      expirationYear: card.expirationYear,
      cvv: card.cvv,
      brand: card.brand,
    },
  };
  return PREFIX + encrypt(JSON.stringify(payload), derivedKey(PURPOSE), AAD);
}

function refuse(message: string): ServiceError {
  return new ServiceError("unprocessable", message, [{ field: "card.hash", message }]);
}

function open(token: string): z.infer<typeof Sealed> | null {
  if (typeof token !== "string" || !token.startsWith(PREFIX)) return null;
  const plain = decrypt(token.slice(PREFIX.length).trim(), derivedKey(PURPOSE), AAD);
  if (plain === null) return null;
  try {
    const r = Sealed.safeParse(JSON.parse(plain));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

/**
 * Opens a card token for a charge of `companyId` and marks it used, in the charge's transaction.
 * Every failure is a 422 `unprocessable` saying what to do: tokenize the card again.
 * The same statement that marks it used takes the id of the charge's transaction (`nextval`, only
 * when the token was not used before): one round trip fewer in the transaction that holds the token.
 */
export async function consumeCardToken(tx: Tx, companyId: number, token: string, now: Date): Promise<{ card: CardData; transactionId: number }> {
  const sealed = open(token);
  if (!sealed) {
    throw refuse("The card token is not valid: send the token returned by /api/v1/card-token, unchanged.");
  }
  if (sealed.companyId !== companyId) {
    throw refuse("The card token was made with another account's public key: tokenize with this account's public key.");
  }
  if (now.getTime() >= sealed.exp) {
    throw refuse("The card token has expired (tokens are valid for 5 minutes): tokenize the card again.");
  }
  // A statement of fixed text, every value bound: prepared on the server (lib/db/prepared.ts) and not
  // built by drizzle's query builder on every charge (about 0.1 ms of CPU: tests/bench/PROFILE.md,
  // seventeenth round).
  const inserted = rowsOf<{ transaction_id: string }>(
    await executePrepared(
      tx,
      sql`insert into ${cardTokenUses} (token_id, company_id, expires_at, used_at)
        values (${sealed.id}, ${companyId}, ${new Date(sealed.exp).toISOString()}::timestamptz, ${now.toISOString()}::timestamptz)
        on conflict do nothing
        returning nextval(pg_get_serial_sequence('transactions', 'id'))::text as transaction_id`,
    ),
  );
  if (!inserted.length) {
    throw refuse("The card token was already used: a token pays for one charge only; tokenize the card again.");
  }
  return { card: sealed.card, transactionId: Number(inserted[0].transaction_id) };
}
