/**
 * Runs `once` until it finds nothing left to do or `limit` runs have done something: the loop of every
 * job that takes due rows one at a time (each run claims one row in its own transaction). Returns how
 * many runs did something.
 */
export async function drain(limit: number, once: () => Promise<boolean>): Promise<number> {
  let done = 0;
  while (done < limit && (await once())) done += 1;
  return done;
}
