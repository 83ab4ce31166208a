"use server";

import { headers } from "next/headers";
import { z } from "zod";
import { clientIp, takeSignupSlot } from "@/lib/auth/throttle";
import { errorState, type ActionState } from "@/lib/auth/action";
import { ensureDatabase } from "@/lib/db/client";
import { detectDocumentType, isValidDocument, normalizeDocument } from "@/lib/domain/documents";
import { validatePixKey } from "@/lib/domain/pix/keys";
import { createAccount } from "@/lib/services/accounts";
import { ServiceError } from "@/lib/services/errors";

export type SignupKeys = { publicKey: string; secretKey: string };

const SignupForm = z.object({
  name: z.string().trim().min(2, "Informe o nome da empresa (pelo menos 2 letras).").max(120, "Use no máximo 120 caracteres."),
  document: z
    .string()
    .trim()
    .refine((d) => {
      const n = normalizeDocument(d);
      const type = detectDocumentType(n);
      return type !== null && isValidDocument(type, n);
    }, "Informe um CPF ou CNPJ válido."),
  email: z.string().trim().toLowerCase().pipe(z.email("Informe um e-mail válido.")),
  password: z.string().min(8, "A senha precisa de pelo menos 8 caracteres.").max(200, "Use no máximo 200 caracteres."),
  passwordConfirmation: z.string(),
  pixKey: z
    .string()
    .trim()
    .refine((k) => k === "" || validatePixKey(k).ok, "Chave PIX inválida: use CPF, CNPJ, e-mail, telefone (+55) ou chave aleatória."),
});

/**
 * Creates the merchant account with its keys and login. The secret key goes back to the browser this
 * once, to be shown and saved; only its hash is stored.
 */
export async function signUp(formData: FormData): Promise<ActionState<SignupKeys>> {
  const parsed = SignupForm.safeParse(Object.fromEntries(formData));
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const i of parsed.error.issues) fieldErrors[String(i.path[0])] ??= i.message;
    return { status: "error", message: "Revise os campos destacados.", fieldErrors };
  }
  const input = parsed.data;
  if (input.password !== input.passwordConfirmation) {
    return { status: "error", message: "Revise os campos destacados.", fieldErrors: { passwordConfirmation: "As senhas não conferem." } };
  }
  const wait = await takeSignupSlot(clientIp(await headers()));
  if (wait !== null) {
    return { status: "error", message: `Muitas contas criadas a partir desta rede. Tente de novo em ${Math.ceil(wait / 60)} minutos.` };
  }
  try {
    await ensureDatabase();
    const created = await createAccount({
      name: input.name,
      document: input.document,
      email: input.email,
      password: input.password,
      pixKey: input.pixKey || undefined,
    });
    return { status: "ok", data: { publicKey: created.publicKey, secretKey: created.secretKey } };
  } catch (err) {
    if (err instanceof ServiceError && err.code === "conflict") {
      return { status: "error", message: "Já existe uma conta com este e-mail.", fieldErrors: { email: "Este e-mail já está cadastrado. Entre ou use outro." } };
    }
    return errorState(err);
  }
}
