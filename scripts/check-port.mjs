// Run by `npm start` before Next: `next start` binds PORT before any of the app's code runs, so a bad
// PORT would get Next's own error (or, out of range, an unhandled RangeError and exit status 0) instead
// of lib/env.ts's check. The same rule and sentence as lib/env.ts: a whole number from 1 to 65535, in
// digits (Next reads it with parseInt: "1e3" would be port 1); unset or empty is 3000. A bad one exits
// with status 1 and "arara cannot start: ...", so that a supervisor sees the failure. A port another
// process holds (or one this user may not open) is said the same way, instead of Next's stack trace:
// the port is opened and closed again where `next start` will listen: PORT (or 3000) on every
// interface, or what `npm start -- -p 4000 -H 127.0.0.1` gives Next (npm appends those to the start
// script's last command, so they are read from the script's shell, on Linux; elsewhere PORT is).
import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/** `-p`/`--port` and `-H`/`--hostname` given to `next start` through `npm start -- ...`, if any. */
function nextStartArgs() {
  let script = "";
  try {
    script = readFileSync(`/proc/${process.ppid}/cmdline`, "utf8").split("\0").join(" ");
  } catch {
    return {};
  }
  const at = script.indexOf("next start");
  if (at < 0) return {};
  const words = script.slice(at + "next start".length).trim().split(/\s+/).map((w) => w.replace(/^['"]|['"]$/g, ""));
  const out = {};
  for (let i = 0; i < words.length; i++) {
    const [flag, inline] = words[i].split(/=(.*)/s);
    const value = inline ?? words[i + 1];
    if (flag === "-p" || flag === "--port") out.port = value;
    if (flag === "-H" || flag === "--hostname") out.host = value;
  }
  return out;
}

const value = process.env.PORT;
if (value !== undefined && value !== "") {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isInteger(n) || n < 1 || n > 65535) {
    process.stderr.write(`arara cannot start: Invalid configuration: PORT must be a whole number from 1 to 65535, got "${value}".\n`);
    process.exit(1);
  }
}
const given = nextStartArgs();
// A port given to Next that is not a plain number is left for Next to refuse.
const port = given.port !== undefined ? (/^\d{1,5}$/.test(given.port) ? Number(given.port) : null) : value ? Number(value) : 3000;
if (port === null) process.exit(0);
const problem = await new Promise((resolve) => {
  const server = createServer();
  server.once("error", (err) => resolve(err));
  server.listen({ port, ...(given.host ? { host: given.host } : {}), exclusive: true }, () => server.close(() => resolve(null)));
});
if (problem) {
  const why =
    problem.code === "EADDRINUSE"
      ? `port ${port} is in use by another process (another Arara or another server): stop it, or set PORT to a free port.`
      : problem.code === "EACCES"
        ? `this user may not open port ${port} (ports below 1024 need privileges): set PORT to a port from 1024 up, or put a reverse proxy in front.`
        : problem.code === "EADDRNOTAVAIL" || problem.code === "ENOTFOUND"
          ? `${given.host} is not an address of this machine (npm start -- -H ${given.host}).`
          : `port ${port} cannot be opened (${problem.code ?? problem.message}).`;
  process.stderr.write(`arara cannot start: ${why}\n`);
  process.exit(1);
}
