/**
 * The scripts and the worker read `.env` as the app does (Next loads it for `next start` and `next
 * dev`): an operator who keeps DATABASE_URL and KEY_ENCRYPTION_SECRET there gets the same database and
 * secret in `npm run worker`, `account:create`, `db:migrate`, `db:seed` and `ledger:check`, not the
 * embedded default. Variables already set in the environment win, as they do for the app.
 */
import { existsSync } from "node:fs";
import path from "node:path";

const file = path.resolve(process.cwd(), ".env");
if (existsSync(file)) process.loadEnvFile(file);
