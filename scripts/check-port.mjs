// Run by `npm start` before Next: `next start` binds PORT before any of the app's code runs, so a bad
// PORT would get Next's own error (or, out of range, an unhandled RangeError and exit status 0) instead
// of lib/env.ts's check. The same rule and sentence as lib/env.ts: a whole number from 1 to 65535, in
// digits (Next reads it with parseInt: "1e3" would be port 1); unset or empty is 3000. A bad one exits
// with status 1 and "arara cannot start: ...", so that a supervisor sees the failure. A port another
// process holds (or one this user may not open) is said the same way, instead of Next's stack trace:
// the port is opened and closed again on all interfaces, where `next start` listens.
import { createServer } from "node:net";

const value = process.env.PORT;
if (value !== undefined && value !== "") {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isInteger(n) || n < 1 || n > 65535) {
    process.stderr.write(`arara cannot start: Invalid configuration: PORT must be a whole number from 1 to 65535, got "${value}".\n`);
    process.exit(1);
  }
}
const port = value ? Number(value) : 3000;
const problem = await new Promise((resolve) => {
  const server = createServer();
  server.once("error", (err) => resolve(err));
  server.listen({ port, exclusive: true }, () => server.close(() => resolve(null)));
});
if (problem) {
  const why =
    problem.code === "EADDRINUSE"
      ? `port ${port} is in use by another process (another Arara or another server): stop it, or set PORT to a free port.`
      : problem.code === "EACCES"
        ? `this user may not open port ${port} (ports below 1024 need privileges): set PORT to a port from 1024 up, or put a reverse proxy in front.`
        : `port ${port} cannot be opened (${problem.code ?? problem.message}).`;
  process.stderr.write(`arara cannot start: ${why}\n`);
  process.exit(1);
}
