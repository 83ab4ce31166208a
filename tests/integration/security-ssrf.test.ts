/**
 * SSRF through postbackUrl, with private URLs disallowed (the production setting): every address
 * that reaches this machine, its network or the cloud metadata service is refused with a 400 on the
 * field, on every endpoint that takes a postbackUrl, and nothing is written.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { expectWellFormed } from "../helpers/fuzz";
import { paidPix, pixBody, rowCounts } from "../helpers/flows";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";

// Read when the app first parses its configuration (after this module is evaluated).
process.env.WEBHOOK_ALLOW_PRIVATE_URLS = "false";

const PRIVATE_URLS = [
  "http://127.0.0.1/hook",
  "http://127.1.2.3:8080/hook",
  "http://localhost/hook",
  "http://LOCALHOST./hook",
  "http://api.localhost/hook",
  "http://10.0.0.5/hook",
  "http://172.16.0.1/hook",
  "http://172.31.255.254/hook",
  "http://192.168.1.1/hook",
  "http://169.254.169.254/latest/meta-data/",
  "http://[::1]/hook",
  "http://[::]/hook",
  "http://0.0.0.0/hook",
  "http://0/hook",
  "http://2130706433/hook", // 127.0.0.1 as one decimal number
  "http://0x7f000001/hook", // ... in hex
  "http://017700000001/hook", // ... in octal
  "http://127.000.000.001/hook",
  "http://[::ffff:127.0.0.1]/hook", // IPv4-mapped IPv6
  "http://[::ffff:7f00:1]/hook",
  "http://[::ffff:169.254.169.254]/hook",
  "http://[64:ff9b::a00:1]/hook", // NAT64 of 10.0.0.1
  "http://[fe80::1]/hook",
  "http://[fc00::1]/hook",
  "http://100.64.0.1/hook",
  "http://metadata/computeMetadata/v1/", // a bare name: only ever local
  "http://metadata.google.internal/computeMetadata/v1/",
  "https://user:pass@example.com/hook", // credentials in the URL
  "ftp://example.com/hook",
  "file:///etc/passwd",
  "gopher://127.0.0.1:6379/_INFO",
];

/**
 * This sandbox has no DNS resolver, and /etc/hosts maps only dotless names (caught by the name rule
 * before any lookup). So the answers for two test names are supplied here, at the OS resolver's
 * boundary; every other name goes to the real lookup, and the guard under test is the real one.
 */
const FAKE_DNS: Record<string, { address: string; family: number }[]> = {
  "loopback.arara-test.com": [{ address: "127.0.0.1", family: 4 }],
  "mixed.arara-test.com": [
    { address: "93.184.215.14", family: 4 },
    { address: "10.1.2.3", family: 4 },
  ],
  "mapped.arara-test.com": [{ address: "::ffff:169.254.169.254", family: 6 }],
};
vi.mock("node:dns/promises", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:dns/promises")>();
  const lookup = (async (host: string, opts?: unknown) => {
    const fake = FAKE_DNS[host.toLowerCase().replace(/\.$/, "")];
    if (fake) return (opts as { all?: boolean } | undefined)?.all ? fake : fake[0];
    return (real.lookup as (h: string, o?: unknown) => Promise<unknown>)(host, opts);
  }) as typeof real.lookup;
  return { ...real, lookup, default: { ...real, lookup } };
});

let acct: CreatedAccount;

beforeAll(async () => {
  acct = await createTestAccount("SSRF");
  await paidPix(acct, 50_000);
  const { getEnv } = await import("@/lib/env");
  expect(getEnv().webhookAllowPrivateUrls).toBe(false);
});

type Endpoint = { name: string; send: (url: string) => ReturnType<typeof call> };

const endpoints: Endpoint[] = [
  { name: "POST /api/v1/transactions", send: (url) => call("POST", "/api/v1/transactions", { auth: acct.secretKey, body: pixBody({ postbackUrl: url }) }) },
  {
    name: "POST /api/v1/cashOut/request",
    send: (url) => call("POST", "/api/v1/cashOut/request", { auth: acct.secretKey, body: { amount: 100, pixKey: "maria@example.com", postbackUrl: url } }),
  },
  { name: "POST /api/v1/checkouts", send: (url) => call("POST", "/api/v1/checkouts", { auth: acct.secretKey, body: { amount: 1000, postbackUrl: url } }) },
];

describe("SSRF: private postback URLs are refused", () => {
  for (const ep of endpoints) {
    it(`${ep.name}: ${PRIVATE_URLS.length} private, local and non-http URLs get a 400 on postbackUrl and write nothing`, async () => {
      const accepted: string[] = [];
      for (const url of PRIVATE_URLS) {
        const before = await rowCounts();
        const res = await ep.send(url);
        expectWellFormed(res, `${ep.name} ${url}`);
        if (res.status !== 400 || !res.body.errors?.some((e: { field: string }) => e.field === "postbackUrl")) {
          accepted.push(`${url} -> ${res.status} ${res.text.slice(0, 120)}`);
          continue;
        }
        expect(await rowCounts(), url).toEqual(before);
      }
      expect(accepted, "private URLs not refused").toEqual([]);
    });
  }

  it("host names that resolve to loopback, to a mix of public and private, or to a mapped metadata address are refused", async () => {
    for (const ep of endpoints) {
      for (const host of ["loopback.arara-test.com", "mixed.arara-test.com", "mapped.arara-test.com", "vm"]) {
        const res = await ep.send(`https://${host}/hook`);
        expect(res.status, `${ep.name} ${host}: ${res.text}`).toBe(400);
        expect(res.body.errors[0].field).toBe("postbackUrl");
      }
    }
  });

  it("a public https URL is accepted (the guard is not a blanket refusal)", async () => {
    const res = await call("POST", "/api/v1/transactions", { auth: acct.secretKey, body: pixBody({ postbackUrl: "https://93.184.215.14/hook" }) });
    expect(res.status, res.text).toBe(201);
  });
});
