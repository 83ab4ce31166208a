"use server";

import { headers } from "next/headers";
import { clientIp, takeSignupSlot } from "@/lib/auth/throttle";
import { errorState, type ActionState } from "@/lib/auth/action";
import { ensureDatabase } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { createAccount } from "@/lib/services/accounts/accounts";
import { ServiceError } from "@/lib/services/errors";
import { SIGNUP_CLOSED_MESSAGE } from "./closed";
import { readSignupForm } from "./form";

export type SignupKeys = { publicKey: string; secretKey: string };

/**
 * Creates the merchant account with its keys and login. The secret key goes back to the browser this
 * once, to be shown and saved; only its hash is stored. Refused when SIGNUP=closed: the page then has
 * no form, but an action can be called without it.
 */
export async function signUp(formData: FormData): Promise<ActionState<SignupKeys>> {
  if (!getEnv().signupOpen) return { status: "error", message: SIGNUP_CLOSED_MESSAGE };
  const form = readSignupForm(formData);
  if (!form.ok) return { status: "error", message: "Revise os campos destacados.", fieldErrors: form.fieldErrors };
  const input = form.data;
  await ensureDatabase();
  const wait = await takeSignupSlot(clientIp(await headers()));
  if (wait !== null) {
    return { status: "error", message: `Muitas contas criadas a partir desta rede. Tente de novo em ${Math.ceil(wait / 60)} minutos.` };
  }
  try {
    const created = await createAccount({
      name: input.name,
      document: input.document,
      email: input.email,
      city: input.city,
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
