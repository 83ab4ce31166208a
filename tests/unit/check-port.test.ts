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

  it.runIf(process.platform === "linux")("checks the port given to next start through npm start -- -p, not PORT", async () => {
    const held: Server = createServer();
    await new Promise<void>((resolve) => held.listen({ port: 0 }, resolve));
    const busy = (held.address() as { port: number }).port;
    // As npm runs the start script with the arguments appended: `sh -c "node check-port.mjs && exec ... next start -p N"`.
    const viaNpm = (args: string) => {
      const r = spawnSync("sh", ["-c", `"${process.execPath}" "${SCRIPT}" && exec true next start ${args}`], { env: { ...process.env, PORT: String(busy) }, encoding: "utf8", timeout: 20_000 });
      return { code: r.status, stderr: r.stderr };
    };
    try {
      expect(viaNpm(`-p ${busy}`)).toMatchObject({ code: 1, stderr: expect.stringContaining(`port ${busy} is in use`) });
      expect(viaNpm(`--port=${busy}`).code).toBe(1);
      // PORT names the busy port, but Next is told another: that one is checked, and it is free.
      const probe: Server = createServer();
      await new Promise<void>((resolve) => probe.listen({ port: 0 }, resolve));
      const free = (probe.address() as { port: number }).port;
      await new Promise((resolve) => probe.close(resolve));
      expect(viaNpm(`-p ${free} -H 127.0.0.1`)).toEqual({ code: 0, stderr: "" });
    } finally {
      await new Promise((resolve) => held.close(resolve));
    }
  });
});
