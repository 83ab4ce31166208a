/**
 * returnUrl: where the hosted checkout's last screen sends the payer back to. Set per charge and per
 * payment link (copied to the link's charges), echoed by the API, validated as an http(s) URL, and
 * shown to the payer with the order reference and the transaction number.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";
import { getCheckoutPageData } from "@/lib/services/checkouts/checkout-page";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";

let a: CreatedAccount;
beforeAll(async () => {
  a = await createTestAccount("Loja Retorno");
});

const CUSTOMER = { name: "João Souza", email: "joao@example.com", document: { type: "cpf", number: "11144477735" } };

describe("returnUrl", () => {
  it("is kept on a charge, echoed on creation, and reaches the payer's page with the order ref, the number and the lines", async () => {
    const res = await call("POST", "/api/v1/transactions", {
      auth: a.secretKey,
      body: {
        paymentMethod: "pix",
        amount: 15_900,
        items: [{ title: "Cafeteira", unitPrice: 14_900, quantity: 1, tangible: true }],
        shipping: { fee: 1_000 },
        customer: CUSTOMER,
        externalRef: "pedido-77",
        returnUrl: "https://loja.example.com/obrigado?pedido=77",
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.returnUrl).toBe("https://loja.example.com/obrigado?pedido=77");
    const page = await getCheckoutPageData(res.body.data.secureId);
    expect(page?.kind).toBe("transaction");
    if (page?.kind !== "transaction") return;
    expect(page.transaction).toMatchObject({ id: res.body.data.id, orderRef: "pedido-77", returnUrl: "https://loja.example.com/obrigado?pedido=77" });
    expect(page.order).toMatchObject({ amount: 15_900, subtotal: 14_900, shipping: 1_000, discount: 0 });
  });

  it("must be an absolute http(s) URL (a 400 naming the field)", async () => {
    for (const bad of ["javascript:alert(1)", "/obrigado", "ftp://loja.example.com"]) {
      const res = await call("POST", "/api/v1/transactions", {
        auth: a.secretKey,
        body: { paymentMethod: "pix", amount: 1_000, items: [{ title: "X", unitPrice: 1_000, quantity: 1, tangible: false }], customer: CUSTOMER, returnUrl: bad },
      });
      expect(res.status, bad).toBe(400);
      expect(JSON.stringify(res.body)).toContain("returnUrl");
    }
    const link = await call("POST", "/api/v1/checkouts", { auth: a.secretKey, body: { amount: 1_000, returnUrl: "javascript:alert(1)" } });
    expect(link.status).toBe(400);
  });

  it("set on a payment link, is echoed and copied to the charge the payer makes from it", async () => {
    const res = await call("POST", "/api/v1/checkouts", {
      auth: a.secretKey,
      body: { items: [{ title: "Curso", unitPrice: 19_900, quantity: 1 }], methods: ["pix"], returnUrl: "https://loja.example.com/cursos" },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.returnUrl).toBe("https://loja.example.com/cursos");
    const pay = await call("POST", `/checkout/${res.body.data.secureId}/pay`, {
      body: { method: "pix", payer: { name: "Maria da Silva", email: "maria@example.com", document: "11144477735" } },
      headers: { "content-type": "application/json" },
    });
    expect(pay.status, JSON.stringify(pay.body)).toBeLessThan(300);
    const page = await getCheckoutPageData(pay.body.data.secureId);
    expect(page?.kind === "transaction" && page.transaction.returnUrl).toBe("https://loja.example.com/cursos");
  });
});
