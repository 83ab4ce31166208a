import { Writable } from "node:stream";
import { createLogger, setLogger } from "@/lib/logger";

/**
 * The app's log lines from now on, as JSON text, until `restore()` (the app's own logger, redaction
 * included, writing to memory instead of stdout).
 */
export function captureLogLines(level = "info"): { lines: string[]; restore: () => void } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  setLogger(createLogger({ level, destination: sink }));
  return { lines, restore: () => setLogger(null) };
}
