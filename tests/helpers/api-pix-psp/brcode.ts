/**
 * The local PSP's dynamic BR Code, as a PSP builds it for a cob (Manual de Padrões para Iniciação do
 * Pix): point of initiation 12 (single use), the location of the payload in field 26-25 instead of
 * a key, no amount (the payer's app reads it from the payload), txid "***" in field 62-05, CRC16 in 63.
 * Laid out like Banco Central's own dynamic example.
 */
import { asciiFold } from "@/lib/domain/text";
import { crc16ccitt } from "@/lib/domain/pix/crc16";

function field(id: string, value: string): string {
  if (value.length > 99) throw new Error(`BR Code field ${id} is longer than 99 characters`);
  return id + value.length.toString().padStart(2, "0") + value;
}

export function dynamicBrCode(input: { location: string; merchantName: string; merchantCity: string }): string {
  const body =
    field("00", "01") +
    field("01", "12") +
    field("26", field("00", "br.gov.bcb.pix") + field("25", input.location)) +
    field("52", "0000") +
    field("53", "986") +
    field("58", "BR") +
    field("59", asciiFold(input.merchantName).slice(0, 25).trim()) +
    field("60", asciiFold(input.merchantCity).slice(0, 15).trim()) +
    field("62", field("05", "***")) +
    "6304";
  return body + crc16ccitt(body);
}
