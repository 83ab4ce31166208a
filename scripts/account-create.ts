import "./env-file";
import { parseArgs } from "node:util";
import { closeDb, databaseDescription, ensureDatabase } from "@/lib/db/client";
import { createAccount } from "@/lib/services/accounts/accounts";
import { ServiceError } from "@/lib/services/errors";

const USAGE =
  'Usage: npm run account:create -- --name "Loja" --document <cpf|cnpj> --email a@b.c [--password <pw>] [--pix-key <key>] [--city <city>] [--json]\n' +
  "  --pix-key: a CPF, CNPJ, e-mail, random key (EVP) or mobile phone written with +55 (+55 11 98765-4321);\n" +
  "  a CPF or CNPJ with wrong check digits is refused. Default: the account's document.\n" +
  '  --city: the city every PIX code of the account prints (letters, up to 60 characters, as "Curitiba"; the code prints the first 15, without accents);\n' +
  '  default: "SAO PAULO", left for the merchant to confirm in the dashboard\'s settings.';

async function main() {
  const { values } = parseArgs({
    options: {
      name: { type: "string" },
      document: { type: "string" },
      email: { type: "string" },
      password: { type: "string" },
      "pix-key": { type: "string" },
      city: { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  if (!values.name || !values.document || !values.email) {
    console.error(USAGE);
    process.exit(2);
  }
  // Migrated and its key-encryption secret checked (lib/db/key-check.ts): the account's secrets are encrypted under it.
  await ensureDatabase();
  const created = await createAccount({
    name: values.name,
    document: values.document,
    email: values.email,
    password: values.password,
    pixKey: values["pix-key"],
    city: values.city,
  });
  if (values.json) {
    console.error(`Account ${created.companyId} created in ${databaseDescription()}.`);
    console.log(JSON.stringify(created));
  } else {
    console.log(`Account ${created.companyId} created in ${databaseDescription()}.`);
    console.log(`Public key:     ${created.publicKey}`);
    console.log(`Secret key:     ${created.secretKey}   (shown once: store it now)`);
    console.log(`Webhook secret: ${created.webhookSecret}`);
  }
  if (!values.password) {
    console.error("No dashboard login was created (no --password): the account works through its API keys only.");
  }
  await closeDb();
}

main().catch(async (e) => {
  if (e instanceof ServiceError) {
    console.error(`${e.message}${e.errors ? " " + e.errors.map((x) => `${x.field} ${x.message}`).join("; ") : ""}`);
  } else {
    console.error(e instanceof Error ? e.message : e);
  }
  await closeDb().catch(() => {});
  process.exit(1);
});
