"use server";

import { revalidatePath } from "next/cache";
import { dashboardAction, type ActionState } from "@/lib/auth/action";
import { savePspSettings, testPspConnection, type ConnectionTest } from "@/lib/services/psp/api-pix-settings";
import { ServiceError } from "@/lib/services/errors";

const MAX_FILE = 64 * 1024;

async function fileBytes(formData: FormData, name: string): Promise<Uint8Array | null> {
  const f = formData.get(name);
  if (!f || typeof f === "string" || f.size === 0) return null;
  if (f.size > MAX_FILE) throw new ServiceError("validation_error", "Arquivo grande demais.", [{ field: name, message: "O arquivo deve ter no máximo 64 KB." }]);
  return new Uint8Array(await f.arrayBuffer());
}

/** Saves the PIX receiving settings; secrets are encrypted by the service and never sent back. */
export async function savePspSettingsAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  return dashboardAction(async (ctx) => {
    const text = (n: string) => String(formData.get(n) ?? "");
    try {
      const result = await savePspSettings(ctx, {
        processor: text("processor"),
        baseUrl: text("baseUrl"),
        tokenUrl: text("tokenUrl"),
        clientId: text("clientId"),
        clientAuth: text("clientAuth"),
        clientSecret: text("clientSecret"),
        noClientSecret: formData.get("noClientSecret") === "on",
        scopeMode: text("scopeMode"),
        scope: text("scope"),
        certificate: await fileBytes(formData, "certificate"),
        privateKey: await fileBytes(formData, "privateKey"),
        certificatePassword: text("certificatePassword"),
        caCertificate: await fileBytes(formData, "caCertificate"),
        pixKey: text("pixKey"),
        payoutEfi: formData.get("payoutEfi") === "on",
        payoutPayerKey: text("payoutPayerKey"),
      });
      revalidatePath("/dashboard/settings/pix");
      if (result.webhook && !result.webhook.registered) {
        return { status: "error", message: `Configuração salva, mas o webhook não foi registrado no PSP: ${result.webhook.message}` };
      }
      return {
        status: "ok",
        message: result.view.processor === "api-pix" ? "Configuração salva e webhook registrado no PSP. Novas cobranças PIX usarão o PSP." : "Configuração salva. Novas cobranças PIX usarão o sandbox.",
      };
    } catch (err) {
      if (err instanceof ServiceError && err.code === "validation_error" && err.errors?.length) {
        return { status: "error", message: err.errors.length === 1 ? err.errors[0].message : "Revise os campos destacados.", fieldErrors: Object.fromEntries(err.errors.map((e) => [e.field, e.message])) };
      }
      throw err;
    }
  });
}

/** "Testar conexão": a fresh token and a read of the webhook registration, with a readable error. */
export async function testPspConnectionAction(): Promise<ActionState<ConnectionTest>> {
  return dashboardAction(async (ctx) => {
    const r = await testPspConnection(ctx);
    if (!r.ok) return { status: "error", message: r.message };
    const webhook = r.webhookUrl === null ? "nenhum webhook registrado para a chave" : r.webhookMatches ? "webhook registrado para esta conta" : `o webhook registrado aponta para outra URL (${r.webhookUrl})`;
    return { status: "ok", message: `Conexão com o PSP funcionando: token obtido; ${webhook}.`, data: r };
  });
}
