import { randomInt } from "node:crypto";
import { createAccount, type CreatedAccount } from "@/lib/services/accounts/accounts";

/** A valid CPF with random base digits (check digits computed as Receita Federal does). */
export function randomCpf(): string {
  const d = Array.from({ length: 9 }, () => randomInt(10));
  if (d.every((x) => x === d[0])) d[0] = (d[0] + 1) % 10;
  const dv = (ds: number[]) => {
    const w = ds.length + 1;
    const r = ds.reduce((s, x, i) => s + x * (w - i), 0) % 11;
    return r < 2 ? 0 : 11 - r;
  };
  d.push(dv(d));
  d.push(dv(d));
  return d.join("");
}

let n = 0;
export async function createTestAccount(name = "Loja Teste"): Promise<CreatedAccount> {
  n += 1;
  return createAccount({
    name: `${name} ${n}`,
    document: randomCpf(),
    email: `merchant${n}.${Date.now()}.${randomInt(1e6)}@example.com`,
  });
}
