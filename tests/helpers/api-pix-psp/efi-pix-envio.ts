/**
 * Efí's "Pix Envio" in the local PSP (server.ts mounts it beside the API Pix, on the same host,
 * mutual TLS and OAuth tokens, as Efí does):
 *
 *   PUT /v3/gn/pix/{idEnvio}                    send a Pix from one of the account's keys
 *   GET /v2/gn/pix/enviados/id-envio/{idEnvio}  read it back
 *
 * Requests are checked against the schemas written from Efí's published contract
 * (lib/processors/payouts/efi-schemas.ts) and refused as Efí does (`{ nome, mensagem }`): an idEnvio
 * out of `^[a-zA-Z0-9]{1,35}$` or a body off-schema (400 `valor_invalido`), a payer key that is not
 * the account's (400 `chave_invalida`), an idEnvio already used (409 `id_envio_duplicado`: never a
 * second transfer). A send stays EM_PROCESSAMENTO until the test settles it (REALIZADO or NAO_REALIZADO).
 */
import { makeEnd2EndId } from "@/lib/domain/pix/end2end";
import { PROBLEM_TYPE_BASE } from "@/lib/processors/api-pix/schemas";
import {
  ID_ENVIO_REGEX,
  pixEnviadoSchema,
  pixEnvioRespostaSchema,
  pixEnvioSolicitadoSchema,
  type EfiSendStatus,
  type PixEnviado,
  type PixEnvioSolicitado,
} from "@/lib/processors/payouts/efi-schemas";

export type EfiSend = {
  idEnvio: string;
  e2eId: string;
  request: PixEnvioSolicitado;
  status: EfiSendStatus;
  solicitacao: string;
  liquidacao?: string;
};

export type EfiAnswer = { status: number; body: unknown; contentType: string };

export type EfiPixEnvio = {
  sends: Map<string, EfiSend>;
  /** Every `PUT /v3/gn/pix/{idEnvio}` received, in order (also those refused). */
  putRequests: { idEnvio: string; status: number }[];
  owns: (path: string) => boolean;
  handle: (method: string, path: string, body: string) => EfiAnswer;
  /** The transfer reaches the receiver (REALIZADO) or is given up (NAO_REALIZADO). */
  settle: (idEnvio: string, status: Exclude<EfiSendStatus, "EM_PROCESSAMENTO">) => PixEnviado;
  /** The next send is refused by Efí's analysis (422 `pagamento_negado`). */
  denyNext: () => void;
  /** The next send is made, but its answer is lost on the way (a 504 from Efí's gateway). */
  loseNextAnswer: () => void;
};

const json = (status: number, body: unknown): EfiAnswer => ({ status, body, contentType: "application/json" });
const efiError = (status: number, nome: string, mensagem: string) => json(status, { nome, mensagem });

export function createEfiPixEnvio(opts: { keys: string[]; ispb: string; now: () => Date; randomAlnum: (n: number) => string }): EfiPixEnvio {
  const sends = new Map<string, EfiSend>();
  const putRequests: EfiPixEnvio["putRequests"] = [];
  let deny = 0;
  let lose = 0;

  const view = (s: EfiSend): PixEnviado => {
    const favorecido = "chave" in s.request.favorecido ? { chave: s.request.favorecido.chave } : { contaBanco: { ...s.request.favorecido.contaBanco } };
    return pixEnviadoSchema.parse({
      endToEndId: s.e2eId,
      idEnvio: s.idEnvio,
      valor: s.request.valor,
      chave: s.request.pagador.chave,
      status: s.status,
      ...(s.request.pagador.infoPagador ? { infoPagador: s.request.pagador.infoPagador } : {}),
      horario: { solicitacao: s.solicitacao, ...(s.liquidacao ? { liquidacao: s.liquidacao } : {}) },
      favorecido,
    });
  };

  function put(idEnvio: string, body: string): EfiAnswer {
    if (!ID_ENVIO_REGEX.test(idEnvio)) return efiError(400, "valor_invalido", "O idEnvio deve ter de 1 a 35 letras ou dígitos.");
    let parsedJson: unknown;
    try {
      parsedJson = JSON.parse(body);
    } catch {
      return efiError(400, "json_invalido", "O corpo da requisição não é um JSON válido.");
    }
    const parsed = pixEnvioSolicitadoSchema.safeParse(parsedJson);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      return efiError(400, "valor_invalido", `Campo ${first.path.join(".") || "corpo"} inválido: ${first.message}`);
    }
    if (sends.has(idEnvio)) return efiError(409, "id_envio_duplicado", "O id de envio informado já foi utilizado em outro pagamento");
    if (!opts.keys.includes(parsed.data.pagador.chave)) return efiError(400, "chave_invalida", "A chave informada não faz referência à conta Efí autenticada");
    if (Number(parsed.data.valor) <= 0) return efiError(400, "valor_invalido", "Campo valor deve ser maior que zero");
    if (deny > 0) {
      deny -= 1;
      return efiError(422, "pagamento_negado", "Pagamento negado por análises");
    }
    const at = opts.now();
    const s: EfiSend = { idEnvio, e2eId: makeEnd2EndId(opts.ispb, at, opts.randomAlnum(11)), request: parsed.data, status: "EM_PROCESSAMENTO", solicitacao: at.toISOString() };
    sends.set(idEnvio, s);
    return json(201, pixEnvioRespostaSchema.parse({ idEnvio, e2eId: s.e2eId, valor: s.request.valor, horario: { solicitacao: s.solicitacao }, status: s.status }));
  }

  function get(idEnvio: string): EfiAnswer {
    const s = sends.get(idEnvio);
    if (!s) {
      return {
        status: 404,
        body: { type: `${PROBLEM_TYPE_BASE}PixEnviadoNaoEncontrado`, title: "Não Encontrado", status: 404, detail: "Pix enviado não encontrado para o idEnvio informado." },
        contentType: "application/problem+json",
      };
    }
    return json(200, view(s));
  }

  const PUT_PATH = /^\/v3\/gn\/pix\/([^/]+)$/;
  const GET_PATH = /^\/v2\/gn\/pix\/enviados\/id-envio\/([^/]+)$/;

  return {
    sends,
    putRequests,
    owns: (path) => path.startsWith("/v3/gn/") || path.startsWith("/v2/gn/"),
    handle(method, path, body) {
      let m: RegExpExecArray | null;
      if ((m = PUT_PATH.exec(path)) && method === "PUT") {
        let a = put(decodeURIComponent(m[1]), body);
        if (a.status === 201 && lose > 0) {
          lose -= 1;
          a = efiError(504, "erro_aplicacao", "Tempo esgotado no gateway.");
        }
        putRequests.push({ idEnvio: m[1], status: a.status });
        return a;
      }
      if ((m = GET_PATH.exec(path)) && method === "GET") return get(decodeURIComponent(m[1]));
      return efiError(404, "nao_encontrado", "Recurso não encontrado.");
    },
    settle(idEnvio, status) {
      const s = sends.get(idEnvio);
      if (!s) throw new Error(`No Pix sent with idEnvio ${idEnvio}`);
      if (s.status !== "EM_PROCESSAMENTO") throw new Error(`The send ${idEnvio} is already ${s.status}`);
      s.status = status;
      if (status === "REALIZADO") s.liquidacao = opts.now().toISOString();
      return view(s);
    },
    denyNext() {
      deny += 1;
    },
    loseNextAnswer() {
      lose += 1;
    },
  };
}
