/**
 * The parts of Banco Central's API Pix (OpenAPI `openapi.yaml` of the public `bacen/pix-api`
 * repository, release 2.8.x) that Arara uses, as zod schemas: immediate charges (`/cob/{txid}`),
 * received Pix (`/pix`, `/pix/{e2eid}`), refunds (`/pix/{e2eid}/devolucao/{id}`), the Pix webhook
 * (`/webhook/{chave}` and the callback it triggers), problem bodies (RFC 7807) and the OAuth2
 * client-credentials token.
 *
 * These schemas describe the spec and nothing else: the client's request builders live in the
 * client, so that the local PSP used in tests, which validates every request with these schemas,
 * checks what the client actually sends.
 *
 * Conventions:
 * - The YAML writes its patterns unanchored ("[a-zA-Z0-9]{26,35}"); a pattern is meant to match the
 *   whole value, so they are anchored here.
 * - Request bodies are strict objects: a property the spec does not define is a bug in the sender
 *   (a misspelt optional field would otherwise be silently ignored by the PSP).
 * - Responses are loose: the spec lets PSPs add fields at any time ("Adição de novos campos em
 *   respostas"), and a client must not break on them ("Clientes devem estar preparados para lidar
 *   com essas mudanças sem quebrar"). Only what decides money is read strictly: a Pix's endToEndId,
 *   valor and horario, a cob's txid, valor and calendario, our own devolução's id, valor and status.
 *   The rest (names, texts, rtrId, ids of devoluções the PSP made itself, infoPagador, lengths) is
 *   read as any text or left out, and an item of a list that fails is dropped, not the whole answer.
 *   Status values outside the enumerations are read as text: an unknown cob status is "not paid, not
 *   final" to the caller (api-pix-sync.ts keeps checking and logs it).
 * - Date-times in responses are read leniently (pspDateTimeSchema): lowercase "t"/"z", a space for
 *   "T", an offset without colon, and no offset at all, which is read as Brasília time (-03:00).
 */
import { z } from "zod";

export const TXID_REGEX = /^[a-zA-Z0-9]{26,35}$/;
/** A txid inside a received Pix: 1 to 35, because static QR payments reach `/pix` too (changelog 2.2.1). */
export const PIX_TXID_REGEX = /^[a-zA-Z0-9]{1,35}$/;
export const E2EID_REGEX = /^[a-zA-Z0-9]{32}$/;
export const DEVOLUCAO_ID_REGEX = /^[a-zA-Z0-9]{1,35}$/;
export const RTRID_REGEX = /^[a-zA-Z0-9]{32}$/;
/** Money: reais with exactly two decimals, a dot as separator, no thousands separator. */
export const VALOR_REGEX = /^\d{1,10}\.\d{2}$/;
export const CPF_REGEX = /^\d{11}$/;
export const CNPJ_REGEX = /^\d{14}$/;
export const CHAVE_MAX_LENGTH = 77;
export const PIX_COPIA_E_COLA_MAX_LENGTH = 512;
const INT32_MAX = 2_147_483_647;

/** `type` of a problem body: `https://pix.bcb.gov.br/api/v2/error/<TipoErro>`. */
export const PROBLEM_TYPE_BASE = "https://pix.bcb.gov.br/api/v2/error/";

// ---- scalars -------------------------------------------------------------------------------------

export const txidSchema = z.string().regex(TXID_REGEX, "txid must be 26 to 35 letters or digits");
export const pixTxidSchema = z.string().regex(PIX_TXID_REGEX, "txid must be 1 to 35 letters or digits");
export const e2eidSchema = z.string().regex(E2EID_REGEX, "endToEndId must be 32 letters or digits");
export const devolucaoIdSchema = z.string().regex(DEVOLUCAO_ID_REGEX, "devolução id must be 1 to 35 letters or digits");
export const rtrIdSchema = z.string().regex(RTRID_REGEX, "rtrId must be 32 letters or digits");
export const valorSchema = z.string().regex(VALOR_REGEX, 'must be a decimal string such as "12.34"');
export const cpfSchema = z.string().regex(CPF_REGEX, "cpf must be 11 digits");
export const cnpjSchema = z.string().regex(CNPJ_REGEX, "cnpj must be 14 digits");
export const chaveSchema = z.string().min(1).max(CHAVE_MAX_LENGTH);
/** RFC 3339 date-time: "2020-09-09T20:15:00.358Z" or with an offset ("-03:00"). What requests carry. */
export const dateTimeSchema = z.iso.datetime({ offset: true });

const LENIENT_DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)([Zz]|[+-]\d{2}:?\d{2})?$/;

/**
 * A date-time as PSPs send it, normalised to RFC 3339 ("2020-09-09T20:15:00.358Z",
 * "2020-09-09T17:15:00-03:00"): "t" and "z" in lowercase, a space for "T", an offset without colon
 * ("-0300"), and no offset at all, which some PSPs send: that is read as Brasília time (-03:00, no
 * daylight saving since 2019), the time zone of the Pix arrangement, never as the server's local
 * time. Returns null for anything else or an impossible date.
 */
export function normalizePspDateTime(text: string): string | null {
  const m = LENIENT_DATE_TIME.exec(text.trim());
  if (!m) return null;
  const time = m[2].length === 5 ? `${m[2]}:00` : m[2];
  let offset = m[3] ?? "-03:00";
  if (offset === "z") offset = "Z";
  else if (offset.length === 5) offset = `${offset.slice(0, 3)}:${offset.slice(3)}`;
  const out = `${m[1]}T${time}${offset}`;
  return Number.isNaN(Date.parse(out)) || !dateTimeSchema.safeParse(out).success ? null : out;
}

/** A date-time in a response, normalised (normalizePspDateTime); refused when it is not one. */
export const pspDateTimeSchema = z.string().transform((text, ctx) => {
  const out = normalizePspDateTime(text);
  if (out === null) {
    ctx.addIssue({ code: "custom", message: "not a date-time" });
    return z.NEVER;
  }
  return out;
});

/**
 * A list in a response whose items are read one by one: an item that does not parse is dropped
 * (the rest of the answer still counts). Used where each item is worth something on its own.
 */
function lenientArray<T extends z.ZodType>(item: T) {
  return z.array(z.unknown()).transform((items) => items.flatMap((i) => {
    const r = item.safeParse(i);
    return r.success ? [r.data as z.output<T>] : [];
  }));
}
/** Any text, or nothing: a field that is read for display or not at all. */
const anyText = z.string().optional().catch(undefined);
const httpUrlSchema = z.url({ protocol: /^https?$/ });

/** Status of the charge record (CobrancaStatus); it does not say whether the charge has expired. */
export const COB_STATUSES = ["ATIVA", "CONCLUIDA", "REMOVIDA_PELO_USUARIO_RECEBEDOR", "REMOVIDA_PELO_PSP"] as const;
export const cobStatusSchema = z.enum(COB_STATUSES);
export type CobStatus = z.infer<typeof cobStatusSchema>;

export const DEVOLUCAO_STATUSES = ["EM_PROCESSAMENTO", "DEVOLVIDO", "NAO_REALIZADO"] as const;
export const devolucaoStatusSchema = z.enum(DEVOLUCAO_STATUSES);
export type DevolucaoStatus = z.infer<typeof devolucaoStatusSchema>;

/** What a receiving user may ask for (DevolucaoSolicitadaNatureza). */
export const devolucaoNaturezaSolicitadaSchema = z.enum(["ORIGINAL", "RETIRADA"]);

// ---- shared shapes (strict in requests, loose in responses) ---------------------------------------

const nomeSchema = z.string().min(1).max(200);
const pessoaFisicaShape = { cpf: cpfSchema, nome: nomeSchema };
const pessoaJuridicaShape = { cnpj: cnpjSchema, nome: nomeSchema };
const infoAdicionalShape = { nome: z.string().max(50), valor: z.string().max(200) };

/** devedor: oneOf PessoaFisica | PessoaJuridica (never both documents). */
export const devedorRequestSchema = z.union([z.strictObject(pessoaFisicaShape), z.strictObject(pessoaJuridicaShape)]);
export type Devedor = z.infer<typeof devedorRequestSchema>;
const devedorResponseSchema = z.union([z.looseObject(pessoaFisicaShape), z.looseObject(pessoaJuridicaShape)]);

// ---- requests ------------------------------------------------------------------------------------

/** Body of `PUT /cob/{txid}` (CobSolicitada; withdrawal/change "retirada" is out of Arara's scope). */
export const cobSolicitadaSchema = z.strictObject({
  calendario: z.strictObject({
    /** Seconds from `calendario.criacao`; the PSP assumes 86400 when absent; zero or less is a violation. */
    expiracao: z.int().min(1).max(INT32_MAX).optional(),
  }),
  devedor: devedorRequestSchema.optional(),
  loc: z.strictObject({ id: z.int().min(1) }).optional(),
  valor: z.strictObject({
    original: valorSchema,
    /** 1: the payer may change the amount. Absent means 0. */
    modalidadeAlteracao: z.union([z.literal(0), z.literal(1)]).optional(),
  }),
  chave: chaveSchema,
  solicitacaoPagador: z.string().max(140).optional(),
  infoAdicionais: z.array(z.strictObject(infoAdicionalShape)).max(50).optional(),
});
export type CobSolicitada = z.infer<typeof cobSolicitadaSchema>;

/**
 * Body of `PATCH /cob/{txid}` (CobRevisada): the fields of a charge to revise, or its removal, `status`
 * REMOVIDA_PELO_USUARIO_RECEBEDOR, the only status the receiver may set, and never with other
 * changes (CobOperacaoInvalida). Arara only removes.
 */
export const cobRevisadaSchema = z
  .strictObject({
    calendario: cobSolicitadaSchema.shape.calendario.optional(),
    devedor: devedorRequestSchema.optional(),
    loc: z.strictObject({ id: z.int().min(1) }).optional(),
    status: z.literal("REMOVIDA_PELO_USUARIO_RECEBEDOR").optional(),
    valor: z.strictObject({ original: valorSchema.optional(), modalidadeAlteracao: z.union([z.literal(0), z.literal(1)]).optional() }).optional(),
    chave: chaveSchema.optional(),
    solicitacaoPagador: z.string().max(140).optional(),
    infoAdicionais: z.array(z.strictObject(infoAdicionalShape)).max(50).optional(),
  })
  .refine((c) => c.status === undefined || Object.keys(c).length === 1, {
    message: "a removal (status REMOVIDA_PELO_USUARIO_RECEBEDOR) comes with no other change",
    path: ["status"],
  });
export type CobRevisada = z.infer<typeof cobRevisadaSchema>;

/** Body of `PUT /pix/{e2eid}/devolucao/{id}` (DevolucaoSolicitada). */
export const devolucaoSolicitadaSchema = z.strictObject({
  valor: valorSchema,
  natureza: devolucaoNaturezaSolicitadaSchema.optional(),
  descricao: z.string().max(140).optional(),
});
export type DevolucaoSolicitada = z.infer<typeof devolucaoSolicitadaSchema>;

/** Body of `PUT /webhook/{chave}` (WebhookSolicitado). The PSP will post to `{webhookUrl}/pix`. */
export const webhookSolicitadoSchema = z.strictObject({ webhookUrl: httpUrlSchema });
export type WebhookSolicitado = z.infer<typeof webhookSolicitadoSchema>;

const booleanParam = z.enum(["true", "false"]).transform((v) => v === "true");
const intParam = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,10}$/, "must be a whole number")
    .transform(Number)
    .pipe(z.int().min(min).max(max));

/** Query of `GET /pix`: `inicio` and `fim` required; cpf and cnpj exclusive; `fim` not before `inicio`. */
export const pixConsultaQuerySchema = z
  .strictObject({
    inicio: dateTimeSchema,
    fim: dateTimeSchema,
    txid: pixTxidSchema.optional(),
    txIdPresente: booleanParam.optional(),
    devolucaoPresente: booleanParam.optional(),
    cpf: cpfSchema.optional(),
    cnpj: cnpjSchema.optional(),
    "paginacao.paginaAtual": intParam(0, INT32_MAX).optional(),
    "paginacao.itensPorPagina": intParam(1, 1000).optional(),
  })
  .superRefine((q, ctx) => {
    if (Date.parse(q.fim) < Date.parse(q.inicio)) {
      ctx.addIssue({ code: "custom", path: ["fim"], message: "fim is before inicio" });
    }
    if (q.cpf !== undefined && q.cnpj !== undefined) {
      ctx.addIssue({ code: "custom", path: ["cnpj"], message: "cpf and cnpj cannot be used together" });
    }
  });
export type PixConsultaQuery = z.input<typeof pixConsultaQuerySchema>;

// ---- responses -----------------------------------------------------------------------------------

/**
 * Devolucao: one of OUR refunds (`PUT|GET /pix/{e2eid}/devolucao/{id}`), whose id, valor and status
 * decide money: these are strict (an unknown status fails the read, and the refund is read again
 * later: never booked on a status Arara does not know). The rest is read leniently.
 */
export const devolucaoSchema = z.looseObject({
  id: devolucaoIdSchema,
  /** The return's end-to-end id; not money, and some PSPs send it late or longer: any text. */
  rtrId: anyText,
  valor: valorSchema,
  /** DevolucaoNatureza; new values may be added to the enumeration, so any text is read. */
  natureza: anyText,
  descricao: anyText,
  horario: z
    .looseObject({
      solicitacao: pspDateTimeSchema.optional().catch(undefined),
      liquidacao: pspDateTimeSchema.optional().catch(undefined),
    })
    .optional()
    .catch(undefined),
  status: devolucaoStatusSchema,
  motivo: anyText,
});
export type Devolucao = z.infer<typeof devolucaoSchema>;

/**
 * A devolução listed in a Pix (`Pix.devolucoes`): ours, or one the PSP made itself (a MED return,
 * with its own id and natureza). Nothing in it is trusted to decide money as it is: a caller that
 * finds one of its own re-reads it with devolucaoSchema. Any text everywhere.
 */
export const devolucaoListadaSchema = z.looseObject({
  id: z.string(),
  rtrId: anyText,
  valor: z.string(),
  natureza: anyText,
  descricao: anyText,
  horario: z.looseObject({ solicitacao: anyText, liquidacao: anyText }).optional().catch(undefined),
  status: z.string(),
  motivo: anyText,
});
export type DevolucaoListada = z.infer<typeof devolucaoListadaSchema>;

/**
 * Pix: a payment received. endToEndId, valor and horario decide money (strict; horario in any of the
 * forms pspDateTimeSchema reads). txid names the charge: any text up to 35 is read ("" as none), since
 * it is only ever compared with our own txids. The rest is lenient, and a devolução of the list that
 * does not parse is dropped.
 */
export const pixSchema = z.looseObject({
  endToEndId: e2eidSchema,
  txid: z
    .string()
    .max(35)
    .optional()
    .transform((t) => (t === "" ? undefined : t)),
  valor: valorSchema,
  componentesValor: z.unknown().optional(),
  chave: anyText,
  horario: pspDateTimeSchema,
  infoPagador: anyText,
  devolucoes: lenientArray(devolucaoListadaSchema).optional().catch(undefined),
});
export type Pix = z.infer<typeof pixSchema>;

/**
 * PayloadLocation. The spec's own examples of a cob leave `criacao` (and once `tipoCob`) out of
 * `loc`, so only `id` and `location` are required here.
 */
export const payloadLocationSchema = z.looseObject({
  id: z.union([z.int(), z.string()]).optional(),
  location: z.string(),
  tipoCob: anyText,
  criacao: anyText,
});

/** CobGerada: the answer to `PUT /cob/{txid}`. */
export const cobGeradaSchema = z.looseObject({
  calendario: z.looseObject({ criacao: pspDateTimeSchema, expiracao: z.int() }),
  txid: txidSchema,
  revisao: z.int().min(0).optional().catch(undefined),
  loc: payloadLocationSchema.optional().catch(undefined),
  /** The payload location without scheme ("pix.example.com/qr/v2/..."), the BR Code's field 26-25. */
  location: anyText,
  /** CobrancaStatus; a value outside COB_STATUSES is read as text (not paid, not final: api-pix-sync.ts). */
  status: z.string(),
  devedor: devedorResponseSchema.optional().catch(undefined),
  valor: z.looseObject({ original: valorSchema, modalidadeAlteracao: z.unknown().optional() }),
  chave: z.string(),
  solicitacaoPagador: anyText,
  infoAdicionais: z.unknown().optional(),
  /** The BR Code (optional in the spec since 2.6.0); checked by the client (pixCopiaEColaProblem). */
  pixCopiaECola: z.string().max(PIX_COPIA_E_COLA_MAX_LENGTH).optional(),
});
export type CobGerada = z.infer<typeof cobGeradaSchema>;

/** CobCompleta: `GET /cob/{txid}`, with the Pix received for the charge (txid of 26 to 35 there). */
export const cobCompletaSchema = cobGeradaSchema.extend({
  /** Strict per Pix: a Pix of the charge that does not read fails the read (tried again later), never dropped. */
  pix: z.array(pixSchema).optional(),
});
export type CobCompleta = z.infer<typeof cobCompletaSchema>;

export const paginacaoSchema = z.looseObject({
  paginaAtual: z.int().min(0),
  itensPorPagina: z.int().min(1),
  /** The spec says at least 1; an empty result may well come back with 0, so that is read too. */
  quantidadeDePaginas: z.int().min(0),
  quantidadeTotalDeItens: z.int().min(0),
});

/**
 * PixConsultados: `GET /pix`. The spec lists `["parametros", "cobs"]` as required here, a slip for
 * `pix` (the property it defines); `pix` is read as an empty list when a PSP leaves it out.
 */
export const pixConsultadosSchema = z.looseObject({
  parametros: z.looseObject({
    inicio: anyText,
    fim: anyText,
    paginacao: paginacaoSchema,
  }),
  /** A Pix that does not read is dropped from the page (GET /cob of each charge is the authority). */
  pix: lenientArray(pixSchema).default([]),
});
export type PixConsultados = z.infer<typeof pixConsultadosSchema>;

/**
 * WebhookCompleto: `GET /webhook/{chave}`. The schema requires `cnpj` while the spec's example shows
 * `chave` instead; PSPs differ, so both are optional here.
 */
export const webhookCompletoSchema = z.looseObject({
  webhookUrl: z.string().min(1),
  chave: anyText,
  cnpj: anyText,
  criacao: anyText,
});
export type WebhookCompleto = z.infer<typeof webhookCompletoSchema>;

/** What the PSP posts to `{webhookUrl}/pix`: Pix received with a txid, and refunds that reached a final status. */
export const webhookPixCallbackSchema = z.looseObject({ pix: z.array(pixSchema) });
export type WebhookPixCallback = z.infer<typeof webhookPixCallbackSchema>;

/** Problema (RFC 7807), the body of every error answer. */
export const problemaSchema = z.looseObject({
  type: z.string(),
  title: z.string(),
  status: z.int(),
  detail: z.string().optional(),
  correlationId: z.string().optional(),
  violacoes: z
    .array(z.looseObject({ razao: z.string().optional(), propriedade: z.string().optional(), valor: z.string().optional() }))
    .optional(),
});
export type Problema = z.infer<typeof problemaSchema>;

// ---- OAuth2 (RFC 6749, client credentials; the spec's securityScheme `OAuth2`) ---------------------

/** Scopes of the operations Arara uses. */
export const API_PIX_SCOPES = ["cob.write", "cob.read", "pix.write", "pix.read", "webhook.write", "webhook.read"] as const;

/** Form body of the token request (application/x-www-form-urlencoded). */
export const tokenRequestSchema = z.strictObject({
  grant_type: z.literal("client_credentials"),
  scope: z.string().optional(),
});

export const tokenResponseSchema = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string().refine((t) => t.toLowerCase() === "bearer", "token_type must be Bearer"),
  /** Seconds. Some PSPs send it as a string of digits. */
  expires_in: z.union([z.int().positive(), z.string().regex(/^\d{1,9}$/).transform(Number)]),
  scope: z.string().optional(),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

export const oauthErrorSchema = z.looseObject({ error: z.string(), error_description: z.string().optional() });
