/**
 * Efí's "Pix Envio" (sending a Pix from the merchant's Efí account), as Efí publishes it:
 *
 *   PUT /v3/gn/pix/{idEnvio}                     scope pix.send
 *   GET /v2/gn/pix/enviados/id-envio/{idEnvio}   scope gn.pix.send.read
 *
 * both on the host of Efí's API Pix, with the same OAuth2 client credentials over mutual TLS. The
 * same idEnvio is never a second transfer (a repeated one answers 409 `id_envio_duplicado`). Errors
 * of these endpoints are `{ nome, mensagem }` (a 404 of the GET is a problem body).
 */
import { z } from "zod";
import { VALOR_REGEX } from "@/lib/processors/api-pix/schemas";

export const ID_ENVIO_REGEX = /^[a-zA-Z0-9]{1,35}$/;
export const idEnvioSchema = z.string().regex(ID_ENVIO_REGEX, "idEnvio: 1 a 35 letras ou dígitos");
const valorSchema = z.string().regex(VALOR_REGEX, "valor: decimal com duas casas");
const chave = z.string().min(1).max(77);
const cpf = z.string().regex(/^\d{11}$/);
const cnpj = z.string().regex(/^\d{14}$/);

export const EFI_SEND_STATUSES = ["EM_PROCESSAMENTO", "REALIZADO", "NAO_REALIZADO"] as const;
export const efiSendStatusSchema = z.enum(EFI_SEND_STATUSES);
export type EfiSendStatus = z.infer<typeof efiSendStatusSchema>;

const contaBanco = z.strictObject({
  nome: z.string().min(1).max(200),
  cpf: cpf.optional(),
  cnpj: cnpj.optional(),
  /** ISPB of the receiving institution. */
  codigoBanco: z.string().regex(/^\d{8}$/),
  agencia: z.string().regex(/^\d{1,4}$/),
  conta: z.string().regex(/^\d{1,20}$/),
  tipoConta: z.enum(["cacc", "svgs", "slry", "tran"]),
});

/** The body of `PUT /v3/gn/pix/{idEnvio}`. */
export const pixEnvioSolicitadoSchema = z.strictObject({
  valor: valorSchema,
  pagador: z.strictObject({ chave, infoPagador: z.string().max(140).optional() }),
  favorecido: z.union([
    // To a key; cpf/cnpj, when sent, must be the key owner's document (Efí checks it).
    z.strictObject({ chave, cpf: cpf.optional(), cnpj: cnpj.optional() }),
    z.strictObject({ contaBanco }),
  ]),
});
export type PixEnvioSolicitado = z.infer<typeof pixEnvioSolicitadoSchema>;

/** Its answer (201). */
export const pixEnvioRespostaSchema = z.object({
  idEnvio: idEnvioSchema,
  e2eId: z.string().min(1).max(40),
  valor: valorSchema,
  horario: z.object({ solicitacao: z.string().min(1) }),
  status: efiSendStatusSchema,
});
export type PixEnvioResposta = z.infer<typeof pixEnvioRespostaSchema>;

/** `GET /v2/gn/pix/enviados/id-envio/{idEnvio}`. */
export const pixEnviadoSchema = z.object({
  endToEndId: z.string().min(1).max(40),
  idEnvio: idEnvioSchema,
  valor: valorSchema,
  chave: chave.optional(),
  status: efiSendStatusSchema,
  infoPagador: z.string().optional(),
  horario: z.object({ solicitacao: z.string().min(1), liquidacao: z.string().optional() }),
  favorecido: z.record(z.string(), z.unknown()).optional(),
});
export type PixEnviado = z.infer<typeof pixEnviadoSchema>;
