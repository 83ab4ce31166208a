/**
 * The API Pix schemas against the spec's own examples (openapi.yaml of bacen/pix-api, 2.8.x:
 * components/examples), and against values the spec's patterns and enumerations rule out.
 */
import { describe, expect, it } from "vitest";
import {
  cobCompletaSchema,
  cobGeradaSchema,
  cobSolicitadaSchema,
  devolucaoSchema,
  devolucaoSolicitadaSchema,
  pixConsultadosSchema,
  pixConsultaQuerySchema,
  pixSchema,
  problemaSchema,
  tokenResponseSchema,
  webhookCompletoSchema,
  webhookPixCallbackSchema,
  webhookSolicitadoSchema,
} from "@/lib/processors/api-pix/schemas";

// components/examples/cobBody2
const cobBody2 = {
  calendario: { expiracao: 3600 },
  devedor: { cnpj: "12345678000195", nome: "Empresa de Serviços SA" },
  valor: { original: "37.00", modalidadeAlteracao: 1 },
  chave: "7d9f0335-8dcc-4054-9bf9-0dbd61d36906",
  solicitacaoPagador: "Serviço realizado.",
  infoAdicionais: [
    { nome: "Campo 1", valor: "Informação Adicional1 do PSP-Recebedor" },
    { nome: "Campo 2", valor: "Informação Adicional2 do PSP-Recebedor" },
  ],
};

// components/examples/cobResponse1
const cobResponse1 = {
  calendario: { criacao: "2020-09-09T20:15:00.358Z", expiracao: 3600 },
  txid: "7978c0c97ea847e78e8849634473c1f1",
  revisao: 0,
  loc: { id: 789, location: "pix.example.com/qr/9d36b84fc70b478fb95c12729b90ca25", tipoCob: "cob" },
  location: "pix.example.com/qr/9d36b84fc70b478fb95c12729b90ca25",
  status: "ATIVA",
  devedor: { cnpj: "12345678000195", nome: "Empresa de Serviços SA" },
  valor: { original: "37.00", modalidadeAlteracao: 1 },
  chave: "7d9f0335-8dcc-4054-9bf9-0dbd61d36906",
  solicitacaoPagador: "Serviço realizado.",
  infoAdicionais: cobBody2.infoAdicionais,
};

// components/examples/cobResponse2
const cobResponse2 = {
  calendario: { criacao: "2020-09-09T20:15:00.358Z", expiracao: 3600 },
  txid: "655dfdb1a4514b8fbb58254b958913fb",
  revisao: 1,
  loc: { id: 567, location: "pix.example.com/qr/1dd7f893a58e417287028dc33e21a403" },
  location: "pix.example.com/qr/1dd7f893a58e417287028dc33e21a403",
  status: "CONCLUIDA",
  devedor: { cnpj: "12345678000195", nome: "Empresa de Serviços SA" },
  valor: { original: "100.00", modalidadeAlteracao: 0 },
  chave: "40a0932d-1918-4eee-845d-35a2da1690dc",
  solicitacaoPagador: "Informar cartão fidelidade",
  pix: [
    {
      endToEndId: "E12345678202009091221kkkkkkkkkkk",
      txid: "655dfdb1a4514b8fbb58254b958913fb",
      valor: "110.00",
      horario: "2020-09-09T20:15:00.358Z",
      infoPagador: "0123456789",
      devolucoes: [
        {
          id: "123ABC",
          rtrId: "Dxxxxxxxx202009091221kkkkkkkkkkk",
          valor: "10.00",
          horario: { solicitacao: "2020-09-09T20:15:00.358Z" },
          status: "EM_PROCESSAMENTO",
        },
      ],
    },
  ],
};

// components/examples/pixResponse1, devolucaoResponse2, webhookResponse1, pixWebhook2
const pixResponse1 = {
  endToEndId: "E12345678202009091221abcdef12345",
  txid: "cd1fe328c875481285a6f233ae41b662",
  valor: "100.00",
  horario: "2020-09-10T13:03:33.902Z",
  infoPagador: "Reforma da casa",
  devolucoes: [
    { id: "000AAA111", rtrId: "D12345678202009091000abcde123456", valor: "11.00", horario: { solicitacao: "2020-09-10T13:03:33.902Z" }, status: "EM_PROCESSAMENTO" },
  ],
};
const devolucaoResponse2 = {
  id: "502",
  rtrId: "D12345678202011111000fghij789012",
  valor: "20.00",
  horario: { solicitacao: "2020-09-11T15:25:59.411Z" },
  status: "NAO_REALIZADO",
  motivo: "Negado por timeout",
};
const webhookResponse1 = { webhookUrl: "https://pix.example.com/api/webhook/", chave: "40a0932d-1918-4eee-845d-35a2da1690dc", criacao: "2020-11-11T10:15:00.358Z" };
const pixWebhook2 = { endToEndId: "E87654321202009091221dfghi123456", txid: "971122d8f37211eaadc10242ac120002", valor: "110.00", horario: "2020-09-09T20:15:00.358Z", infoPagador: "0123456789" };

describe("the spec's examples are read", () => {
  it("cob request, CobGerada and CobCompleta (with its Pix and refunds)", () => {
    expect(cobSolicitadaSchema.parse(cobBody2)).toEqual(cobBody2);
    expect(cobGeradaSchema.parse(cobResponse1).txid).toBe("7978c0c97ea847e78e8849634473c1f1");
    const completa = cobCompletaSchema.parse(cobResponse2);
    expect(completa.pix?.[0].devolucoes?.[0].status).toBe("EM_PROCESSAMENTO");
  });

  it("Pix, Devolucao, the Pix list, WebhookCompleto, the webhook callback and a problem body", () => {
    expect(pixSchema.parse(pixResponse1).devolucoes).toHaveLength(1);
    expect(devolucaoSchema.parse(devolucaoResponse2).motivo).toBe("Negado por timeout");
    const list = pixConsultadosSchema.parse({
      parametros: { inicio: "2020-04-01T00:00:00Z", fim: "2020-04-01T23:59:59Z", paginacao: { paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 1, quantidadeTotalDeItens: 2 } },
      pix: [pixResponse1, pixWebhook2],
    });
    expect(list.pix).toHaveLength(2);
    expect(pixConsultadosSchema.parse({ parametros: list.parametros }).pix).toEqual([]);
    expect(webhookCompletoSchema.parse(webhookResponse1).chave).toBe(webhookResponse1.chave);
    expect(webhookCompletoSchema.parse({ webhookUrl: "https://x.example/w", cnpj: "12345678000195", criacao: "2020-11-11T10:15:00.358Z" }).cnpj).toBe("12345678000195");
    expect(webhookPixCallbackSchema.parse({ pix: [pixWebhook2] }).pix[0].txid).toBe(pixWebhook2.txid);
    expect(webhookSolicitadoSchema.parse({ webhookUrl: "https://pix.example.com/api/webhook/" })).toBeTruthy();
    expect(devolucaoSolicitadaSchema.parse({ valor: "7.89" })).toEqual({ valor: "7.89" });
    const problem = problemaSchema.parse({
      type: "https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida",
      title: "Cobrança inválida.",
      status: 400,
      detail: "A requisição que busca alterar ou criar uma cobrança para pagamento imediato não respeita o _schema_ ou está semanticamente errada.",
      violacoes: [{ razao: "O campo cob.valor.original não respeita o _schema_.", propriedade: "cob.valor.original" }],
    });
    expect(problem.violacoes?.[0].propriedade).toBe("cob.valor.original");
  });

  it("fields a PSP adds to an answer are kept, not refused", () => {
    expect(pixSchema.parse({ ...pixWebhook2, novoCampo: 1 })).toMatchObject({ novoCampo: 1 });
  });
});

describe("what the spec rules out is refused", () => {
  const ok = (over: Record<string, unknown>) => cobSolicitadaSchema.safeParse({ ...cobBody2, ...over }).success;

  it("cob requests: amounts not of the form 0.00, zero expiration, both cpf and cnpj, no name, a key over 77, unknown fields", () => {
    expect(ok({})).toBe(true);
    for (const original of ["37", "37.0", "37,00", "12345678901.00", "-1.00"]) expect(ok({ valor: { original } })).toBe(false);
    expect(ok({ valor: { original: "1.00", modalidadeAlteracao: 2 } })).toBe(false);
    expect(ok({ calendario: { expiracao: 0 } })).toBe(false);
    expect(ok({ calendario: {} })).toBe(true);
    expect(ok({ calendario: undefined })).toBe(false);
    expect(ok({ devedor: { cpf: "11144477735", cnpj: "12345678000195", nome: "X" } })).toBe(false);
    expect(ok({ devedor: { cpf: "11144477735" } })).toBe(false);
    expect(ok({ devedor: { cpf: "111.444.777-35", nome: "X" } })).toBe(false);
    expect(ok({ chave: "x".repeat(78) })).toBe(false);
    expect(ok({ solicitacaoPagador: "x".repeat(141) })).toBe(false);
    expect(ok({ desconto: "1.00" })).toBe(false);
  });

  it("ids: txid of 26 to 35 alphanumerics (no hyphens), e2eid and rtrId of 32", () => {
    const cob = (txid: string) => cobGeradaSchema.safeParse({ ...cobResponse1, txid }).success;
    expect(cob("a".repeat(26))).toBe(true);
    expect(cob("a".repeat(35))).toBe(true);
    expect(cob("a".repeat(25))).toBe(false);
    expect(cob("a".repeat(36))).toBe(false);
    expect(cob("ABCDEF-0123456789-GHIJKLMNOPQ")).toBe(false);
    expect(pixSchema.safeParse({ ...pixWebhook2, endToEndId: "E8765432120200909122" }).success).toBe(false);
    // rtrId decides nothing: a PSP's short or late one does not fail the answer.
    expect(devolucaoSchema.safeParse({ ...devolucaoResponse2, rtrId: "D123" }).success).toBe(true);
    // A Pix from a static QR may carry a short txid.
    expect(pixSchema.safeParse({ ...pixWebhook2, txid: "PEDIDO42" }).success).toBe(true);
  });

  it("statuses outside the enumerations: a cob's is read as text, our own devolução's is refused (never booked on it)", () => {
    expect(cobGeradaSchema.parse({ ...cobResponse1, status: "PAGA" }).status).toBe("PAGA");
    expect(cobGeradaSchema.safeParse({ ...cobResponse1, status: "REMOVIDA_PELO_PSP" }).success).toBe(true);
    expect(devolucaoSchema.safeParse({ ...devolucaoResponse2, status: "PENDENTE" }).success).toBe(false);
    expect(devolucaoSchema.safeParse({ ...devolucaoResponse2, status: "DEVOLVIDO" }).success).toBe(true);
  });

  it("date-times: lowercase t/z, a space, an offset without colon; no offset is Brasília time (-03:00)", () => {
    const horario = (h: string) => pixSchema.parse({ ...pixWebhook2, horario: h }).horario;
    expect(horario("2020-09-09T20:15:00")).toBe("2020-09-09T20:15:00-03:00");
    expect(Date.parse(horario("2020-09-09T20:15:00"))).toBe(Date.parse("2020-09-09T23:15:00Z"));
    expect(horario("2020-09-09t20:15:00.358z")).toBe("2020-09-09T20:15:00.358Z");
    expect(horario("2020-09-09 20:15:00-0300")).toBe("2020-09-09T20:15:00-03:00");
    expect(horario("2020-09-09T17:15:00-03:00")).toBe("2020-09-09T17:15:00-03:00");
    expect(horario("2020-09-09T17:15-03:00")).toBe("2020-09-09T17:15:00-03:00");
    expect(pixSchema.safeParse({ ...pixWebhook2, horario: "09/09/2020 20:15" }).success).toBe(false);
    expect(pixSchema.safeParse({ ...pixWebhook2, horario: "2020-02-30T20:15:00Z" }).success).toBe(false);
    expect(cobGeradaSchema.parse({ ...cobResponse1, calendario: { criacao: "2020-09-09T20:15:00", expiracao: 3600 } }).calendario.criacao).toBe("2020-09-09T20:15:00-03:00");
  });

  it("what does not decide money does not fail the answer: MED devoluções, long texts, odd ids; a bad one is dropped from a list", () => {
    const med = { id: "MED-fraude/2020 #1", rtrId: "D1", valor: "1.00", natureza: "MED_FRAUDE", status: "EM_ANALISE", motivo: "m".repeat(500), horario: { solicitacao: "ontem" } };
    const pix = pixSchema.parse({ ...pixWebhook2, infoPagador: "i".repeat(500), chave: "k".repeat(100), devolucoes: [med, { nada: 1 }], componentesValor: "?" });
    expect(pix.devolucoes).toHaveLength(1);
    expect(pix.devolucoes?.[0]).toMatchObject({ id: "MED-fraude/2020 #1", status: "EM_ANALISE" });
    expect(pixSchema.parse({ ...pixWebhook2, txid: "" }).txid).toBeUndefined();
    const cob = cobCompletaSchema.parse({ ...cobResponse1, revisao: -1, loc: { id: "abc", location: "x".repeat(100) }, devedor: { nome: "" }, solicitacaoPagador: "s".repeat(300), pix: [{ ...pixWebhook2, devolucoes: [med] }] });
    expect(cob.pix).toHaveLength(1);
    // A page of GET /pix keeps the Pix that read and drops the one that does not.
    const page = pixConsultadosSchema.parse({ parametros: { inicio: "2020-09-09T00:00:00", fim: "x", paginacao: { paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 1, quantidadeTotalDeItens: 2 } }, pix: [pixWebhook2, { ...pixWebhook2, valor: "1,00" }] });
    expect(page.pix).toHaveLength(1);
    // What decides money stays strict.
    expect(pixSchema.safeParse({ ...pixWebhook2, valor: "1,00" }).success).toBe(false);
    expect(cobCompletaSchema.safeParse({ ...cobResponse1, pix: [{ ...pixWebhook2, valor: "1,00" }] }).success).toBe(false);
    expect(devolucaoSchema.safeParse({ ...devolucaoResponse2, id: "MED-1" }).success).toBe(false);
  });

  it("GET /pix query: inicio and fim required and in order, cpf xor cnpj, page size 1 to 1000", () => {
    const q = { inicio: "2026-01-01T00:00:00Z", fim: "2026-01-02T00:00:00Z" };
    expect(pixConsultaQuerySchema.parse({ ...q, "paginacao.itensPorPagina": "50", devolucaoPresente: "true" })).toMatchObject({
      "paginacao.itensPorPagina": 50,
      devolucaoPresente: true,
    });
    expect(pixConsultaQuerySchema.safeParse({ inicio: q.inicio }).success).toBe(false);
    expect(pixConsultaQuerySchema.safeParse({ inicio: q.fim, fim: q.inicio }).success).toBe(false);
    expect(pixConsultaQuerySchema.safeParse({ ...q, cpf: "11144477735", cnpj: "12345678000195" }).success).toBe(false);
    for (const size of ["0", "1001", "abc", "-1"]) expect(pixConsultaQuerySchema.safeParse({ ...q, "paginacao.itensPorPagina": size }).success).toBe(false);
    expect(pixConsultaQuerySchema.safeParse({ ...q, pagina: "1" }).success).toBe(false);
  });

  it("the OAuth2 token answer: a Bearer token with its lifetime (a string of digits is read too)", () => {
    expect(tokenResponseSchema.parse({ access_token: "abc", token_type: "bearer", expires_in: "3600" }).expires_in).toBe(3600);
    expect(tokenResponseSchema.safeParse({ access_token: "abc", token_type: "mac", expires_in: 3600 }).success).toBe(false);
    expect(tokenResponseSchema.safeParse({ access_token: "", token_type: "Bearer", expires_in: 3600 }).success).toBe(false);
    expect(tokenResponseSchema.safeParse({ access_token: "abc", token_type: "Bearer", expires_in: 0 }).success).toBe(false);
  });
});
