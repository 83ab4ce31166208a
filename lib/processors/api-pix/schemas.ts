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
 *   "T", an offset without colon or of hours only, a long fraction, and no offset at all, which is
 *   read as Brasília time (-03:00).
 * - In every response, a property that is `null` is read as absent (pspAnswer, dropNulls); numbers
 *   that PSPs write as strings of digits are read as numbers where the spec has an integer.
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

const LENIENT_DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2})(?::(\d{2})(?:\.(\d+))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * A date-time as PSPs send it, normalised to RFC 3339 ("2020-09-09T20:15:00.358Z",
 * "2020-09-09T17:15:00-03:00"): "t" and "z" in lowercase, a space for "T", an offset without colon
 * ("-0300") or of hours only ("-03"), a fraction of more than 9 digits (cut to 9), and no offset
 * at all, which some PSPs send: that is read as Brasília time (-03:00, no daylight saving since
 * 2019), the time zone of the Pix arrangement, never as the server's local time. Returns null for anything else or an impossible date.
 */
export function normalizePspDateTime(text: string): string | null {
  const m = LENIENT_DATE_TIME.exec(text.trim());
  if (!m) return null;
  // Seconds default to 00; a fraction longer than RFC 3339's usual 9 digits (some PSPs send 10 or
  // more) is cut to 9: nothing below a nanosecond decides anything.
  const fraction = m[4] === undefined ? "" : `.${m[4].slice(0, 9)}`;
  const time = `${m[2]}:${m[3] ?? "00"}${fraction}`;
  let offset = m[5] ?? "-03:00";
  if (offset === "z") offset = "Z";
  else if (offset.length === 3) offset = `${offset}:00`; // "-03": an offset of whole hours
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

/**
 * `null` where a property is absent: JSON `null` means nothing in the API Pix (no property of the
 * spec is nullable), and PSPs write `"pixCopiaECola": null`, `"txid": null`, `"expires_in": null`
 * for what they leave out. Every property of an object whose value is null is dropped, at any depth
 * (items of arrays are left alone: a null item is an item that does not read). Returns a copy.
 */
export function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = dropNulls(v);
  return out;
}

/**
 * An answer of the PSP read through `schema` after dropNulls (and `also`, a further rewrite of the
 * raw value such as an alias). Its input type stays the schema's, so the local PSP of the tests is
 * still type-checked when it builds its answers with it.
 */
function pspAnswer<U extends z.ZodType>(schema: U, also: (v: unknown) => unknown = (v) => v) {
  return z.preprocess<unknown, U, z.input<U>>((v) => also(dropNulls(v)), schema);
}

/**
 * A whole number as PSPs write it: a JSON integer or a string of digits ("3600", as the spec's own
 * example of `calendario.expiracao` does).
 */
const wholeNumber = z.union([z.int(), z.string().trim().regex(/^\d{1,10}$/, "must be a whole number").transform(Number)]);
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
// Each is read through pspAnswer: a property that is null is read as absent.

const devolucaoObject = z.looseObject({
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
/**
 * Devolucao: one of OUR refunds (`PUT|GET /pix/{e2eid}/devolucao/{id}`), whose id, valor and status
 * decide money: these are strict (an unknown status fails the read, and the refund is read again
 * later: never booked on a status Arara does not know). The rest is read leniently.
 */
export const devolucaoSchema = pspAnswer(devolucaoObject);
export type Devolucao = z.infer<typeof devolucaoSchema>;

/**
 * A devolução listed in a Pix (`Pix.devolucoes`): ours, or one the PSP made itself (a MED return,
 * with its own id and natureza). Nothing in it is trusted to decide money as it is: a caller that
 * finds one of its own re-reads it with devolucaoSchema. Any text everywhere.
 */
export const devolucaoListadaSchema = pspAnswer(
  z.looseObject({
    id: z.string(),
    rtrId: anyText,
    valor: z.string(),
    natureza: anyText,
    descricao: anyText,
    horario: z.looseObject({ solicitacao: anyText, liquidacao: anyText }).optional().catch(undefined),
    status: z.string(),
    motivo: anyText,
  }),
);
export type DevolucaoListada = z.infer<typeof devolucaoListadaSchema>;

/**
 * `txId` (Santander's spelling) read as `txid`: when both come, `txid` is the one read.
 */
function txIdAlias(v: unknown): unknown {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
  const o = v as Record<string, unknown>;
  if (o.txid !== undefined || o.txId === undefined) return v;
  return { ...o, txid: o.txId };
}

/**
 * Pix: a payment received. endToEndId, valor and horario decide money (strict; horario in any of the
 * forms pspDateTimeSchema reads). txid names the charge: any text up to 35 is read ("" as none), since
 * it is only ever compared with our own txids; `txId` is read as `txid` (txIdAlias). The rest is
 * lenient, and a devolução of the list that does not parse is dropped.
 */
export const pixSchema = pspAnswer(
  z.looseObject({
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
  }),
  txIdAlias,
);
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

/** Release 2.1.x spelt two CobrancaStatus values in the masculine; read as the 2.2+ ones. */
const COB_STATUS_ALIASES: Record<string, CobStatus> = {
  REMOVIDO_PELO_USUARIO_RECEBEDOR: "REMOVIDA_PELO_USUARIO_RECEBEDOR",
  REMOVIDO_PELO_PSP: "REMOVIDA_PELO_PSP",
};

/** The spec's `calendario.expiracao` when a cob is created without one (CobExpiracao's default). */
export const COB_DEFAULT_EXPIRACAO = 86_400;

const cobGeradaObject = z.looseObject({
  calendario: z.looseObject({
    criacao: pspDateTimeSchema,
    /**
     * Seconds, as a number or a string of digits (the spec's own example writes "3600"). A PSP may
     * leave it out of its answer: the client then takes what it asked for (client.ts createCob).
     */
    expiracao: wholeNumber.optional(),
  }),
  txid: txidSchema,
  revisao: z.int().min(0).optional().catch(undefined),
  loc: payloadLocationSchema.optional().catch(undefined),
  /** The payload location without scheme ("pix.example.com/qr/v2/..."), the BR Code's field 26-25. */
  location: anyText,
  /**
   * CobrancaStatus; a value outside COB_STATUSES is read as text (not paid, not final:
   * api-pix-sync.ts). The 2.1.x spellings REMOVIDO_PELO_* are read as REMOVIDA_PELO_*.
   */
  status: z.string().transform((st) => COB_STATUS_ALIASES[st] ?? st),
  devedor: devedorResponseSchema.optional().catch(undefined),
  valor: z.looseObject({ original: valorSchema, modalidadeAlteracao: z.unknown().optional() }),
  chave: z.string(),
  solicitacaoPagador: anyText,
  infoAdicionais: z.unknown().optional(),
  /** The BR Code (optional in the spec since 2.6.0); checked by the client (pixCopiaEColaProblem). */
  pixCopiaECola: z.string().max(PIX_COPIA_E_COLA_MAX_LENGTH).optional(),
});

/** CobGerada: the answer to `PUT /cob/{txid}`. */
export const cobGeradaSchema = pspAnswer(cobGeradaObject);
export type CobGerada = z.infer<typeof cobGeradaSchema>;

/** CobCompleta: `GET /cob/{txid}`, with the Pix received for the charge (txid of 26 to 35 there). */
export const cobCompletaSchema = pspAnswer(
  cobGeradaObject.extend({
    /** Strict per Pix: a Pix of the charge that does not read fails the read (tried again later), never dropped. */
    pix: z.array(pixSchema).optional(),
  }),
);
export type CobCompleta = z.infer<typeof cobCompletaSchema>;

/** A count of Paginacao: a whole number of at least `min`, or nothing when the PSP wrote something else. */
const pageCount = (min: number) => wholeNumber.pipe(z.int().min(min)).optional().catch(undefined);

/**
 * Paginacao, as read: each field a whole number (or a string of digits), or absent when missing or
 * unreadable; quantidadeDePaginas then as pixConsultadosSchema works it out.
 */
export const paginacaoSchema = z.looseObject({
  paginaAtual: pageCount(0),
  itensPorPagina: pageCount(1),
  /** The spec says at least 1; an empty result may well come back with 0, so that is read too. */
  quantidadeDePaginas: pageCount(0),
  quantidadeTotalDeItens: pageCount(0),
});
export type Paginacao = z.infer<typeof paginacaoSchema>;

/**
 * How many pages `GET /pix` has, when the PSP did not say: from quantidadeTotalDeItens and
 * itensPorPagina when it gave both; else this page is the last one when it holds fewer items than a
 * page does (or none); else it is unknown (undefined): the caller reads on until a page comes back
 * empty or short. `items` counts the page's items as sent, those that did not read included.
 */
export function pagesOf(p: Paginacao, items: number): number | undefined {
  if (p.quantidadeDePaginas !== undefined) return p.quantidadeDePaginas;
  if (p.quantidadeTotalDeItens !== undefined && p.itensPorPagina !== undefined) {
    return Math.max(1, Math.ceil(p.quantidadeTotalDeItens / p.itensPorPagina));
  }
  if (items === 0 || (p.itensPorPagina !== undefined && items < p.itensPorPagina)) return (p.paginaAtual ?? 0) + 1;
  return undefined;
}

/**
 * PixConsultados: `GET /pix`. The spec lists `["parametros", "cobs"]` as required here, a slip for
 * `pix` (the property it defines); `pix` is read as an empty list when a PSP leaves it out. Nothing of
 * `parametros` decides money: a field missing there does not fail the page (quantidadeDePaginas is
 * worked out by pagesOf; undefined when it cannot be).
 */
export const pixConsultadosSchema = pspAnswer(
  z
    .looseObject({
      parametros: z
        .looseObject({
          inicio: anyText,
          fim: anyText,
          paginacao: paginacaoSchema.optional().catch(undefined),
        })
        .optional()
        .catch(undefined),
      pix: z.array(z.unknown()).optional().catch(undefined),
    })
    .transform(({ parametros, pix: raw, ...rest }) => {
      const items = raw ?? [];
      const paginacao = parametros?.paginacao ?? {};
      return {
        ...rest,
        parametros: { ...parametros, paginacao: { ...paginacao, quantidadeDePaginas: pagesOf(paginacao, items.length) } },
        /** A Pix that does not read is dropped from the page (GET /cob of each charge is the authority). */
        pix: items.flatMap((i) => {
          const r = pixSchema.safeParse(i);
          return r.success ? [r.data] : [];
        }),
      };
    }),
);
export type PixConsultados = z.infer<typeof pixConsultadosSchema>;

/**
 * WebhookCompleto: `GET /webhook/{chave}`. The schema requires `cnpj` while the spec's example shows
 * `chave` instead; PSPs differ, so both are optional here.
 */
export const webhookCompletoSchema = pspAnswer(
  z.looseObject({
    webhookUrl: z.string().min(1),
    chave: anyText,
    cnpj: anyText,
    criacao: anyText,
  }),
);
export type WebhookCompleto = z.infer<typeof webhookCompletoSchema>;

/** What the PSP posts to `{webhookUrl}/pix`: Pix received with a txid, and refunds that reached a final status. */
export const webhookPixCallbackSchema = pspAnswer(z.looseObject({ pix: z.array(pixSchema) }));
export type WebhookPixCallback = z.infer<typeof webhookPixCallbackSchema>;

/**
 * Problema (RFC 7807), the body of every error answer. Only `type`, `title` and `status` are needed to
 * read it; the rest is read field by field (a violação whose `valor` is a number, as some PSPs send,
 * loses that field, not the whole body).
 */
export const problemaSchema = pspAnswer(
  z.looseObject({
    type: z.string(),
    title: z.string(),
    status: wholeNumber,
    detail: anyText,
    correlationId: anyText,
    violacoes: lenientArray(z.looseObject({ razao: anyText, propriedade: anyText, valor: anyText })).optional().catch(undefined),
  }),
);
export type Problema = z.infer<typeof problemaSchema>;

// ---- OAuth2 (RFC 6749, client credentials; the spec's securityScheme `OAuth2`) ---------------------

/** Scopes of the operations Arara uses. */
export const API_PIX_SCOPES = ["cob.write", "cob.read", "pix.write", "pix.read", "webhook.write", "webhook.read"] as const;

/** Form body of the token request (application/x-www-form-urlencoded). */
export const tokenRequestSchema = z.strictObject({
  grant_type: z.literal("client_credentials"),
  scope: z.string().optional(),
});

/**
 * The token's answer. `expires_in` is only RECOMMENDED (RFC 6749 5.1): absent, the session assumes a
 * short lifetime (oauth-session.ts, DEFAULT_TOKEN_LIFETIME_S). Seconds, a number (a fraction is read
 * too) or a string of one ("3600", "3599.5"); zero or less is refused.
 */
export const tokenResponseSchema = pspAnswer(
  z.looseObject({
    access_token: z.string().min(1),
    token_type: z.string().refine((t) => t.toLowerCase() === "bearer", "token_type must be Bearer"),
    expires_in: z
      .union([z.number(), z.string().trim().regex(/^\d{1,9}(\.\d+)?$/, "must be a number of seconds").transform(Number)])
      .pipe(z.number().positive().max(INT32_MAX))
      .optional(),
    scope: anyText,
  }),
);
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

export const oauthErrorSchema = z.looseObject({ error: z.string(), error_description: z.string().optional() });
