/**
 * SIGNUP=closed (the default in production): the sign-up action refuses on the server, whatever the
 * page shows (a server action can be called without its form), and creates nothing. The pages are
 * checked on the running app in signup-and-demo-process.test.ts.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db/client";
import { users } from "@/lib/db/schema";

vi.mock("@/lib/env", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/env")>();
  return { ...real, getEnv: () => ({ ...real.getEnv(), signupOpen: false }) };
});

describe("sign-up closed", () => {
  it("the action answers in Portuguese that the operator creates accounts, and creates none", async () => {
    const { signUp } = await import("@/app/(auth)/signup/actions");
    const { SIGNUP_CLOSED_MESSAGE } = await import("@/app/(auth)/signup/closed");
    const form = new FormData();
    for (const [k, v] of Object.entries({
      name: "Loja Fechada",
      document: "11144477735",
      city: "Curitiba",
      email: "fechada@example.com",
      password: "senha-forte-123",
      passwordConfirmation: "senha-forte-123",
      pixKey: "",
    })) {
      form.set(k, v);
    }
    expect(await signUp(form)).toEqual({ status: "error", message: SIGNUP_CLOSED_MESSAGE });
    expect(SIGNUP_CLOSED_MESSAGE).toContain("npm run account:create");
    expect(SIGNUP_CLOSED_MESSAGE).toMatch(/novas contas são criadas pelo operador/);
    const made = await getDb().select({ id: users.id }).from(users).where(sql`lower(${users.email}) = 'fechada@example.com'`);
    expect(made).toEqual([]);
  });
});
