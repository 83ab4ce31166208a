/**
 * The "Client secret" line of Recebimento PIX's status panel (app/dashboard/settings/pix/page.tsx):
 * a PSP set up with client_id no corpo and no secret needs none, and the panel says so.
 */
import { describe, expect, it } from "vitest";
import { clientSecretStatusLabel } from "@/components/dashboard/format";

describe("clientSecretStatusLabel", () => {
  it("client_id no corpo without a secret: not used, not 'not informed'", () => {
    const label = clientSecretStatusLabel({ clientAuth: "body", hasClientSecret: false });
    expect(label).toBe("Não usado: o PSP identifica a aplicação pelo client_id e pelo certificado");
    expect(label).not.toMatch(/Não informado/);
  });

  it("a stored secret is said stored, whichever way the client authenticates", () => {
    expect(clientSecretStatusLabel({ clientAuth: "body", hasClientSecret: true })).toBe("Guardado (criptografado)");
    expect(clientSecretStatusLabel({ clientAuth: "basic", hasClientSecret: true })).toBe("Guardado (criptografado)");
  });

  it("HTTP Basic without a secret: missing (Basic needs one)", () => {
    expect(clientSecretStatusLabel({ clientAuth: "basic", hasClientSecret: false })).toBe("Não informado");
  });
});
