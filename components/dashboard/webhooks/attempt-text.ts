import { ServiceError } from "@/lib/services/errors";

/**
 * Why a webhook attempt failed, in Portuguese. The dispatcher records its reason in English (the API
 * returns it as it is, in `attempts[].error`); the dashboard says the known ones in words, and anything
 * else with a general sentence that keeps the technical detail.
 */
export function attemptErrorText(error: string): string {
  const e = error.trim();
  let m: RegExpMatchArray | null;
  if ((m = e.match(/^the receiver answered HTTP (\d+); only 2xx counts as delivered/))) {
    return `o receptor respondeu HTTP ${m[1]}; só uma resposta 2xx conta como entregue`;
  }
  if ((m = e.match(/^timeout: no complete response within (\d+) ms/))) {
    return `sem resposta completa em ${(Number(m[1]) / 1000).toLocaleString("pt-BR")} s (tempo esgotado)`;
  }
  if (/^the receiver closed the connection before the response ended/.test(e)) return "o receptor fechou a conexão antes de terminar a resposta";
  if ((m = e.match(/^refused: (\S+) is a local host name/))) return `recusado: ${m[1]} é um nome de host local, que não recebe webhooks`;
  if ((m = e.match(/^refused: (\S+) resolves to (\S+),/))) {
    return `recusado: ${m[1]} aponta para ${m[2]}, um endereço privado, local ou reservado, que não recebe webhooks`;
  }
  if (/^refused: the URL /.test(e)) return "recusado: a URL não é uma URL http:// ou https:// permitida para webhooks";
  if ((m = e.match(/^DNS lookup of (\S+) returned no address/))) return `o DNS de ${m[1]} não retornou nenhum endereço`;
  if (/^DNS lookup failed|ENOTFOUND|EAI_AGAIN/.test(e)) return "o nome do servidor não foi encontrado no DNS";
  if (/^the event has no URL/.test(e)) return "o evento não tem URL de entrega";
  if (/webhook secret cannot be decrypted/.test(e)) return "o segredo de assinatura da conta não pôde ser lido (confira KEY_ENCRYPTION_SECRET do servidor)";
  if (/ECONNREFUSED/.test(e)) return "conexão recusada: nada atende nesse endereço e porta";
  if (/ECONNRESET|socket hang up/.test(e)) return "a conexão caiu antes da resposta";
  if (/ETIMEDOUT|ESOCKETTIMEDOUT/.test(e)) return "o servidor não respondeu a tempo";
  if (/EHOSTUNREACH|ENETUNREACH/.test(e)) return "o servidor está inalcançável pela rede";
  if (/CERT|certificate|self[- ]signed|SSL|TLS|EPROTO/i.test(e)) return "o certificado HTTPS do receptor não é válido (ou a conexão segura falhou)";
  return `falha na entrega (detalhe técnico: ${e})`;
}

/**
 * A refusal of "Reenviar" or "Desistir" by the webhook services (whose messages are the API's, in
 * English), in Portuguese. The page no longer offers what it knows would be refused; these reach it
 * when the event changed since the page was drawn.
 */
export function webhookActionRefusal(err: unknown, action: "redeliver" | "skip"): string | null {
  if (!(err instanceof ServiceError)) return null;
  const m = err.message.match(/waits for event (\d+)/);
  if (m) {
    return `Este evento aguarda o evento #${m[1]}: os eventos são entregues em ordem. Reenvie o evento #${m[1]} ou desista dele primeiro.`;
  }
  if (/has no URL/.test(err.message)) return "Este evento não tem URL de entrega (criado sem postbackUrl): ele nunca é enviado.";
  if (/already delivered/.test(err.message)) return "Este evento já foi entregue: não há do que desistir.";
  if (/being delivered right now/.test(err.message)) return "O evento está sendo enviado agora. Aguarde alguns segundos e tente de novo.";
  switch (err.code) {
    case "not_found":
      return "Evento não encontrado nesta conta.";
    case "conflict":
      return "O evento mudou enquanto a operação rodava. Recarregue a página e tente de novo.";
    case "rate_limited":
      return "Muitas operações seguidas. Aguarde alguns segundos e tente de novo.";
    case "internal_error":
      return null;
    default:
      return action === "redeliver" ? "O evento não pode ser reenviado agora. Recarregue a página." : "Não foi possível desistir deste evento agora. Recarregue a página.";
  }
}
