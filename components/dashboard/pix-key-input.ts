import { parsePixKey, type PixKeyProblem, type PixKeyResult } from "@/lib/domain/pix/keys";

/** The key as typed in a form (sign-up, settings, cash-out): the chosen type, else its shape decides. */
export function checkPixKeyInput(key: string, chosenType: string): PixKeyResult | null {
  if (!key.trim()) return null;
  return parsePixKey(key, chosenType || undefined);
}

const PHONE_HOWTO = "Se for um celular, escreva com +55, como +55 11 98765-4321.";

/** Why a key was refused, for the merchant (the API's messages are in English). */
export const PIX_KEY_PROBLEM_TEXT: Record<PixKeyProblem, string> = {
  empty: "Informe a chave PIX.",
  unknown_type: "Tipo de chave inválido.",
  not_a_key: "Use CPF, CNPJ, e-mail, celular com +55 (como +55 11 98765-4321) ou chave aleatória.",
  invalid_cpf: `CPF inválido: confira os dígitos. ${PHONE_HOWTO}`,
  invalid_cnpj: `CNPJ inválido: confira os dígitos. ${PHONE_HOWTO}`,
  invalid_email: "E-mail inválido.",
  email_too_long: "Uma chave e-mail tem no máximo 77 caracteres.",
  invalid_phone: "Celular inválido: use +55, o DDD e os 9 dígitos do celular, como +55 11 98765-4321. Telefone fixo não pode ser chave PIX.",
  document_as_phone: `Isto está escrito como CPF ou CNPJ, não como telefone. ${PHONE_HOWTO}`,
  ambiguous_digits: "Não dá para saber se é CPF ou celular: escreva o CPF como 123.456.789-09 ou o celular como +55 11 98765-4321, ou escolha o tipo da chave.",
  invalid_evp: "Chave aleatória inválida: use o formato 123e4567-e89b-12d3-a456-426614174000.",
};

const OTHER_KEY = { email: ["um e-mail", "E-mail"], evp: ["uma chave aleatória", "Chave aleatória"] } as const;

/**
 * The refusal in Portuguese, or null when the key is fine (or not typed yet). A CPF or CNPJ that fails
 * its check is said for what the key looks like: another kind of key with the wrong type chosen, or a
 * document mistyped; the phone hint only for digits, which may be a phone meant as one.
 */
export function pixKeyErrorText(result: PixKeyResult | null): string | null {
  if (!result || result.ok) return null;
  const doc = result.problem === "invalid_cpf" ? "CPF" : result.problem === "invalid_cnpj" ? "CNPJ" : null;
  if (doc && (result.looksLike === "email" || result.looksLike === "evp")) {
    const [what, type] = OTHER_KEY[result.looksLike];
    return `Isto parece ${what}, mas o tipo escolhido é ${doc}: escolha o tipo ${type} ou "Detectar automaticamente".`;
  }
  if (doc && result.looksLike === "other") return `${doc} inválido: confira os dígitos.`;
  return PIX_KEY_PROBLEM_TEXT[result.problem];
}
