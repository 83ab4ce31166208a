import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildStaticBrCode, parseBrCode } from "@/lib/domain/pix/brcode";
import { classifyConnectionError, describeProblem, redact } from "@/lib/processors/api-pix/errors";
import {
  buildCobRequest,
  buildDevolucaoRequest,
  centsToValor,
  cobExpiracaoSeconds,
  cobExpiresAt,
  devedorFromCustomer,
  devolucaoIdFor,
  generateTxid,
  MAX_VALOR_CENTS,
  pixCopiaEColaProblem,
  valorToCents,
} from "@/lib/processors/api-pix/helpers";
import { cobSolicitadaSchema, devolucaoSolicitadaSchema, TXID_REGEX } from "@/lib/processors/api-pix/schemas";
import { dynamicBrCode } from "@/tests/helpers/api-pix-psp/brcode";

/** A random source that hands out the given bytes, in order, over and over. */
function bytes(...values: number[]) {
  let i = 0;
  return (size: number) => Uint8Array.from({ length: size }, () => values[i++ % values.length]);
}

describe("generateTxid", () => {
  it("makes 32 letters and digits by default, 26 to 35 on request, matching the spec's txid", () => {
    expect(generateTxid()).toMatch(/^[a-zA-Z0-9]{32}$/);
    expect(generateTxid(undefined, 26)).toHaveLength(26);
    expect(generateTxid(undefined, 35)).toHaveLength(35);
    expect(TXID_REGEX.test(generateTxid())).toBe(true);
    expect(() => generateTxid(undefined, 25)).toThrow(RangeError);
    expect(() => generateTxid(undefined, 36)).toThrow(RangeError);
  });

  it("maps each random byte below 248 to one of 62 characters and skips the rest (no modulo bias)", () => {
    // 0 -> "0", 61 -> "z", 62 -> "0", 247 % 62 = 61 -> "z", 36 -> "a"; 248..255 are dropped.
    expect(generateTxid(bytes(248, 255, 0, 61, 62, 247, 36), 28)).toBe("0z0za".repeat(6).slice(0, 28));
    expect(() => generateTxid(() => new Uint8Array(0))).toThrow(RangeError);
  });

  it("does not repeat over many draws from the system's CSPRNG", () => {
    const seen = new Set(Array.from({ length: 20_000 }, () => generateTxid()));
    expect(seen.size).toBe(20_000);
  });
});

describe("centavos and the API's decimal strings", () => {
  it.each([
    [0, "0.00"],
    [1, "0.01"],
    [99, "0.99"],
    [100, "1.00"],
    [123_456, "1234.56"],
    [MAX_VALOR_CENTS, "9999999999.99"],
  ])("%i centavos is %s", (cents, valor) => {
    expect(centsToValor(cents)).toBe(valor);
    expect(valorToCents(valor)).toBe(cents);
  });

  it("refuses amounts the spec cannot carry", () => {
    for (const bad of [-1, 1.5, Number.NaN, MAX_VALOR_CENTS + 1]) expect(() => centsToValor(bad)).toThrow(RangeError);
    for (const bad of ["1.5", "1,50", "1.500", "", " 1.00", "1e2", "-1.00", "12345678901.00", "1."]) {
      expect(() => valorToCents(bad)).toThrow(RangeError);
    }
  });

  it("round-trips every amount without floating point", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: MAX_VALOR_CENTS }), (c) => valorToCents(centsToValor(c)) === c));
  });
});

describe("cobExpiracaoSeconds and cobExpiresAt", () => {
  it("reads expiresInSeconds first, else expiresInDays", () => {
    expect(cobExpiracaoSeconds({ expiresInDays: 2 })).toBe(172_800);
    expect(cobExpiracaoSeconds({ expiresInDays: 30 })).toBe(2_592_000);
    expect(cobExpiracaoSeconds({ expiresInSeconds: 900 })).toBe(900);
    expect(cobExpiracaoSeconds({ expiresInSeconds: 900, expiresInDays: 2 })).toBe(900);
  });

  it("refuses zero, negatives, fractions, nothing, and more than an int32 of seconds", () => {
    for (const input of [{ expiresInDays: 0 }, { expiresInSeconds: -1 }, { expiresInDays: 1.5 }, {}, { expiresInSeconds: 2 ** 31 }, { expiresInDays: 30_000 }]) {
      expect(() => cobExpiracaoSeconds(input)).toThrow(RangeError);
    }
  });

  it("a charge expires `expiracao` seconds after its creation", () => {
    expect(cobExpiresAt({ calendario: { criacao: "2026-03-01T12:00:00.000Z", expiracao: 3600 } }).toISOString()).toBe("2026-03-01T13:00:00.000Z");
    expect(cobExpiresAt({ calendario: { criacao: "2026-03-01T09:00:00-03:00", expiracao: 60 } }).toISOString()).toBe("2026-03-01T12:01:00.000Z");
  });
});

describe("devedorFromCustomer", () => {
  it("sends a CPF or a CNPJ as digits with the name", () => {
    expect(devedorFromCustomer({ name: "Maria Silva", document: { type: "cpf", number: "111.444.777-35" } })).toEqual({ cpf: "11144477735", nome: "Maria Silva" });
    expect(devedorFromCustomer({ name: "Padaria Ltda", document: { type: "CNPJ", number: "11.222.333/0001-81" } })).toEqual({ cnpj: "11222333000181", nome: "Padaria Ltda" });
  });

  it("collapses spaces and keeps at most 200 characters of the name", () => {
    const d = devedorFromCustomer({ name: `  Zé   ${"ã".repeat(300)} `, document: { type: "cpf", number: "11144477735" } });
    expect(d?.nome).toHaveLength(200);
    expect(d?.nome.startsWith("Zé ããã")).toBe(true);
  });

  it("leaves the debtor out when there is no document, or an alphanumeric CNPJ the spec's pattern cannot carry", () => {
    expect(devedorFromCustomer({ name: "Maria" })).toBeNull();
    expect(devedorFromCustomer({ name: "Empresa", document: { type: "cnpj", number: "12.ABC.345/01DE-35" } })).toBeNull();
  });

  it("throws on an invalid document, an unknown type or an empty name", () => {
    expect(() => devedorFromCustomer({ name: "Maria", document: { type: "cpf", number: "11144477736" } })).toThrow(RangeError);
    expect(() => devedorFromCustomer({ name: "Maria", document: { type: "rg", number: "123" } })).toThrow(RangeError);
    expect(() => devedorFromCustomer({ name: "   ", document: { type: "cpf", number: "11144477735" } })).toThrow(RangeError);
  });
});

describe("request builders", () => {
  it("a cob: the amount as a decimal string, the key in DICT form, the debtor and the note; valid for the spec", () => {
    const body = buildCobRequest({
      amount: 4990,
      chave: "(11) 98765-4321",
      expiracao: 3600,
      devedor: { cpf: "11144477735", nome: "Maria" },
      solicitacaoPagador: `  Pedido   42 ${"x".repeat(200)}`,
    });
    expect(body).toMatchObject({ calendario: { expiracao: 3600 }, valor: { original: "49.90" }, chave: "+5511987654321", devedor: { cpf: "11144477735", nome: "Maria" } });
    expect(body.solicitacaoPagador).toHaveLength(140);
    expect(body.solicitacaoPagador?.startsWith("Pedido 42 x")).toBe(true);
    expect(cobSolicitadaSchema.safeParse(body).success).toBe(true);
    expect(buildCobRequest({ amount: 1, chave: "Loja@Example.COM", expiracao: 60, devedor: null })).toEqual({
      calendario: { expiracao: 60 },
      valor: { original: "0.01" },
      chave: "loja@example.com",
    });
  });

  it("refuses a zero amount, an invalid key or a bad expiration", () => {
    expect(() => buildCobRequest({ amount: 0, chave: "loja@example.com", expiracao: 60 })).toThrow(RangeError);
    expect(() => buildCobRequest({ amount: 100, chave: "not a key", expiracao: 60 })).toThrow(RangeError);
    expect(() => buildCobRequest({ amount: 100, chave: "loja@example.com", expiracao: 0 })).toThrow();
  });

  it("a devolução: amount and an optional text, natureza only when RETIRADA (absent is ORIGINAL); ids from our refund ids", () => {
    const body = buildDevolucaoRequest({ amount: 250, descricao: " Troca " });
    expect(body).toEqual({ valor: "2.50", descricao: "Troca" });
    expect(buildDevolucaoRequest({ amount: 250, natureza: "ORIGINAL" })).toEqual({ valor: "2.50" });
    expect(buildDevolucaoRequest({ amount: 250, natureza: "RETIRADA" })).toEqual({ valor: "2.50", natureza: "RETIRADA" });
    expect(devolucaoSolicitadaSchema.safeParse(body).success).toBe(true);
    expect(() => buildDevolucaoRequest({ amount: 0 })).toThrow(RangeError);
    expect(devolucaoIdFor(77)).toBe("77");
    expect(devolucaoIdFor("re_abc-123")).toBe("reabc123");
    expect(() => devolucaoIdFor("x".repeat(36))).toThrow(RangeError);
    expect(() => devolucaoIdFor("---")).toThrow(RangeError);
  });
});

describe("pixCopiaEColaProblem", () => {
  // Banco Central's dynamic example (also in tests/unit/pix/brcode.test.ts).
  const LOCATION = "pix.example.com/qr/v2/9d36b84fc70b478fb95c12729b90ca25";
  const DYNAMIC_EXAMPLE =
    "00020101021226760014br.gov.bcb.pix2554pix.example.com/qr/v2/9d36b84fc70b478fb95c12729b90ca255204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63047EC0";

  it("the local PSP's builder reproduces Banco Central's dynamic example byte for byte", () => {
    expect(dynamicBrCode({ location: LOCATION, merchantName: "Fulano de Tal", merchantCity: "BRASILIA" })).toBe(DYNAMIC_EXAMPLE);
  });

  it("accepts a dynamic BR Code whose location is the charge's", () => {
    expect(pixCopiaEColaProblem({ pixCopiaECola: DYNAMIC_EXAMPLE, location: LOCATION })).toBeNull();
    expect(pixCopiaEColaProblem({ pixCopiaECola: DYNAMIC_EXAMPLE, loc: { id: 1, location: LOCATION, tipoCob: "cob" } })).toBeNull();
  });

  it("names what is wrong: missing, not a BR Code, wrong CRC, static form, another location", () => {
    expect(pixCopiaEColaProblem({ location: LOCATION })).toMatch(/no pixCopiaECola/);
    expect(pixCopiaEColaProblem({ pixCopiaECola: "hello", location: LOCATION })).toMatch(/not a BR Code/);
    expect(pixCopiaEColaProblem({ pixCopiaECola: DYNAMIC_EXAMPLE.replace("7EC0", "7EC1"), location: LOCATION })).toMatch(/CRC/);
    const staticCode = buildStaticBrCode({ key: "loja@example.com", merchantName: "Loja", merchantCity: "Recife", amount: 100, txid: "ABC" });
    expect(parseBrCode(staticCode).crcValid).toBe(true);
    expect(pixCopiaEColaProblem({ pixCopiaECola: staticCode })).toMatch(/not a dynamic BR Code/);
    expect(pixCopiaEColaProblem({ pixCopiaECola: DYNAMIC_EXAMPLE, location: "pix.example.com/qr/v2/other" })).toMatch(/another location/);
  });

  it("the location compared as a URL: a scheme on either side and the host's case are no difference, the path's is", () => {
    expect(pixCopiaEColaProblem({ pixCopiaECola: DYNAMIC_EXAMPLE, location: `https://${LOCATION}` })).toBeNull();
    expect(pixCopiaEColaProblem({ pixCopiaECola: DYNAMIC_EXAMPLE, loc: { id: 1, location: "PIX.Example.COM/qr/v2/9d36b84fc70b478fb95c12729b90ca25" } })).toBeNull();
    const withScheme = dynamicBrCode({ location: `https://${LOCATION}`, merchantName: "Loja", merchantCity: "Recife" });
    expect(pixCopiaEColaProblem({ pixCopiaECola: withScheme, location: LOCATION })).toBeNull();
    expect(pixCopiaEColaProblem({ pixCopiaECola: DYNAMIC_EXAMPLE, location: LOCATION.toUpperCase() })).toMatch(/another location/);
  });
});

describe("classifyConnectionError", () => {
  const after = { secureConnected: true, gotResponse: false, presentedClientCertificate: true };

  it("a TLS alert about our certificate is a refused client certificate", () => {
    for (const code of [
      "ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE",
      "ERR_SSL_TLSV1_ALERT_UNKNOWN_CA",
      "ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED",
      "ERR_SSL_SSLV3_ALERT_CERTIFICATE_EXPIRED",
      "ERR_SSL_TLSV1_ALERT_ACCESS_DENIED",
    ]) {
      expect(classifyConnectionError(code, { ...after, secureConnected: false })).toEqual({ code: "client_certificate_refused", detail: "alert" });
    }
  });

  it("a connection dropped right after the handshake, before any answer, is a refused certificate; at other moments a network error", () => {
    expect(classifyConnectionError("ECONNRESET", after)).toEqual({ code: "client_certificate_refused", detail: "dropped" });
    expect(classifyConnectionError("ECONNRESET", { ...after, secureConnected: false }).code).toBe("network_error");
    expect(classifyConnectionError("ECONNRESET", { ...after, gotResponse: true }).code).toBe("network_error");
  });

  it("DNS, refused connections, the server's certificate and its name", () => {
    expect(classifyConnectionError("ENOTFOUND", after)).toEqual({ code: "host_unreachable", detail: "dns" });
    expect(classifyConnectionError("ECONNREFUSED", after)).toEqual({ code: "host_unreachable", detail: "refused" });
    expect(classifyConnectionError("ERR_TLS_CERT_ALTNAME_INVALID", after).code).toBe("server_hostname_mismatch");
    expect(classifyConnectionError("SELF_SIGNED_CERT_IN_CHAIN", after).code).toBe("server_certificate_untrusted");
    expect(classifyConnectionError("UNABLE_TO_VERIFY_LEAF_SIGNATURE", after).code).toBe("server_certificate_untrusted");
    expect(classifyConnectionError("CERT_HAS_EXPIRED", after)).toEqual({ code: "server_certificate_untrusted", detail: "expired" });
    expect(classifyConnectionError("EPROTO", after).code).toBe("network_error");
  });
});

describe("error text", () => {
  it("redact replaces every occurrence of each secret", () => {
    expect(redact("a s3cr3t b s3cr3t", ["s3cr3t", "abc"])).toBe("a [redacted] b [redacted]");
    expect(redact("short ab", ["ab"])).toBe("short ab");
  });

  it("describeProblem gives the title, the detail and the violations", () => {
    expect(
      describeProblem({
        type: "https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida",
        title: "Cobrança inválida.",
        status: 400,
        detail: "A requisição não respeita o _schema_.",
        violacoes: [{ razao: "O campo cob.valor.original não respeita o _schema_.", propriedade: "cob.valor.original" }],
      }),
    ).toBe("Cobrança inválida: A requisição não respeita o _schema_. Violações: O campo cob.valor.original não respeita o _schema_.");
  });
});
