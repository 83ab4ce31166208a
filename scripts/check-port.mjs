// Run by `npm start` before Next: `next start` binds PORT before any of the app's code runs, so a bad
// PORT would get Next's own error (or, out of range, an unhandled RangeError and exit status 0) instead
// of lib/env.ts's check. The same rule and sentence as lib/env.ts: a whole number from 1 to 65535, in
// digits (Next reads it with parseInt: "1e3" would be port 1); unset or empty is 3000. A bad one exits
// with status 1 and "arara cannot start: ...", so that a supervisor sees the failure.
const value = process.env.PORT;
if (value !== undefined && value !== "") {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isInteger(n) || n < 1 || n > 65535) {
    process.stderr.write(`arara cannot start: Invalid configuration: PORT must be a whole number from 1 to 65535, got "${value}".\n`);
    process.exit(1);
  }
}
