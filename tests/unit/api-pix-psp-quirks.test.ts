/**
 * What real PSPs send that the spec's examples do not show, read by the API Pix schemas
 * (lib/processors/api-pix/schemas.ts): null for an absent field, `txId` for `txid`, numbers as
 * strings, a token without `expires_in`, sparse pagination, odd problem bodies and date-times, and the
 * 2.1.x spellings of CobrancaStatus. What decides money stays strict.
 */
import { describe, expect, it } from "vitest";
import {
  cobCompletaSchema,
  cobGeradaSchema,
  devolucaoSchema,
  normalizePspDateTime,
  pixConsultadosSchema,
  pixSchema,
  problemaSchema,
  tokenResponseSchema,
  webhookCompletoSchema,
  webhookPixCallbackSchema,
} from "@/lib/processors/api-pix/schemas";
import { cobExpiresAt } from "@/lib/processors/api-pix/helpers";

const cob = {
  calendario: { criacao: "2020-09-09T20:15:00.358Z", expiracao: 3600 },
  txid: "7978c0c97ea847e78e8849634473c1f1",
  revisao: 0,
  loc: { id: 789, location: "pix.example.com/qr/9d36b84fc70b478fb95c12729b90ca25", tipoCob: "cob" },
  location: "pix.example.com/qr/9d36b84fc70b478fb95c12729b90ca25",
  status: "ATIVA",
  valor: { original: "37.00" },
  chave: "7d9f0335-8dcc-4054-9bf9-0dbd61d36906",
};
const pix = { endToEndId: "E87654321202009091221dfghi123456", txid: "971122d8f37211eaadc10242ac120002", valor: "110.00", horario: "2020-09-09T20:15:00.358Z" };
const devolucao = { id: "502", rtrId: "D12345678202011111000fghij789012", valor: "20.00", horario: { solicitacao: "2020-09-11T15:25:59.411Z" }, status: "EM_PROCESSAMENTO" };
const paginacao = { paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 1, quantidadeTotalDeItens: 1 };

describe("M1: null is read as absent, in every answer", () => {
  it("a cob with pixCopiaECola, devedor, texts and revisao null", () => {
    const read = cobGeradaSchema.parse({ ...cob, pixCopiaECola: null, devedor: null, solicitacaoPagador: null, infoAdicionais: null, revisao: null, location: null });
    expect(read.pixCopiaECola).toBeUndefined();
    expect(read).not.toHaveProperty("pixCopiaECola");
    expect(read.txid).toBe(cob.txid);
    expect(cobCompletaSchema.parse({ ...cob, pixCopiaECola: null, pix: null }).pix).toBeUndefined();
  });

  it("a Pix with txid, infoPagador, devolucoes, chave null; its devoluções' fields null", () => {
    const read = pixSchema.parse({ ...pix, txid: null, infoPagador: null, chave: null, componentesValor: null, devolucoes: [{ ...devolucao, motivo: null, descricao: null, horario: { solicitacao: devolucao.horario.solicitacao, liquidacao: null } }] });
    expect(read.txid).toBeUndefined();
    expect(read.devolucoes).toHaveLength(1);
    expect(pixSchema.parse({ ...pix, devolucoes: null }).devolucoes).toBeUndefined();
    // In a cob, in the GET /pix list and in the webhook's callback too.
    expect(cobCompletaSchema.parse({ ...cob, pix: [{ ...pix, txid: null }] }).pix).toHaveLength(1);
    const list = pixConsultadosSchema.parse({ parametros: { inicio: "2020-09-09T00:00:00Z", fim: "2020-09-10T00:00:00Z", txid: null, cpf: null, paginacao }, pix: [{ ...pix, txid: null }] });
    expect(list.pix).toHaveLength(1);
    expect(webhookPixCallbackSchema.parse({ pix: [{ ...pix, infoPagador: null }] }).pix).toHaveLength(1);
  });

  it("our devolução, a webhook registration and a problem body with null fields", () => {
    expect(devolucaoSchema.parse({ ...devolucao, motivo: null, descricao: null, natureza: null, rtrId: null }).status).toBe("EM_PROCESSAMENTO");
    expect(webhookCompletoSchema.parse({ webhookUrl: "https://x.example/w", chave: null, cnpj: "12345678000195", criacao: null }).cnpj).toBe("12345678000195");
    expect(problemaSchema.parse({ type: "https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida", title: "t", status: 400, detail: null, correlationId: null, violacoes: null }).title).toBe("t");
  });

  it("what decides money is still required: null there is a missing field", () => {
    expect(pixSchema.safeParse({ ...pix, valor: null }).success).toBe(false);
    expect(pixSchema.safeParse({ ...pix, endToEndId: null }).success).toBe(false);
    expect(cobGeradaSchema.safeParse({ ...cob, txid: null }).success).toBe(false);
    expect(devolucaoSchema.safeParse({ ...devolucao, status: null }).success).toBe(false);
  });
});

describe("M2: calendario.expiracao as the spec's example writes it, or not at all", () => {
  it("a string of digits is the number", () => {
    const read = cobGeradaSchema.parse({ ...cob, calendario: { criacao: cob.calendario.criacao, expiracao: "3600" } });
    expect(read.calendario.expiracao).toBe(3600);
    expect(cobExpiresAt(read).toISOString()).toBe("2020-09-09T21:15:00.358Z");
    expect(cobCompletaSchema.parse({ ...cob, calendario: { criacao: cob.calendario.criacao, expiracao: " 60 " } }).calendario.expiracao).toBe(60);
    for (const expiracao of ["1h", "3600.5", "", "-1"]) {
      expect(cobGeradaSchema.safeParse({ ...cob, calendario: { criacao: cob.calendario.criacao, expiracao } }).success).toBe(false);
    }
  });

  it("absent (or null): read; the expiry is then the spec's default, 86400 s, unless the client knows what it asked for", () => {
    const read = cobGeradaSchema.parse({ ...cob, calendario: { criacao: cob.calendario.criacao, expiracao: null } });
    expect(read.calendario.expiracao).toBeUndefined();
    expect(cobExpiresAt(read).toISOString()).toBe("2020-09-10T20:15:00.358Z");
  });
});

describe("M3: the OAuth2 token answer", () => {
  it("without expires_in (only RECOMMENDED by RFC 6749), or with it null, it is read, lifetime undefined", () => {
    expect(tokenResponseSchema.parse({ access_token: "abc", token_type: "Bearer" }).expires_in).toBeUndefined();
    expect(tokenResponseSchema.parse({ access_token: "abc", token_type: "Bearer", expires_in: null, scope: null }).expires_in).toBeUndefined();
  });

  it("a fraction, or a number as a string with or without one", () => {
    expect(tokenResponseSchema.parse({ access_token: "abc", token_type: "Bearer", expires_in: 3599.9 }).expires_in).toBe(3599.9);
    expect(tokenResponseSchema.parse({ access_token: "abc", token_type: "Bearer", expires_in: "3600" }).expires_in).toBe(3600);
    expect(tokenResponseSchema.parse({ access_token: "abc", token_type: "Bearer", expires_in: "299.5" }).expires_in).toBe(299.5);
    for (const expires_in of [0, -5, "0", "abc", "1e3", true]) {
      expect(tokenResponseSchema.safeParse({ access_token: "abc", token_type: "Bearer", expires_in }).success).toBe(false);
    }
  });
});

describe("M5: txId (Santander) is read as txid", () => {
  it("in a Pix, a cob's Pix, the list and the webhook's callback", () => {
    const { txid, ...rest } = pix;
    expect(pixSchema.parse({ ...rest, txId: txid }).txid).toBe(txid);
    expect(cobCompletaSchema.parse({ ...cob, pix: [{ ...rest, txId: txid }] }).pix?.[0].txid).toBe(txid);
    expect(pixConsultadosSchema.parse({ parametros: { paginacao }, pix: [{ ...rest, txId: txid }] }).pix[0].txid).toBe(txid);
    expect(webhookPixCallbackSchema.parse({ pix: [{ ...rest, txId: txid }] }).pix[0].txid).toBe(txid);
    expect(pixSchema.parse({ ...rest, txid: null, txId: txid }).txid).toBe(txid);
  });

  it("when both come, txid is read; a txId that is not text is not one", () => {
    expect(pixSchema.parse({ ...pix, txId: "OTHER" }).txid).toBe(pix.txid);
    const noTxid = { ...pix, txid: undefined };
    expect(pixSchema.safeParse({ ...noTxid, txId: 12 }).success).toBe(false);
    expect(pixSchema.parse({ ...noTxid, txId: "" }).txid).toBeUndefined();
  });
});

describe("L3: Paginacao", () => {
  const page = (p: Record<string, unknown>, items = 1) => pixConsultadosSchema.parse({ parametros: { paginacao: p }, pix: Array.from({ length: items }, () => pix) }).parametros.paginacao;

  it("numbers as strings of digits", () => {
    expect(page({ paginaAtual: "0", itensPorPagina: "100", quantidadeDePaginas: "3", quantidadeTotalDeItens: "250" })).toMatchObject({ paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 3, quantidadeTotalDeItens: 250 });
  });

  it("quantidadeDePaginas missing: from the total and the page size, else from a short page, else unknown", () => {
    expect(page({ paginaAtual: 0, itensPorPagina: 100, quantidadeTotalDeItens: 250 }).quantidadeDePaginas).toBe(3);
    expect(page({ paginaAtual: 0, itensPorPagina: 100, quantidadeTotalDeItens: 0 }, 0).quantidadeDePaginas).toBe(1);
    expect(page({ paginaAtual: 2, itensPorPagina: 100 }, 5).quantidadeDePaginas).toBe(3);
    expect(page({ paginaAtual: 0, itensPorPagina: 2 }, 2).quantidadeDePaginas).toBeUndefined();
    expect(page({}, 0).quantidadeDePaginas).toBe(1);
    expect(page({}, 3).quantidadeDePaginas).toBeUndefined();
    // A page whose items do not all read still counts them all: it is full, not short.
    const mixed = pixConsultadosSchema.parse({ parametros: { paginacao: { paginaAtual: 0, itensPorPagina: 2 } }, pix: [pix, { ...pix, valor: "1,00" }] });
    expect(mixed.pix).toHaveLength(1);
    expect(mixed.parametros.paginacao.quantidadeDePaginas).toBeUndefined();
  });

  it("an unreadable field, or no paginacao or parametros at all, does not fail the page", () => {
    expect(page({ paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: "muitas", quantidadeTotalDeItens: -1 }).quantidadeDePaginas).toBe(1);
    expect(pixConsultadosSchema.parse({ pix: [pix] }).pix).toHaveLength(1);
    expect(pixConsultadosSchema.parse({ parametros: { inicio: "x" }, pix: [pix] }).parametros.paginacao.quantidadeDePaginas).toBeUndefined();
  });
});

describe("L4: a problem body is read field by field", () => {
  it("a violação whose valor is a number, or whose razao is not text, loses that field only", () => {
    const p = problemaSchema.parse({
      type: "https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida",
      title: "Cobrança inválida.",
      status: "400",
      detail: 7,
      violacoes: [{ razao: "valor acima do limite", propriedade: "cob.valor.original", valor: 1000.5 }, { razao: ["x"], propriedade: "cob.chave" }, "?"],
    });
    expect(p.status).toBe(400);
    expect(p.detail).toBeUndefined();
    expect(p.violacoes).toEqual([{ razao: "valor acima do limite", propriedade: "cob.valor.original" }, { propriedade: "cob.chave" }]);
    expect(problemaSchema.parse({ type: "t", title: "t", status: 400, violacoes: "nenhuma" }).violacoes).toBeUndefined();
  });
});

describe("L6: date-times", () => {
  it("more than 9 digits of fraction (cut to 9) and an offset of hours only", () => {
    expect(normalizePspDateTime("2020-09-09T20:15:00.1234567891234Z")).toBe("2020-09-09T20:15:00.123456789Z");
    expect(normalizePspDateTime("2020-09-09T17:15:00-03")).toBe("2020-09-09T17:15:00-03:00");
    expect(normalizePspDateTime("2020-09-09T17:15:00.5+05")).toBe("2020-09-09T17:15:00.5+05:00");
    expect(Date.parse(pixSchema.parse({ ...pix, horario: "2020-09-09T17:15:00-03" }).horario)).toBe(Date.parse("2020-09-09T20:15:00Z"));
    expect(normalizePspDateTime("2020-09-09T17:15:00-3")).toBeNull();
    expect(normalizePspDateTime("2020-09-09T17:15:00-031")).toBeNull();
  });
});

describe("L7: CobrancaStatus of release 2.1.x", () => {
  it("REMOVIDO_PELO_* are read as REMOVIDA_PELO_*", () => {
    expect(cobGeradaSchema.parse({ ...cob, status: "REMOVIDO_PELO_USUARIO_RECEBEDOR" }).status).toBe("REMOVIDA_PELO_USUARIO_RECEBEDOR");
    expect(cobCompletaSchema.parse({ ...cob, status: "REMOVIDO_PELO_PSP" }).status).toBe("REMOVIDA_PELO_PSP");
    expect(cobGeradaSchema.parse({ ...cob, status: "CONCLUIDA" }).status).toBe("CONCLUIDA");
  });
});
