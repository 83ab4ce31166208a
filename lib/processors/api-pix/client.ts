/**
 * A client of a PSP's API Pix (Banco Central's standard, release 2.8.x): OAuth2 client credentials
 * over mutual TLS, then the operations Arara needs, each answer checked against the spec's schemas.
 *
 * - One client per PSP configuration (account); it owns an https.Agent with the client certificate
 *   and a cached access token, used until shortly before it expires. Concurrent calls share one
 *   token request. A 401 from the API drops the token and the call is tried once more with a new one.
 * - No other retries: a 5xx or a timeout comes back as an ApiPixError with `retryable` set, for the
 *   caller (or the reconciliation loop) to decide. Every operation used here is idempotent at the PSP
 *   (PUT with the caller's ids, or GET), so trying again later is safe.
 * - Secrets (client secret, tokens, key, PKCS#12 password) never reach a log line or an error.
 */
import { ApiPixError } from "./errors";
import { pixCopiaEColaProblem } from "./helpers";
import {
  API_PIX_SCOPES,
  chaveSchema,
  COB_DEFAULT_EXPIRACAO,
  cobCompletaSchema,
  cobGeradaSchema,
  cobRevisadaSchema,
  cobSolicitadaSchema,
  devolucaoIdSchema,
  devolucaoSchema,
  devolucaoSolicitadaSchema,
  e2eidSchema,
  pixConsultadosSchema,
  pixConsultaQuerySchema,
  pixSchema,
  txidSchema,
  webhookCompletoSchema,
  webhookSolicitadoSchema,
  type CobCompleta,
  type CobGerada,
  type CobSolicitada,
  type Devolucao,
  type DevolucaoSolicitada,
  type Pix,
  type PixConsultados,
  type WebhookCompleto,
} from "./schemas";
import { PspHttpClient } from "./http-client";

export type { ApiPixClientConfig, ApiPixLogger } from "./oauth-session";


export type PixListQuery = {
  inicio: Date | string;
  fim: Date | string;
  txid?: string;
  txIdPresente?: boolean;
  devolucaoPresente?: boolean;
  cpf?: string;
  cnpj?: string;
  paginaAtual?: number;
  itensPorPagina?: number;
};

export { API_PIX_SCOPES };

const rfc3339 = (d: Date | string) => (d instanceof Date ? d.toISOString() : d);

export class ApiPixClient extends PspHttpClient {
  // ---- operations ----------------------------------------------------------------------------------

  /**
   * `PUT /cob/{txid}`: creates the immediate charge (or revises it while ATIVA; the same body again
   * changes nothing, so a call that timed out can be repeated with the same txid). The BR Code
   * (`pixCopiaECola`) is checked when the PSP returns one; it is optional in the spec, and without
   * it the processor builds the dynamic BR Code from `location` (processor.ts).
   */
  async createCob(txid: string, body: CobSolicitada): Promise<CobGerada> {
    const op = "PUT /cob/{txid}";
    this.checkInput(op, txidSchema, txid, "txid");
    this.checkInput(op, cobSolicitadaSchema, body, "corpo");
    const cob = await this.call({ method: "PUT", template: "/cob/{txid}", path: `/cob/${txid}`, body, schema: cobGeradaSchema });
    if (cob.txid !== txid) throw this.invalidResponse(op, "txid da resposta difere do pedido");
    if (cob.pixCopiaECola !== undefined) {
      const problem = pixCopiaEColaProblem(cob);
      if (problem) throw this.invalidResponse(op, problem);
    }
    // A PSP that leaves `calendario.expiracao` out of its answer created the charge with what it was
    // asked for (the spec's default, 86400, only when the request had none): that, and not the
    // default, is when the PSP stops taking payments, so it is what the charge's expiry counts from.
    if (cob.calendario.expiracao === undefined) {
      return { ...cob, calendario: { ...cob.calendario, expiracao: body.calendario.expiracao ?? COB_DEFAULT_EXPIRACAO } };
    }
    return cob;
  }

  /**
   * `PATCH /cob/{txid}` with `{ "status": "REMOVIDA_PELO_USUARIO_RECEBEDOR" }`: removes a charge still
   * ATIVA, so no payer can pay it any more. Answers the charge's status as the PSP says it now. A charge
   * no longer ATIVA (paid: CONCLUIDA, or removed already) is refused by the spec with 400
   * CobOperacaoInvalida, an unknown one with 404: the caller reads the charge to know which.
   */
  async removeCob(txid: string): Promise<{ status: string }> {
    const op = "PATCH /cob/{txid}";
    this.checkInput(op, txidSchema, txid, "txid");
    const body = { status: "REMOVIDA_PELO_USUARIO_RECEBEDOR" as const };
    this.checkInput(op, cobRevisadaSchema, body, "corpo");
    const cob = await this.call({ method: "PATCH", template: "/cob/{txid}", path: `/cob/${txid}`, body, schema: cobGeradaSchema });
    if (cob.txid !== txid) throw this.invalidResponse(op, "txid da resposta difere do pedido");
    return { status: cob.status };
  }

  /** `GET /cob/{txid}`: the charge with the Pix received for it. */
  async getCob(txid: string): Promise<CobCompleta> {
    this.checkInput("GET /cob/{txid}", txidSchema, txid, "txid");
    const cob = await this.call({ method: "GET", template: "/cob/{txid}", path: `/cob/${txid}`, schema: cobCompletaSchema });
    if (cob.txid !== txid) throw this.invalidResponse("GET /cob/{txid}", "txid da resposta difere do pedido");
    return cob;
  }

  /** `GET /pix/{e2eid}`. */
  async getPix(e2eid: string): Promise<Pix> {
    this.checkInput("GET /pix/{e2eid}", e2eidSchema, e2eid, "e2eid");
    const pix = await this.call({ method: "GET", template: "/pix/{e2eid}", path: `/pix/${e2eid}`, schema: pixSchema });
    if (pix.endToEndId !== e2eid) throw this.invalidResponse("GET /pix/{e2eid}", "endToEndId da resposta difere do pedido");
    return pix;
  }

  /** `GET /pix?inicio=&fim=`: one page of the Pix received in the period. */
  async listPix(query: PixListQuery): Promise<PixConsultados> {
    const params: Record<string, string> = { inicio: rfc3339(query.inicio), fim: rfc3339(query.fim) };
    if (query.txid !== undefined) params.txid = query.txid;
    if (query.txIdPresente !== undefined) params.txIdPresente = String(query.txIdPresente);
    if (query.devolucaoPresente !== undefined) params.devolucaoPresente = String(query.devolucaoPresente);
    if (query.cpf !== undefined) params.cpf = query.cpf;
    if (query.cnpj !== undefined) params.cnpj = query.cnpj;
    if (query.paginaAtual !== undefined) params["paginacao.paginaAtual"] = String(query.paginaAtual);
    if (query.itensPorPagina !== undefined) params["paginacao.itensPorPagina"] = String(query.itensPorPagina);
    this.checkInput("GET /pix", pixConsultaQuerySchema, params, "consulta");
    return this.call({ method: "GET", template: "/pix", path: "/pix", query: new URLSearchParams(params), schema: pixConsultadosSchema });
  }

  /** Every page of `GET /pix` for the period, in the PSP's order (at most `maxPages` pages). */
  async listAllPix(query: Omit<PixListQuery, "paginaAtual">, maxPages = 100): Promise<Pix[]> {
    const out: Pix[] = [];
    for (let page = 0; page < maxPages; page++) {
      const result = await this.listPix({ ...query, paginaAtual: page });
      out.push(...result.pix);
      // Pages not said by the PSP (pagesOf): read on until a page comes back empty.
      const pages = result.parametros.paginacao.quantidadeDePaginas;
      if ((pages !== undefined && page + 1 >= pages) || result.pix.length === 0) return out;
    }
    throw this.invalidResponse("GET /pix", `mais de ${maxPages} páginas`);
  }

  /** `PUT /pix/{e2eid}/devolucao/{id}`: asks for a refund; `id` is ours and makes the request idempotent. */
  async requestDevolucao(e2eid: string, id: string, body: DevolucaoSolicitada): Promise<Devolucao> {
    const op = "PUT /pix/{e2eid}/devolucao/{id}";
    this.checkInput(op, e2eidSchema, e2eid, "e2eid");
    this.checkInput(op, devolucaoIdSchema, id, "id");
    this.checkInput(op, devolucaoSolicitadaSchema, body, "corpo");
    const dev = await this.call({ method: "PUT", template: "/pix/{e2eid}/devolucao/{id}", path: `/pix/${e2eid}/devolucao/${id}`, body, schema: devolucaoSchema });
    if (dev.id !== id) throw this.invalidResponse(op, "id da devolução difere do pedido");
    return dev;
  }

  /** `GET /pix/{e2eid}/devolucao/{id}`. */
  async getDevolucao(e2eid: string, id: string): Promise<Devolucao> {
    const op = "GET /pix/{e2eid}/devolucao/{id}";
    this.checkInput(op, e2eidSchema, e2eid, "e2eid");
    this.checkInput(op, devolucaoIdSchema, id, "id");
    const dev = await this.call({ method: "GET", template: "/pix/{e2eid}/devolucao/{id}", path: `/pix/${e2eid}/devolucao/${id}`, schema: devolucaoSchema });
    if (dev.id !== id) throw this.invalidResponse(op, "id da devolução difere do pedido");
    return dev;
  }

  /** `PUT /webhook/{chave}`: the PSP will post the Pix received for this key to `{webhookUrl}/pix`. */
  async putWebhook(chave: string, webhookUrl: string): Promise<void> {
    const op = "PUT /webhook/{chave}";
    this.checkInput(op, chaveSchema, chave, "chave");
    const body = { webhookUrl };
    this.checkInput(op, webhookSolicitadoSchema, body, "corpo");
    await this.call({ method: "PUT", template: "/webhook/{chave}", path: `/webhook/${encodeURIComponent(chave)}`, body, schema: null });
  }

  /** `GET /webhook/{chave}`. */
  async getWebhook(chave: string): Promise<WebhookCompleto> {
    this.checkInput("GET /webhook/{chave}", chaveSchema, chave, "chave");
    return this.call({ method: "GET", template: "/webhook/{chave}", path: `/webhook/${encodeURIComponent(chave)}`, schema: webhookCompletoSchema });
  }

  /**
   * What "Testar conexão" does: a fresh token (client certificate, id and secret) and a read of the
   * webhook registered for the key (null when there is none yet). Throws the ApiPixError met.
   */
  async testConnection(chave: string): Promise<{ webhook: WebhookCompleto | null }> {
    this.token = null;
    await this.accessToken();
    try {
      return { webhook: await this.getWebhook(chave) };
    } catch (e) {
      if (e instanceof ApiPixError && e.code === "not_found") return { webhook: null };
      throw e;
    }
  }
}
