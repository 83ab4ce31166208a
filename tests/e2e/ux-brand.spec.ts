/**
 * A merchant brands the hosted checkout: display name, logo (uploaded, kept in the database, served
 * with long caching), brand colour (contrast-checked: a light one is refused with the reason) and
 * support contact on every screen; the card form names the accepted brands. Phone and desktop.
 */
import { deflateSync } from "node:zlib";
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { basicAuth, createCharge, expectAccessible, PHONE, signUp } from "./dashboard-helpers";

test.use({ locale: "pt-BR", timezoneId: "America/Sao_Paulo" });

async function shot(page: Page, name: string) {
  const dir = process.env.UX_SCREENSHOTS || "test-results/ux";
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true, animations: "disabled" });
}

/** A real PNG (solid colour square), made here so the test needs no fixture file. */
function solidPng(size: number, [r, g, b]: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const x of buf) c = crcTable[(c ^ x) & 255] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => [r, g, b]).flat())]);
  const raw = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}

for (const [label, viewport] of [
  ["phone", PHONE],
  ["desktop", { width: 1440, height: 900 }],
] as const) {
  test(`the checkout wears the merchant's brand (${label})`, async ({ page, request }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    const m = await signUp(page, `Torrefação ${label} Ltda`);
    await page.getByLabel("Guardei minha chave secreta em um lugar seguro.").check();
    await page.getByRole("button", { name: "Ir para o painel" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Visão geral" })).toBeVisible();

    await page.goto("/dashboard/settings");
    await page.getByRole("link", { name: "Marca do checkout" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Marca do checkout" })).toBeVisible();

    // A light yellow would make white button text unreadable: refused, with the reason.
    await page.getByLabel("Nome exibido no checkout").fill("Café do Vale");
    await page.getByLabel("Cor da marca").fill("#facc15");
    await page.getByRole("button", { name: "Salvar marca" }).click();
    await expect(page.getByText(/Contraste de 1,\d:1 com texto branco/)).toBeVisible();
    await expectAccessible(page, "branding form with an error");
    await shot(page, `branding-contrast-error-${label}`);

    const logoFile = path.join(tmpdir(), `arara-logo-${label}.png`);
    writeFileSync(logoFile, solidPng(64, [29, 78, 216]));
    await page.getByLabel("Cor da marca").fill("#1d4ed8");
    await page.getByLabel("E-mail de suporte").fill("ajuda@cafedovale.com.br");
    await page.getByLabel("WhatsApp ou telefone de suporte").fill("(11) 98765-4321");
    await page.getByLabel("Logo").setInputFiles(logoFile);
    await page.getByRole("button", { name: "Salvar marca" }).click();
    await expect(page.getByText("Marca salva.")).toBeVisible();
    await expect(page.getByTestId("current-logo")).toBeVisible();
    await shot(page, `branding-saved-${label}`);

    // The checkout of a new charge: name, logo, colour and support contact.
    const pix = await createCharge(request, m, { paymentMethod: "pix", amount: 3_000 });
    await page.goto(`/checkout/${pix.secureId}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Café do Vale");
    const logo = page.getByTestId("merchant-logo");
    await expect(logo).toBeVisible();
    expect(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(64);
    const logoRes = await request.get((await logo.getAttribute("src"))!);
    expect(logoRes.status()).toBe(200);
    expect(logoRes.headers()["content-type"]).toBe("image/png");
    expect(logoRes.headers()["cache-control"]).toContain("immutable");
    const again = await request.get((await logo.getAttribute("src"))!, { headers: { "if-none-match": logoRes.headers()["etag"] } });
    expect(again.status()).toBe(304);
    await expect(page.getByTestId("support-email")).toHaveAttribute("href", "mailto:ajuda@cafedovale.com.br");
    await expect(page.getByTestId("support-whatsapp")).toHaveAttribute("href", "https://wa.me/5511987654321");
    const bg = await page.getByTestId("pix-paid").evaluate((el) => getComputedStyle(el).color);
    expect(bg).toBe("rgb(29, 78, 216)");
    await expectAccessible(page, `branded PIX checkout (${label})`);
    await shot(page, `branded-pix-${label}`);

    // The card form names the accepted brands; the primary button wears the colour.
    const link = await request.post("/api/v1/checkouts", {
      headers: { authorization: basicAuth(m) },
      data: { items: [{ title: "Café especial 1 kg", unitPrice: 9_900, quantity: 1 }], methods: ["credit_card"] },
    });
    expect(link.status()).toBe(201);
    await page.goto(new URL(((await link.json()).data as { secureUrl: string }).secureUrl).pathname);
    await expect(page.getByTestId("accepted-brands")).toContainText("Visa");
    await expect(page.getByTestId("accepted-brands")).toContainText("Elo");
    expect(await page.getByTestId("link-submit").evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(29, 78, 216)");
    await expect(page.getByTestId("support-email")).toBeVisible();
    await expectAccessible(page, `branded card form (${label})`);
    await shot(page, `branded-card-${label}`);
  });
}
