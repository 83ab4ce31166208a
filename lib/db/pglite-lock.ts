/**
 * One process per embedded database directory. PGlite (PostgreSQL compiled to WebAssembly, inside the
 * process) takes no lock of its own: two processes on one directory each run a PostgreSQL over the
 * same files, hand out the same ids and overwrite each other's pages, and charges already answered
 * 201 are lost at the next start. So the directory is locked by a file beside it (`<dir>.lock`),
 * created exclusively (O_EXCL) with the owner's pid and host, and removed when the database closes.
 *
 * A lock left by a process that is gone (a crash, kill -9, a container restarted: its pid may even be
 * ours again) is taken over. A lock held by a live process refuses with a sentence naming it: stop
 * that process, or use PostgreSQL (DATABASE_URL) to run more than one. A lock written on another host
 * (a directory on a network disk) cannot be checked from here and refuses too.
 */
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";

type Owner = { pid: number; host: string; since: string };

export class PgliteDirectoryInUse extends Error {
  constructor(dir: string, lockFile: string, owner: Owner | null) {
    const who = owner
      ? owner.host === hostname()
        ? `process ${owner.pid} (running since ${owner.since})`
        : `process ${owner.pid} on host ${owner.host} (since ${owner.since})`
      : "another process";
    super(
      `The embedded database in ${dir} is in use by ${who}. One process per directory: two would corrupt it. ` +
        `Stop that process first (npm start, npm run dev, the worker or a script on the same PGLITE_DIR), or use PostgreSQL ` +
        `(DATABASE_URL) to run several. If no such process runs, delete ${lockFile}.`,
    );
    this.name = "PgliteDirectoryInUse";
  }
}

function readOwner(lockFile: string): Owner | null {
  try {
    const owner = JSON.parse(readFileSync(lockFile, "utf8")) as Partial<Owner>;
    return Number.isSafeInteger(owner.pid) && typeof owner.host === "string" ? { pid: owner.pid!, host: owner.host, since: String(owner.since ?? "?") } : null;
  } catch {
    return null;
  }
}

/** Whether the lock's owner is gone: same host, and its pid is ours (an earlier life) or no process's. */
function isStale(owner: Owner | null): boolean {
  if (!owner || owner.host !== hostname()) return false;
  if (owner.pid === process.pid) return true;
  try {
    process.kill(owner.pid, 0);
    return false; // alive (ours to signal)
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ESRCH"; // EPERM: alive, another user's
  }
}

/** The directory's folders could not be made, or its lock file written there: said with PGLITE_DIR. */
export class PgliteDirectoryUnusable extends Error {
  constructor(dir: string, cause: unknown) {
    super(
      `The embedded database's directory ${dir} (PGLITE_DIR) cannot be used: ${(cause as Error).message}. ` +
        `Set PGLITE_DIR to a directory this user can create and write, or use PostgreSQL (DATABASE_URL).`,
    );
    this.name = "PgliteDirectoryUnusable";
  }
}

function create(lockFile: string, dir: string): boolean {
  let fd: number;
  try {
    fd = openSync(lockFile, "wx", 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw new PgliteDirectoryUnusable(dir, e);
  }
  try {
    writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() } satisfies Owner));
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Locks `dir` (an absolute path) for this process, or throws PgliteDirectoryInUse. Returns the release,
 * which removes the lock if it is still this process's (also run at the process's exit).
 */
export function lockPgliteDirectory(dir: string): () => void {
  const lockFile = `${dir}.lock`;
  // The lock sits beside the directory: its parent is made first (a fresh checkout has no .data yet).
  try {
    mkdirSync(path.dirname(dir), { recursive: true });
  } catch (e) {
    throw new PgliteDirectoryUnusable(dir, e);
  }
  if (!create(lockFile, dir)) {
    const owner = readOwner(lockFile);
    if (!isStale(owner)) throw new PgliteDirectoryInUse(dir, lockFile, owner);
    try {
      unlinkSync(lockFile);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    }
    // Two processes taking over the same stale lock at once: O_EXCL lets one of them create it.
    if (!create(lockFile, dir)) throw new PgliteDirectoryInUse(dir, lockFile, readOwner(lockFile));
  }
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    process.removeListener("exit", release);
    if (readOwner(lockFile)?.pid !== process.pid) return;
    try {
      unlinkSync(lockFile);
    } catch {
      // gone already
    }
  };
  process.on("exit", release);
  return release;
}
