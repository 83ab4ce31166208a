/**
 * Banco do Brasil's free field (positions 20-44 of the barcode) for agreements (convênios) of 7
 * digits: "000000" + agreement (7) + sequence (10) + wallet (carteira, 2). The "nosso número" is the
 * agreement followed by the sequence (17 digits), the beneficiary's code at the bank is the
 * agreement. Other layouts are not decoded (null).
 */
export type BancoDoBrasilFreeField = { agreement: string; ourNumber: string; wallet: string };

export function parseBancoDoBrasilFreeField(freeField: string): BancoDoBrasilFreeField | null {
  const m = /^000000(\d{7})(\d{10})(\d{2})$/.exec(freeField);
  return m ? { agreement: m[1], ourNumber: m[1] + m[2], wallet: m[3] } : null;
}
