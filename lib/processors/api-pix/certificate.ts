/**
 * How the merchant's client certificate (as uploaded: PEM certificate + private key, or a PKCS#12
 * bundle) and its password ("Senha do certificado") become the TLS client certificate. One function,
 * used both when the settings are saved (the check) and whenever a client is made from the stored
 * settings (the use), so what passes "Salvar" is what the PSP calls load.
 *
 * - PEM: the password, when there is one, is the private key's passphrase (an encrypted PKCS#8 or
 *   traditional PEM key).
 * - PKCS#12: given to Node as it is when Node reads it. Node on OpenSSL 3 does not read bundles made
 *   with the legacy algorithms (RC2-40, 3DES: `openssl pkcs12 -export -legacy`, many bank-issued
 *   .pfx files); those are read with node-forge and turned into a PEM certificate and key, in memory
 *   only (the bundle is what stays stored, encrypted).
 *
 * Failures are ApiPixError `client_certificate_invalid` saying what is wrong: the password (wrong or
 * missing), a bundle whose encryption cannot be read (and how to convert it), a key that is not the
 * certificate's. No secret is ever part of the error.
 */
import { createPrivateKey, X509Certificate, type KeyObject } from "node:crypto";
import tls from "node:tls";
import forge from "node-forge";
import { ApiPixError, MESSAGES } from "./errors";
import type { ClientCertificate } from "./transport";

export type CertificateMaterial =
  | { certPem: string; keyPem: string; password?: string | null }
  | { pkcs12: Buffer | Uint8Array; password?: string | null };

const OPERATION = "load client certificate";

/**
 * The most key-derivation iterations a certificate file may ask for, per derivation. OpenSSL exports
 * with 2,048, Windows with 2,000; 100,000 is about the most seen in practice. The count is written in
 * the file, up to 2^31: each derivation runs on the thread that serves every request (node-forge's in
 * JavaScript, Node's own inside a synchronous call), so an uploaded bundle asking for millions would
 * stop the server for seconds to hours at every save, connection test and client build. Refused
 * before anything is derived.
 */
export const MAX_KDF_ITERATIONS = 200_000;

/** A derivation asked for more than MAX_KDF_ITERATIONS. */
class TooManyIterations extends Error {}

type Asn1 = forge.asn1.Asn1;
const UNIVERSAL = forge.asn1.Class.UNIVERSAL;
const { OCTETSTRING, INTEGER } = forge.asn1.Type;

const isUniversal = (a: Asn1, type: number) => a.tagClass === UNIVERSAL && a.type === type && !a.constructed;

/**
 * The largest iteration count a DER file states in the clear: an INTEGER right after an OCTET STRING
 * in a SEQUENCE is how PKCS#12's MacData and PBE parameters and PBKDF2's parameters write their salt
 * and count; DER nested in OCTET STRINGs (PKCS#12's data contents) is read too. Counts inside
 * encrypted contents are not visible here: forge's derivations are capped when they run
 * (withCappedDerivations). 0 when the file is not DER.
 */
export function statedIterations(der: Buffer): number {
  let root: Asn1;
  try {
    root = forge.asn1.fromDer(forge.util.createBuffer(der.toString("binary")), false);
  } catch {
    return 0;
  }
  let most = 0;
  const walk = (a: Asn1, depth: number) => {
    if (depth > 32) return;
    if (Array.isArray(a.value)) {
      const children = a.value;
      for (let i = 0; i < children.length; i++) {
        const c = children[i];
        const next = children[i + 1];
        if (next && isUniversal(c, OCTETSTRING) && isUniversal(next, INTEGER) && typeof next.value === "string") {
          // More than 4 bytes is past any count a derivation could take in time.
          const count = next.value.length > 4 ? Number.POSITIVE_INFINITY : parseInt(forge.util.bytesToHex(next.value) || "0", 16);
          most = Math.max(most, count);
        }
        walk(c, depth + 1);
      }
    } else if (isUniversal(a, OCTETSTRING) && typeof a.value === "string" && a.value.charCodeAt(0) === 0x30) {
      try {
        walk(forge.asn1.fromDer(forge.util.createBuffer(a.value), false), depth + 1);
      } catch {
        // not DER: a salt, a digest, a key
      }
    }
  };
  walk(root, 0);
  return most;
}

/**
 * Runs `fn` (synchronous: node-forge's PKCS#12 reading) with forge's three key derivations (PKCS#12's
 * for the MAC and the legacy PBE, PBKDF2 for PBES2) refusing more than MAX_KDF_ITERATIONS, so that
 * counts hidden inside encrypted contents are capped too. Restored before returning.
 */
function withCappedDerivations<T>(fn: () => T): T {
  type Fn = (...args: unknown[]) => unknown;
  const slots: [Record<string, Fn>, string, number][] = [
    [forge.pkcs12 as unknown as Record<string, Fn>, "generateKey", 3],
    [(forge.pki as unknown as { pbe: Record<string, Fn> }).pbe, "generatePkcs12Key", 3],
    [forge.pkcs5 as unknown as Record<string, Fn>, "pbkdf2", 2],
  ];
  const originals = slots.map(([owner, name]) => owner[name]);
  slots.forEach(([owner, name, at], i) => {
    owner[name] = (...args: unknown[]) => {
      if (!(Number(args[at]) <= MAX_KDF_ITERATIONS)) throw new TooManyIterations();
      return originals[i](...args);
    };
  });
  try {
    return fn();
  } finally {
    slots.forEach(([owner, name], i) => (owner[name] = originals[i]));
  }
}

function loadError(options: tls.SecureContextOptions): unknown {
  try {
    tls.createSecureContext(options);
    return null;
  } catch (e) {
    return e ?? new Error("unknown");
  }
}

/** A short, secret-free description of a loading failure ("mac verify failure", an OpenSSL code). */
function causeOf(e: unknown): string | undefined {
  if (!(e instanceof Error)) return undefined;
  const code = (e as NodeJS.ErrnoException).code;
  if (typeof code === "string") return code;
  return /^[a-z0-9 _.#?-]{1,80}$/i.test(e.message) ? e.message : undefined;
}

const invalid = (host: string, message: string, cause?: unknown) =>
  new ApiPixError({ code: "client_certificate_invalid", message, operation: OPERATION, host, causeCode: causeOf(cause) });

const isEncryptedPemKey = (keyPem: string) => /-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type:\s*4,ENCRYPTED/.test(keyPem);

const isBadDecrypt = (e: unknown) => {
  const code = (e as NodeJS.ErrnoException | null)?.code ?? "";
  const message = e instanceof Error ? e.message : "";
  return /BAD_DECRYPT|BAD_PASSWORD|INTERRUPTED_OR_CANCELLED/i.test(code) || /bad decrypt|bad password|interrupted or cancelled/i.test(message);
};

const isMacFailure = (e: unknown) => e instanceof Error && /mac verify failure/i.test(e.message);

/**
 * The TLS client certificate for this material, checked to load (key matching the certificate,
 * password right). Throws ApiPixError `client_certificate_invalid` with the reason otherwise.
 * `host` only labels the error (the PSP the certificate is for).
 */
export function clientCertificateFrom(material: CertificateMaterial, host = ""): ClientCertificate {
  const password = material.password || undefined;
  if ("pkcs12" in material) return fromPkcs12(Buffer.from(material.pkcs12), password, host);
  const certificate: ClientCertificate = { certPem: material.certPem, keyPem: material.keyPem, ...(password ? { keyPassphrase: password } : {}) };
  // An encrypted PKCS#8 key states its PBKDF2 count in the clear (a traditional one derives once).
  const encryptedKey = /-----BEGIN ENCRYPTED PRIVATE KEY-----([\s\S]*?)-----END ENCRYPTED PRIVATE KEY-----/.exec(material.keyPem);
  if (encryptedKey && statedIterations(Buffer.from(encryptedKey[1].replace(/\s+/g, ""), "base64")) > MAX_KDF_ITERATIONS) {
    throw invalid(host, MESSAGES.certificateTooManyIterations(MAX_KDF_ITERATIONS));
  }
  const e = loadError({ cert: certificate.certPem, key: certificate.keyPem, passphrase: password });
  if (!e) return certificate;
  if (isEncryptedPemKey(material.keyPem) && (isBadDecrypt(e) || !password)) {
    throw invalid(host, password ? MESSAGES.clientKeyWrongPassword() : MESSAGES.clientKeyNeedsPassword(), e);
  }
  throw invalid(host, MESSAGES.clientCertificateUnusable(), e);
}

function fromPkcs12(pfx: Buffer, password: string | undefined, host: string): ClientCertificate {
  // Before Node or forge derive anything (the MAC's and the bags' counts are written in the clear).
  if (statedIterations(pfx) > MAX_KDF_ITERATIONS) throw invalid(host, MESSAGES.certificateTooManyIterations(MAX_KDF_ITERATIONS));
  const native: ClientCertificate = { pfx, passphrase: password };
  const e = loadError({ pfx, passphrase: password ?? "" });
  if (!e) return native;
  // The MAC is checked before anything is decrypted, with algorithms OpenSSL 3 always has: a MAC
  // failure is the password (Node says so for legacy bundles too).
  if (isMacFailure(e)) throw invalid(host, password ? MESSAGES.pkcs12WrongPassword() : MESSAGES.pkcs12NeedsPassword(), e);
  // Anything else (usually "Unsupported PKCS12 PFX data": legacy RC2/3DES): node-forge reads it.
  const converted = readWithForge(pfx, password ?? "");
  if (converted.ok === false) {
    if (converted.why === "password") throw invalid(host, password ? MESSAGES.pkcs12WrongPassword() : MESSAGES.pkcs12NeedsPassword(), e);
    if (converted.why === "not_pkcs12") throw invalid(host, MESSAGES.notACertificateFile(), e);
    if (converted.why === "incomplete") throw invalid(host, MESSAGES.clientCertificateUnusable(), e);
    if (converted.why === "iterations") throw invalid(host, MESSAGES.certificateTooManyIterations(MAX_KDF_ITERATIONS), e);
    throw invalid(host, MESSAGES.pkcs12Unsupported(), e);
  }
  const certificate: ClientCertificate = { certPem: converted.certPem, keyPem: converted.keyPem, ...(password ? { keyPassphrase: password } : {}) };
  const again = loadError({ cert: certificate.certPem, key: certificate.keyPem });
  if (again) throw invalid(host, MESSAGES.clientCertificateUnusable(), again);
  return certificate;
}

type ForgeRead = { ok: true; certPem: string; keyPem: string } | { ok: false; why: "password" | "not_pkcs12" | "unsupported" | "incomplete" | "iterations" };

/** A PKCS#12 bundle as PEM (leaf certificate first, then the rest of the chain) and a PKCS#8 key. */
function readWithForge(pfx: Buffer, password: string): ForgeRead {
  let asn1: forge.asn1.Asn1;
  try {
    asn1 = forge.asn1.fromDer(forge.util.createBuffer(pfx.toString("binary")));
  } catch {
    return { ok: false, why: "not_pkcs12" };
  }
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    p12 = withCappedDerivations(() => forge.pkcs12.pkcs12FromAsn1(asn1, false, password));
  } catch (e) {
    if (e instanceof TooManyIterations) return { ok: false, why: "iterations" };
    const message = e instanceof Error ? e.message : "";
    if (/Invalid password|wrong password/i.test(message)) return { ok: false, why: "password" };
    if (/Cannot read PKCS#12 PFX|PKCS#12 PFX of version/i.test(message)) return { ok: false, why: "not_pkcs12" };
    return { ok: false, why: "unsupported" };
  }
  const keys: KeyObject[] = [];
  const certs: X509Certificate[] = [];
  try {
    for (const safe of p12.safeContents) {
      for (const bag of safe.safeBags) {
        const b = bag as forge.pkcs12.Bag & { asn1?: forge.asn1.Asn1 };
        if (bag.type === forge.pki.oids.pkcs8ShroudedKeyBag || bag.type === forge.pki.oids.keyBag) {
          // An RSA key forge parsed, or (EC and others) the PrivateKeyInfo it left as ASN.1.
          const info = bag.key ? forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(bag.key)) : b.asn1;
          if (info) keys.push(createPrivateKey({ key: derOf(info), format: "der", type: "pkcs8" }));
        } else if (bag.type === forge.pki.oids.certBag) {
          const der = bag.cert ? derOf(forge.pki.certificateToAsn1(bag.cert)) : b.asn1 ? derOf(b.asn1) : null;
          if (der) certs.push(new X509Certificate(der));
        }
      }
    }
  } catch {
    return { ok: false, why: "unsupported" };
  }
  if (keys.length === 0 || certs.length === 0) return { ok: false, why: "incomplete" };
  // The key whose certificate is in the bundle, and that certificate first.
  for (const key of keys) {
    const leaf = certs.find((c) => c.checkPrivateKey(key));
    if (!leaf) continue;
    const chain = [leaf, ...certs.filter((c) => c !== leaf)];
    return {
      ok: true,
      certPem: chain.map((c) => c.toString().trim()).join("\n") + "\n",
      keyPem: key.export({ type: "pkcs8", format: "pem" }).toString(),
    };
  }
  return { ok: false, why: "incomplete" };
}

const derOf = (a: forge.asn1.Asn1) => Buffer.from(forge.asn1.toDer(a).getBytes(), "binary");
