/**
 * The dashboard's webhook buttons ("Reenviar", "Desistir": app/dashboard/webhook-event-form.ts) say
 * the services' refusals in Portuguese (the API keeps its English), and the attempts' reasons are told
 * in Portuguese on the page (components/dashboard/webhooks/attempt-text.ts).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { pixCharge, startReceiver, type Receiver } from "../helpers/webhook-receiver";
import { findAccountById, type CreatedAccount } from "@/lib/services/accounts/accounts";
import type { DashboardContext } from "@/lib/auth/session";
import { attemptErrorText } from "@/components/dashboard/webhooks/attempt-text";

// The forms draw their page again (next/cache), which needs a Next request: not here.
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));
const { redeliverFromForm, skipFromForm } = await import("@/app/dashboard/webhook-event-form");

let acct: CreatedAccount;
let ctx: DashboardContext;
let r: Receiver;
const SUBJECT = { subjectField: "transactionId", pageOf: (id: string) => `/dashboard/transactions/${id}` } as const;

beforeAll(async () => {
  acct = await createTestAccount("Loja Botões de Webhook");
  const account = (await findAccountById(acct.companyId))!;
  ctx = { account, actor: "dashboard:1", requestId: "test", now: new Date() } as unknown as DashboardContext;
  r = await startReceiver(() => ({ status: 200 }));
});

afterAll(async () => {
  await r.close();
});

const form = (fields: Record<string, string | number>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, String(v));
  return f;
};

describe("the dashboard's webhook buttons", () => {
  it("say in Portuguese that an event waits for an earlier one, and that a delivered one cannot be given up", async () => {
    const created = await call("POST", "/api/v1/transactions", { auth: acct.secretKey, body: pixCharge(`${r.url}/order`, 1000) });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id as number;
    expect((await call("PUT", `/api/v1/transactions/${id}/test`, { auth: acct.secretKey, body: { status: "paid" } })).status).toBe(200);
    const events = (await call("GET", `/api/v1/transactions/${id}/webhooks`, { auth: acct.secretKey })).body.data as { id: number }[];
    const [first, second] = events.map((e) => e.id);

    // No dispatcher runs: both are pending, the second behind the first.
    const waiting = await redeliverFromForm(ctx, form({ eventId: second, transactionId: id }), SUBJECT);
    expect(waiting).toEqual({
      status: "error",
      message: `Este evento aguarda o evento #${first}: os eventos são entregues em ordem. Reenvie o evento #${first} ou desista dele primeiro.`,
    });

    const sent = await redeliverFromForm(ctx, form({ eventId: first, transactionId: id }), SUBJECT);
    expect(sent).toEqual({ status: "ok", message: "Reenviado com sucesso (HTTP 200)." });
    const done = await skipFromForm(ctx, form({ eventId: first, transactionId: id }), SUBJECT);
    expect(done).toEqual({ status: "error", message: "Este evento já foi entregue: não há do que desistir." });

    const missing = await redeliverFromForm(ctx, form({ eventId: 999_999_999, transactionId: id }), SUBJECT);
    expect(missing).toEqual({ status: "error", message: "Evento não encontrado nesta conta." });
  });

  it("tell an attempt's reason in Portuguese", () => {
    expect(attemptErrorText("the receiver answered HTTP 500; only 2xx counts as delivered")).toBe(
      "o receptor respondeu HTTP 500; só uma resposta 2xx conta como entregue",
    );
    expect(attemptErrorText("timeout: no complete response within 10000 ms")).toBe("sem resposta completa em 10 s (tempo esgotado)");
    expect(attemptErrorText("refused: loja.test resolves to 10.0.0.5, a private address")).toBe(
      "recusado: loja.test aponta para 10.0.0.5, um endereço privado, local ou reservado, que não recebe webhooks",
    );
    expect(attemptErrorText("ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9")).toBe("conexão recusada: nada atende nesse endereço e porta");
    expect(attemptErrorText("something new")).toBe("falha na entrega (detalhe técnico: something new)");
  });
});
