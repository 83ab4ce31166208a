/**
 * scripts/check-port.mjs, run by `npm start` before Next: Next binds PORT before any of the app's code
 * runs, so lib/env.ts's check came too late (PORT=99999 gave an unhandled RangeError and exit status 0).
 * A bad PORT stops the start with the configuration's sentence and status 1; lib/env.ts agrees.
 */
import { spawnSync } from "node:child_process";
import { createServer, type Server } from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";

const SCRIPT = path.resolve(__dirname, "../../scripts/check-port.mjs");

function check(port: string | undefined) {
  const env = { ...process.env };
  if (port === undefined) delete env.PORT;
  else env.PORT = port;
  const r = spawnSync(process.execPath, [SCRIPT], { env, encoding: "utf8", timeout: 20_000 });
  return { code: r.status, stderr: r.stderr };
}

describe("npm start's PORT check", () => {
  it.each(["99999", "abc", "0", "-1", "1e3", " 80", "3000.5"])("refuses PORT=%j with a sentence and exit 1, as lib/env.ts does", (port) => {
    expect(check(port)).toEqual({
      code: 1,
      stderr: `arara cannot start: Invalid configuration: PORT must be a whole number from 1 to 65535, got "${port}".\n`,
    });
    expect(() => parseEnv({ PORT: port })).toThrow(`Invalid configuration: PORT must be a whole number from 1 to 65535, got "${port}".`);
  });

  it.each(["", "1", "3000", "65535"])("takes PORT=%j as lib/env.ts does", (port) => {
    expect(() => parseEnv({ PORT: port })).not.toThrow();
  });

  it("lets a free port through, silently, and says a taken one is in use, with exit 1", async () => {
    const held: Server = createServer();
    await new Promise<void>((resolve) => held.listen({ port: 0 }, resolve));
    const port = (held.address() as { port: number }).port;
    try {
      expect(check(String(port))).toEqual({
        code: 1,
        stderr: `arara cannot start: port ${port} is in use by another process (another Arara or another server): stop it, or set PORT to a free port.\n`,
      });
    } finally {
      await new Promise((resolve) => held.close(resolve));
    }
    expect(check(String(port))).toEqual({ code: 0, stderr: "" });
  });
});
