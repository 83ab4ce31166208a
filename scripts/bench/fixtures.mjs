// The demo merchant's keys and the request bodies the benchmark sends, shared by its scenarios.
import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./lib.mjs";

const demoSrc = readFileSync(path.join(ROOT, "lib/services/accounts/demo-merchant.ts"), "utf8");
export const DEMO = {
  publicKey: /publicKey:\s*"([^"]+)"/.exec(demoSrc)[1],
  secretKey: /secretKey:\s*"([^"]+)"/.exec(demoSrc)[1],
};
export const AUTH = `Basic ${Buffer.from(`${DEMO.secretKey}:`).toString("base64")}`;

export const customer = { name: "Bench Silva", email: "bench@example.com", document: { type: "cpf", number: "11144477735" } };
export const pixBody = (postbackUrl) => ({
  paymentMethod: "pix",
  amount: 1000,
  customer,
  items: [{ title: "Bench", unitPrice: 1000, quantity: 1, tangible: false }],
  ...(postbackUrl ? { postbackUrl } : {}),
});
export const card = { number: "4111111111111111", holderName: "BENCH SILVA", expirationMonth: "12", expirationYear: "2034", cvv: "123" };

export function log(...a) {
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}]`, ...a);
}
