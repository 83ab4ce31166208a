/**
 * The items of a PSP's notification (lib/services/psp/api-pix-webhook.ts notificationItems): the
 * spec's `{ pix: [...] }` or a bare array, malformed items skipped, ids once, and the charge's txid
 * under the spec's name or Santander's `txId` (the spec's wins).
 */
import { describe, expect, it } from "vitest";
import { notificationItems } from "@/lib/services/psp/api-pix-webhook";

const E1 = "E12345678202611291200abcdefghijk";
const E2 = "E12345678202611291201abcdefghijk";
const T1 = "a".repeat(26);
const T2 = "b".repeat(30);

describe("a PSP notification's items", () => {
  it("reads txid, or txId as Santander writes it; the spec's name wins when both are there", () => {
    expect(notificationItems({ pix: [{ endToEndId: E1, txId: T1 }, { endToEndId: E2, txid: T2, txId: T1 }] })).toEqual([
      { e2eid: E1, txid: T1 },
      { e2eid: E2, txid: T2 },
    ]);
  });

  it("takes a bare array, skips malformed items and repeated ids, and drops a txid that is not one", () => {
    expect(notificationItems([{ endToEndId: E1, txid: "short" }, { endToEndId: "nope" }, { endToEndId: E1, txid: T1 }, null])).toEqual([{ e2eid: E1 }]);
    expect(notificationItems({ nothing: true })).toEqual([]);
  });
});
