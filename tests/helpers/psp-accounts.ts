import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { getDb } from "@/lib/db/client";
import { companies } from "@/lib/db/schema";
import { savePspSettings } from "@/lib/services/psp/api-pix-settings";
import { systemContext } from "@/lib/services/context";
import { localPspSettings, type ApiPixPsp, type TestPki } from "./api-pix-psp";
import { createTestAccount } from "./accounts";

/** A new account that receives PIX through the local PSP (its webhook registered there), with `key` as its PIX key. */
export async function pspConfiguredAccount(name: string, psp: ApiPixPsp, pki: TestPki, key: string) {
  const acc = await createTestAccount(name);
  const [row] = await getDb().select().from(companies).where(eq(companies.id, acc.companyId));
  const saved = await savePspSettings(systemContext(row), localPspSettings(psp, pki, key));
  expect(saved.webhook).toEqual({ registered: true });
  return acc;
}
