/**
 * What the gateway needs from the outside world to take a payment: a card acquirer, a PIX PSP and a
 * boleto issuer. The API and the services only talk to these interfaces; a real acquirer or PSP is a
 * new implementation registered in `registry.ts`, with no change above this layer.
 */
import type { Tx } from "@/lib/db/client";
import type { ValidCard } from "@/lib/domain/card/validate";

/** The card as the acquirer receives it: from a consumed card token, held in memory only. */
export type CardData = ValidCard;

/** Why an acquirer refused a card; stored as the transaction's `refusedReason`. */
export const REFUSAL_REASONS = ["card_declined", "insufficient_funds", "expired_card", "processing_error"] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

export type AuthorizeInput = {
  card: CardData;
  /** Centavos. */
  amount: number;
  installments: number;
  /** Our reference for the charge (the transaction's secureId): the decision comes before the row exists. */
  reference: string;
  /** The merchant, for the statement descriptor and the acquirer's records. */
  merchant: { id: number; name: string };
  /** The payer's IP, for the acquirer's anti-fraud. */
  ip: string;
  now: Date;
};

export type AuthorizeResult =
  | { approved: true; authorizationCode: string; reason?: undefined }
  | { approved: false; reason: RefusalReason; authorizationCode: null };

export interface CardAcquirer {
  /** Authorizes and captures at once: the API's card charge is synchronous and reads `paid` when approved. */
  authorize(input: AuthorizeInput): Promise<AuthorizeResult>;
}

export type PixChargeInput = {
  transactionId: number;
  /** The transaction's secureId (UUID): with the id it makes the txid unique and unguessable. */
  secureId: string;
  /** Centavos. */
  amount: number;
  merchant: { name: string; city: string; pixKey: string };
  expiresInDays: number;
  /** A finer expiry, when the caller has one (takes precedence over expiresInDays). */
  expiresInSeconds?: number;
  /** The payer, for a PSP that names the debtor on the charge. */
  customer?: { name: string; document?: { type: string; number: string } | null };
  now: Date;
};

export type PixCharge = {
  /** The BR Code (copy-and-paste payload). */
  qrcode: string;
  txid: string;
  expiresAt: Date;
  /** What the provider keeps of the charge, written in the transaction that records it. */
  record?: (tx: Tx, transactionId: number) => Promise<void>;
};

export interface PixProvider {
  createCharge(input: PixChargeInput): Promise<PixCharge>;
}

export type BoletoIssueInput = {
  transactionId: number;
  /** Centavos. */
  amount: number;
  expiresInDays: number;
  payer: { name: string; document: string };
  merchant: { name: string; document: string };
  now: Date;
};

export type IssuedBoleto = {
  /** 44 digits. */
  barcode: string;
  /** 47 digits, without dots and spaces. */
  digitableLine: string;
  /** YYYY-MM-DD (Brasília calendar day). */
  dueDate: string;
  /** The payer may pay until the end of the due day (Brasília time). */
  expiresAt: Date;
  /** The issuer's own reference for the slip (nosso número). */
  reference: string;
};

export interface BoletoProvider {
  issue(input: BoletoIssueInput): Promise<IssuedBoleto>;
}

/** One processor handles all three methods; `name` is what the API shows as `acquirerType`. */
export type Processor = {
  name: string;
  card: CardAcquirer;
  pix: PixProvider;
  boleto: BoletoProvider;
};

/** Who holds a PIX key, as the PSP's DICT lookup answers: shown to the merchant before a cash-out. */
export type PixKeyHolder = {
  /** The holder's name as registered (a person's or a company's). */
  name: string;
  /** The institution the key points to. */
  institution: string;
  /** Its ISPB (8 digits). */
  ispb: string;
};

export interface PixKeyLookup {
  /** The key's holder; null when the key is not registered in the DICT. `key` is in DICT form. */
  lookupKey(input: { type: string; key: string; now: Date }): Promise<PixKeyHolder | null>;
}
