import type { TestPki } from "./certs";
import type { ApiPixPsp } from "./server";

const enc = (s: string) => new TextEncoder().encode(s);

/**
 * The "Recebimento PIX" settings that point an account at the local PSP, as a merchant would save them
 * (client certificate and key as uploaded PEM files, the PSP's CA), receiving on `pixKey`.
 */
export function localPspSettings(psp: ApiPixPsp, pki: TestPki, pixKey: string) {
  return {
    processor: "api-pix" as const,
    baseUrl: psp.baseUrl,
    tokenUrl: psp.tokenUrl,
    clientId: psp.clientId,
    clientSecret: psp.clientSecret,
    certificate: enc(pki.client.certPem),
    privateKey: enc(pki.client.keyPem),
    caCertificate: enc(pki.ca.certPem),
    pixKey,
  };
}
