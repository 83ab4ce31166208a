/**
 * The sandbox's DICT: every well-formed key has a holder, with a name picked deterministically from
 * the key (the same key always answers the same name, so tests and demos can rely on it), except
 * the test key that is "not registered" (it also fails cash-outs, payouts/sandbox.ts).
 */
import { createHash } from "node:crypto";
import type { PixKeyLookup } from "../types";

const FIRST = ["Ana", "Bruno", "Carla", "Daniel", "Eduarda", "Felipe", "Gabriela", "Henrique", "Isabela", "João", "Larissa", "Marcos"];
const LAST = ["Almeida", "Barbosa", "Cardoso", "Dias", "Ferreira", "Gomes", "Lima", "Martins", "Nogueira", "Oliveira", "Pereira", "Souza"];
const BANKS = [
  { institution: "Banco Sandbox Arara", ispb: "99999999" },
  { institution: "Cooperativa Sandbox Ipê", ispb: "99999998" },
];

/** Keys the sandbox's DICT does not know. */
export const SANDBOX_UNREGISTERED_KEYS = new Set(["fa11ed00-0000-4000-8000-000000000000"]);

export const sandboxKeyLookup: PixKeyLookup = {
  async lookupKey({ type, key }) {
    if (SANDBOX_UNREGISTERED_KEYS.has(key)) return null;
    const h = createHash("sha256").update(`${type}:${key}`).digest();
    const bank = BANKS[h[2] % BANKS.length];
    const name = type === "cnpj" ? `${LAST[h[0] % LAST.length]} ${LAST[h[1] % LAST.length]} Comércio Ltda` : `${FIRST[h[0] % FIRST.length]} ${LAST[h[1] % LAST.length]}`;
    return { name, ...bank };
  },
};
