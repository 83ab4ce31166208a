/**
 * The README's examples work when pasted, and when pasted again: this test takes the shell blocks the
 * README marks (`<!-- readme-test: receiver -->`, `<!-- readme-test: run -->`), starts the built app on a
 * fresh database and the README's own webhook receiver, and runs the blocks twice with bash, in one
 * shell per pass like a reader's terminal. Each curl's HTTP status must be the one its comment promises
 * (`(expect: 201)`, in order), and the receiver must print the `paid` webhook of each pass's PIX charge.
 *
 * Only the hosts change: `localhost:3000` becomes the test app and port 4000 the test receiver's port.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServerDatabase, freePort, startApp, type AppProcess, type TestDatabase } from "../helpers/server";

const README = readFileSync(path.resolve(__dirname, "../../README.md"), "utf8");

type Block = { kind: "receiver" | "run"; code: string };

/** The marked ```bash blocks, in order. */
function markedBlocks(markdown: string): Block[] {
  const re = /<!-- readme-test: (receiver|run) -->\s*\n```bash\n([\s\S]*?)\n```/g;
  return [...markdown.matchAll(re)].map((m) => ({ kind: m[1] as Block["kind"], code: m[2] }));
}

/** The statuses promised in a block's comments, in order: `(expect: 200)`. */
function expectedStatuses(code: string): number[] {
  return [...code.matchAll(/\(expect: (\d{3})\)/g)].map((m) => Number(m[1]));
}

let app: AppProcess;
let database: TestDatabase;
let receiver: ChildProcess;
let received = "";
let receiverPort: number;
const blocks = markedBlocks(README);

function localise(code: string): string {
  return code.replaceAll("localhost:3000", `127.0.0.1:${app.port}`).replaceAll("localhost:4000", `127.0.0.1:${receiverPort}`);
}

beforeAll(async () => {
  database = await createServerDatabase();
  // The README's demo merchant (on PostgreSQL it is only created when asked for).
  app = await startApp({ env: { ...database.env, DEMO_MERCHANT: "true" } });
  receiverPort = await freePort();
  const [receiverBlock] = blocks.filter((b) => b.kind === "receiver");
  const code = receiverBlock.code.replace(".listen(4000", `.listen(${receiverPort}`);
  expect(code, "the receiver listens on the README's port 4000").not.toBe(receiverBlock.code);
  receiver = spawn("bash", ["-c", code], { stdio: ["ignore", "pipe", "pipe"] });
  receiver.stdout!.on("data", (d) => (received += d.toString()));
  receiver.stderr!.on("data", (d) => (received += d.toString()));
  const deadline = Date.now() + 15_000;
  while (!received.includes("webhook receiver on")) {
    if (Date.now() > deadline) throw new Error(`the README's receiver did not start:\n${received}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}, 120_000);

afterAll(async () => {
  receiver?.kill("SIGTERM");
  await app?.stop();
  await database?.drop();
});

/** Runs the README's run blocks in one bash, as pasted one after the other; returns statuses and the PIX id. */
async function pasteAll(): Promise<{ statuses: number[]; tx: number; output: string }> {
  // A curl that also reports its HTTP status on stderr, where the test reads it; what the reader sees is unchanged.
  const prelude = `curl() { command curl -w '%{stderr}README-STATUS %{http_code}\\n' "$@"; }\n`;
  const script = prelude + blocks.filter((b) => b.kind === "run").map((b) => localise(b.code)).join("\n") + `\necho "README-TX $TX"\n`;
  const child = spawn("bash", ["-c", script], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (d) => (output += d.toString()));
  child.stderr!.on("data", (d) => (output += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
  expect(code, output).toBe(0);
  const statuses = [...output.matchAll(/README-STATUS (\d{3})/g)].map((m) => Number(m[1]));
  const tx = Number(/README-TX (\d+)/.exec(output)?.[1]);
  return { statuses, tx, output };
}

/** Notification bodies the receiver printed (one JSON document per line). */
function notifications(): any[] {
  return received
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l));
}

describe("README examples, pasted twice into a fresh app", () => {
  it("marks the receiver and the runnable blocks, each curl with the status it should get", () => {
    expect(blocks.filter((b) => b.kind === "receiver")).toHaveLength(1);
    expect(blocks.filter((b) => b.kind === "run").length).toBeGreaterThanOrEqual(2);
    for (const b of blocks.filter((x) => x.kind === "run")) {
      const curls = (b.code.match(/^\s*(?:[A-Z]+=\$\()?curl /gm) ?? []).length;
      expect(expectedStatuses(b.code), b.code.slice(0, 200)).toHaveLength(curls);
    }
  });

  it("the README never hard-codes an id or an idempotency key", () => {
    for (const b of blocks.filter((x) => x.kind === "run")) {
      expect(b.code).not.toMatch(/transactions\/\d+/);
      expect(b.code).not.toMatch(/cashOut\/\d+/);
      expect(b.code).not.toMatch(/Idempotency-Key: [\w-]+'/);
    }
  });

  for (const pass of [1, 2]) {
    it(`pass ${pass}: every step answers as promised and the receiver gets the paid webhook`, async () => {
      const expected = blocks.filter((b) => b.kind === "run").flatMap((b) => expectedStatuses(b.code));
      const { statuses, tx, output } = await pasteAll();
      expect(statuses, output).toEqual(expected);
      expect(Number.isSafeInteger(tx) && tx > 0, output).toBe(true);

      const deadline = Date.now() + 15_000;
      const kinds = () => notifications().filter((n) => n.type === "transaction" && n.data?.id === tx).map((n) => n.data.status);
      while (!kinds().includes("paid") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      expect(kinds(), received).toEqual(["pending", "paid"]);
    }, 120_000);
  }
});
