/**
 * Certificates made at test time for the local API Pix PSP: the PSP's CA, its server certificate,
 * the merchant application's client certificate (PEM and PKCS#12 with a password), a client
 * certificate from a CA the PSP does not trust, and the PSP's own certificate for posting webhooks.
 *
 * Keys come from node:crypto (RSA 2048, native and fast); node-forge builds, signs and packs the
 * X.509 certificates and the PKCS#12 bundle.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import forge from "node-forge";

export type PemPair = { certPem: string; keyPem: string };
type Issuer = { cert: forge.pki.Certificate; keyPem: string };

export type TestPki = {
  /** The PSP's CA: it issued the server certificate and the client certificates it accepts. */
  ca: { certPem: string };
  /** The PSP's HTTPS server certificate (`serverNames` as subjectAltName). */
  server: PemPair;
  /** The merchant application's client certificate, issued by the PSP's CA. */
  client: PemPair;
  /** The same client certificate and key as a PKCS#12 bundle (.p12) with a password. */
  clientP12: { pfx: Buffer; passphrase: string };
  /** A client certificate from another CA: the PSP refuses it in the handshake. */
  untrustedClient: PemPair;
  /** That other CA: a client that trusts only it does not trust the PSP's server certificate. */
  otherCa: { certPem: string };
  /** The certificate the PSP presents when it posts a webhook over HTTPS (mutual TLS, as the spec asks). */
  webhookClient: PemPair;
};

function newKey(): { keyPem: string; publicPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    keyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
  };
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

function issue(
  commonName: string,
  key: { keyPem: string; publicPem: string },
  issuer: Issuer | null,
  kind: "ca" | "server" | "client",
  altNames: string[] = [],
): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(key.publicPem);
  // Positive serial: the leading byte stays below 0x80.
  cert.serialNumber = `01${randomBytes(15).toString("hex")}`;
  cert.validity.notBefore = new Date(Date.now() - 60 * 60 * 1000);
  cert.validity.notAfter = new Date(Date.now() + 7 * 24 * 60 * 60 * 1000);
  const subject = [
    { name: "commonName", value: commonName },
    { name: "organizationName", value: "Arara tests" },
    { name: "countryName", value: "BR" },
  ];
  cert.setSubject(subject);
  cert.setIssuer(issuer ? issuer.cert.subject.attributes : subject);
  const extensions: any[] = [{ name: "subjectKeyIdentifier" }];
  if (kind === "ca") {
    extensions.push({ name: "basicConstraints", cA: true, critical: true }, { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true });
  } else {
    extensions.push(
      { name: "basicConstraints", cA: false, critical: true },
      { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
      { name: "extKeyUsage", serverAuth: kind === "server", clientAuth: kind === "client" },
    );
  }
  if (altNames.length > 0) {
    extensions.push({
      name: "subjectAltName",
      altNames: altNames.map((n) => (IPV4.test(n) ? { type: 7, ip: n } : { type: 2, value: n })),
    });
  }
  cert.setExtensions(extensions);
  cert.sign(forge.pki.privateKeyFromPem(issuer ? issuer.keyPem : key.keyPem), forge.md.sha256.create());
  return cert;
}

const pem = (c: forge.pki.Certificate) => forge.pki.certificateToPem(c);

export function makeTestPki(options: { serverNames?: string[] } = {}): TestPki {
  const serverNames = options.serverNames ?? ["localhost", "127.0.0.1"];
  const caKey = newKey();
  const ca = issue("PSP de testes - CA", caKey, null, "ca");
  const caIssuer = { cert: ca, keyPem: caKey.keyPem };

  const serverKey = newKey();
  const server = issue(serverNames[0] ?? "localhost", serverKey, caIssuer, "server", serverNames);
  const clientKey = newKey();
  const client = issue("loja-de-testes", clientKey, caIssuer, "client");
  const webhookKey = newKey();
  const webhook = issue("psp-de-testes-webhooks", webhookKey, caIssuer, "client");

  const otherKey = newKey();
  const other = issue("Outra CA", otherKey, null, "ca");
  const strangerKey = newKey();
  const stranger = issue("loja-de-testes", strangerKey, { cert: other, keyPem: otherKey.keyPem }, "client");

  const passphrase = `p12-${randomBytes(12).toString("base64url")}`;
  const asn1 = forge.pkcs12.toPkcs12Asn1(forge.pki.privateKeyFromPem(clientKey.keyPem), [client, ca], passphrase, {
    algorithm: "aes256",
    friendlyName: "loja-de-testes",
  });
  const pfx = Buffer.from(forge.asn1.toDer(asn1).getBytes(), "binary");

  return {
    ca: { certPem: pem(ca) },
    server: { certPem: pem(server), keyPem: serverKey.keyPem },
    client: { certPem: pem(client), keyPem: clientKey.keyPem },
    clientP12: { pfx, passphrase },
    untrustedClient: { certPem: pem(stranger), keyPem: strangerKey.keyPem },
    otherCa: { certPem: pem(other) },
    webhookClient: { certPem: pem(webhook), keyPem: webhookKey.keyPem },
  };
}
