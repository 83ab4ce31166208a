/**
 * PIX identifiers. The end-to-end id (EndToEndId) follows the SPI catalogue: "E", the 8-digit ISPB
 * of the paying institution, the UTC timestamp yyyyMMddHHmm, and 11 alphanumerics; 32 characters.
 */

export const END2END_REGEX =
  /^E[0-9]{8}[0-9]{4}(0[1-9]|1[0-2])(0[1-9]|[12][0-9]|3[01])([01][0-9]|2[0-3])[0-5][0-9][a-zA-Z0-9]{11}$/;

export function isEnd2EndId(s: string): boolean {
  return END2END_REGEX.test(s);
}

const pad = (n: number, width: number) => n.toString().padStart(width, "0");

/** `random11` is passed in so the domain stays deterministic; the caller draws it from a CSPRNG. */
export function makeEnd2EndId(ispb: string, at: Date, random11: string): string {
  if (!/^\d{8}$/.test(ispb)) throw new RangeError(`ISPB must be 8 digits, got "${ispb}"`);
  if (!/^[a-zA-Z0-9]{11}$/.test(random11)) {
    throw new RangeError(`The random part must be 11 letters or digits, got "${random11}"`);
  }
  if (Number.isNaN(at.getTime())) throw new RangeError("Invalid date for the end-to-end id");
  const stamp =
    pad(at.getUTCFullYear(), 4) +
    pad(at.getUTCMonth() + 1, 2) +
    pad(at.getUTCDate(), 2) +
    pad(at.getUTCHours(), 2) +
    pad(at.getUTCMinutes(), 2);
  const id = `E${ispb}${stamp}${random11}`;
  if (!isEnd2EndId(id)) throw new RangeError(`Cannot build an end-to-end id for ${at.toISOString()}`);
  return id;
}

const TRANSACTION_ID_WIDTH = 16; // Number.MAX_SAFE_INTEGER has 16 digits.
const TXID_LENGTH = 25; // BR Code field 62-05 holds at most 25 alphanumerics.

/**
 * The txid put in a transaction's BR Code. The zero-padded transaction id (fixed width, so two
 * ids can never produce the same prefix) makes it unique; the tail of hex from the secureId makes
 * it unguessable from the sequence alone (taken from the end, which is random in UUID v4 and v7 alike).
 */
export function txidFor(transactionId: number, secureId: string): string {
  if (!Number.isSafeInteger(transactionId) || transactionId <= 0) {
    throw new RangeError(`transactionId must be a positive integer, got ${transactionId}`);
  }
  const hex = secureId.replace(/-/g, "").toLowerCase();
  const tailLength = TXID_LENGTH - TRANSACTION_ID_WIDTH;
  if (!/^[0-9a-f]+$/.test(hex) || hex.length < tailLength) {
    throw new RangeError(`secureId must be a UUID, got "${secureId}"`);
  }
  return pad(transactionId, TRANSACTION_ID_WIDTH) + hex.slice(-tailLength);
}
