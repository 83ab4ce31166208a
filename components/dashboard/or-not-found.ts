import { notFound } from "next/navigation";
import { ServiceError } from "@/lib/services/errors";

/** What a detail page reads, or the 404 page when it does not exist (or is another account's). */
export async function orNotFound<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof ServiceError && err.code === "not_found") notFound();
    throw err;
  }
}
