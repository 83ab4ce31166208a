"use client";

/**
 * The server's time in the payer's browser. A phone's clock can be off by minutes or days (set by
 * hand, a dead battery), so deadlines are counted from the server's time: the page hands in the
 * server's "now" when it was rendered, and each status answer's Date header corrects it (a page
 * restored from history was rendered long ago). What is kept is the difference to the phone's
 * clock; the time that passes is counted by the phone, which is right about durations.
 */
let offset: number | null = null;
let fromHeader = false;

/** The page's render time, at mount: used until a server answer gives a fresher one. */
export function noteRenderTime(serverNow: number): void {
  if (fromHeader) return;
  offset = serverNow - Date.now();
}

/** A server answer's Date header (whole seconds: the middle of that second is the best guess). */
export function noteServerDate(header: string | null): void {
  const ms = header ? Date.parse(header) : NaN;
  if (!Number.isFinite(ms)) return;
  offset = ms + 500 - Date.now();
  fromHeader = true;
}

/** The server's time now, as well as it is known (the phone's own clock before anything is). */
export function serverNow(): number {
  return Date.now() + (offset ?? 0);
}
