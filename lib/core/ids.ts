import { notFound } from "./errors";

/** A resource id from a path or a body: a number, or 1 to 15 digits (anything else names no row). */
export function parseId(raw: number | string): number | null {
  const id = typeof raw === "number" ? raw : /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  return Number.isSafeInteger(id) ? id : null;
}

/** The id, or the 404 of `what` (an id that cannot exist is a resource that does not). */
export function idOrNotFound(raw: number | string, what: string): number {
  const id = parseId(raw);
  if (id === null) throw notFound(what);
  return id;
}
