import { z } from "zod";
import { detectDocumentType, isValidDocument, normalizeDocument } from "@/lib/domain/documents";
import { checkPixKeyInput, pixKeyErrorText } from "@/components/dashboard/pix-key-input";
import { merchantCityProblem } from "@/lib/services/accounts/accounts";

export const SignupForm = z.object({
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
  // Printed in every PIX code of the account (BR Code field 60): the same rule as the account service.
  city: z
    .string({ error: "Informe a cidade que aparece no PIX." })
    .trim()
    .transform((c) => c.replace(/\s+/g, " "))
    .superRefine((c, ctx) => {
      const problem = merchantCityProblem(c);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
  password: z.string().min(8, "A senha precisa de pelo menos 8 caracteres.").max(200, "Use no máximo 200 caracteres."),
  passwordConfirmation: z.string(),
  // The same parser as every entry point: a mistyped CPF is refused, not stored as a phone key.
  pixKey: z
    .string()
    .trim()
    .superRefine((k, ctx) => {
      const problem = pixKeyErrorText(checkPixKeyInput(k, ""));
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
});

export type SignupInput = z.output<typeof SignupForm>;

/** The sign-up form's fields checked, with one message per field in Portuguese. */
export function readSignupForm(formData: FormData): { ok: true; data: SignupInput } | { ok: false; fieldErrors: Record<string, string> } {
  const parsed = SignupForm.safeParse(Object.fromEntries(formData));
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const i of parsed.error.issues) fieldErrors[String(i.path[0])] ??= i.message;
    return { ok: false, fieldErrors };
  }
  if (parsed.data.password !== parsed.data.passwordConfirmation) {
    return { ok: false, fieldErrors: { passwordConfirmation: "As senhas não conferem." } };
  }
  return { ok: true, data: parsed.data };
}
