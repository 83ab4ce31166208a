import { describe, expect, it } from "vitest";
import {
  brandColorOrDefault,
  checkBrandColor,
  contrastRatio,
  darken,
  DEFAULT_BRAND_COLOR,
  normalizeHexColor,
  sniffLogoType,
} from "@/lib/domain/brand";

describe("brand colour", () => {
  it("normalizes hex colours and refuses anything else", () => {
    expect(normalizeHexColor("#0F766E")).toBe("#0f766e");
    expect(normalizeHexColor("0f766e")).toBe("#0f766e");
    expect(normalizeHexColor("#abc")).toBe("#aabbcc");
    expect(normalizeHexColor("red")).toBeNull();
    expect(normalizeHexColor("#12345")).toBeNull();
    expect(normalizeHexColor("#0f766e;background:url(x)")).toBeNull();
  });

  it("computes WCAG contrast ratios (known values)", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#ffffff", "#ffffff")).toBeCloseTo(1, 5);
    // #767676 on white is the classic 4.54:1 grey.
    expect(contrastRatio("#767676", "#ffffff")).toBeCloseTo(4.54, 2);
  });

  it("accepts a colour white text is readable on, refuses a light one, and falls back to the default", () => {
    expect(checkBrandColor("#1d4ed8")).toMatchObject({ ok: true, color: "#1d4ed8" });
    const yellow = checkBrandColor("#facc15");
    expect(yellow.ok).toBe(false);
    expect(yellow).toMatchObject({ reason: "contrast" });
    expect(checkBrandColor("azul")).toEqual({ ok: false, reason: "invalid" });
    expect(brandColorOrDefault("#facc15")).toBe(DEFAULT_BRAND_COLOR);
    expect(brandColorOrDefault(null)).toBe(DEFAULT_BRAND_COLOR);
    expect(brandColorOrDefault("#1D4ED8")).toBe("#1d4ed8");
    // The default itself passes.
    expect(checkBrandColor(DEFAULT_BRAND_COLOR).ok).toBe(true);
  });

  it("darkens for the hover shade", () => {
    expect(darken("#ffffff", 0.5)).toBe("#808080");
    expect(darken("#000000")).toBe("#000000");
  });
});

describe("logo type", () => {
  it("is read from the bytes: PNG, JPEG, WebP; SVG and text refused", () => {
    expect(sniffLogoType(Buffer.from("89504e470d0a1a0a0000", "hex"))).toBe("image/png");
    expect(sniffLogoType(Buffer.from("ffd8ffe000104a464946", "hex"))).toBe("image/jpeg");
    expect(sniffLogoType(Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4), Buffer.from("WEBPVP8 ")]))).toBe("image/webp");
    expect(sniffLogoType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'))).toBeNull();
    expect(sniffLogoType(Buffer.from("GIF89a"))).toBeNull();
  });
});

describe("support phone", () => {
  it("keeps Brazilian numbers with area code as digits with 55, and refuses the rest", async () => {
    const { normalizeSupportPhone, payerBrandOf } = await import("@/lib/services/accounts/branding");
    expect(normalizeSupportPhone("(11) 98765-4321")).toBe("5511987654321");
    expect(normalizeSupportPhone("+55 21 3456-7890")).toBe("552134567890");
    expect(normalizeSupportPhone("98765-4321")).toBeNull();
    expect(normalizeSupportPhone("+1 415 555 0100")).toBeNull();
    // A mobile gets the WhatsApp link; a landline only the phone.
    expect(payerBrandOf({ displayName: null, brandColor: null, supportEmail: null, supportPhone: "5511987654321", logoSha256: null }).support.whatsapp).toBe("https://wa.me/5511987654321");
    expect(payerBrandOf({ displayName: null, brandColor: null, supportEmail: null, supportPhone: "552134567890", logoSha256: null }).support.whatsapp).toBeNull();
  });
});
