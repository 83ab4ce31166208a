import type { Resolver } from "@/lib/webhooks/ssrf";

/** A resolver answering from a table (host → addresses), ENOTFOUND for any other name: DNS without the network. */
export const fakeDns =
  (table: Record<string, string[]>): Resolver =>
  async (host) => {
    const found = table[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return found.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
