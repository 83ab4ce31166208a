import { describe, expect, it } from "vitest";
import { END2END_REGEX, isEnd2EndId, makeEnd2EndId, txidFor } from "@/lib/domain/pix/end2end";

const VECTOR = "E9040088820210128000800123873170";

describe("end-to-end id", () => {
  it("accepts the vector", () => {
    expect(isEnd2EndId(VECTOR)).toBe(true);
    expect(VECTOR).toMatch(END2END_REGEX);
  });

  it("rebuilds the vector from ISPB, UTC time and random part", () => {
    expect(makeEnd2EndId("90400888", new Date("2021-01-28T00:08:00Z"), "00123873170")).toBe(VECTOR);
  });

  it("uses UTC, not local time, and ignores seconds", () => {
    // 23:59:59 on 31 Dec in São Paulo (UTC-3) is 02:59 on 1 Jan UTC
    const id = makeEnd2EndId("00000000", new Date("2025-12-31T23:59:59-03:00"), "abcDEF12345");
    expect(id).toBe("E00000000202601010259abcDEF12345");
    expect(id).toHaveLength(32);
  });

  const withStamp = (stamp: string) => `E90400888${stamp}00123873170`;
  it.each([
    [VECTOR.slice(0, 31), "31 characters"],
    [withStamp("202113280008"), "month 13"],
    [withStamp("202100280008"), "month 00"],
    [withStamp("202101320008"), "day 32"],
    [withStamp("202101282408"), "hour 24"],
    [withStamp("202101280060"), "minute 60"],
    [`D${VECTOR.slice(1)}`, "wrong prefix"],
    [`${VECTOR.slice(0, 30)}-0`, "punctuation"],
  ])("rejects %s (%s)", (id) => {
    expect(isEnd2EndId(id)).toBe(false);
  });

  it("refuses a bad ISPB or random part", () => {
    const at = new Date("2021-01-28T00:08:00Z");
    expect(() => makeEnd2EndId("9040088", at, "00123873170")).toThrow(RangeError);
    expect(() => makeEnd2EndId("90400888", at, "0012387317")).toThrow(RangeError);
    expect(() => makeEnd2EndId("90400888", at, "0012387317-")).toThrow(RangeError);
  });
});

describe("txidFor", () => {
  const secureId = "9d36b84f-c70b-478f-b95c-12729b90ca25";

  it("is 25 alphanumerics: the zero-padded id and the end of the secureId", () => {
    const txid = txidFor(42, secureId);
    expect(txid).toBe("000000000000004229b90ca25");
    expect(txid).toMatch(/^[A-Za-z0-9]{25}$/);
  });

  it("differs for different transactions even with the same secureId", () => {
    expect(txidFor(12, secureId)).not.toBe(txidFor(120, secureId));
    expect(txidFor(Number.MAX_SAFE_INTEGER, secureId)).toMatch(/^9007199254740991[0-9a-f]{9}$/);
  });

  it("refuses a non-positive id or a secureId that is no UUID", () => {
    expect(() => txidFor(0, secureId)).toThrow(RangeError);
    expect(() => txidFor(1.5, secureId)).toThrow(RangeError);
    expect(() => txidFor(1, "not-a-uuid")).toThrow(RangeError);
  });
});
