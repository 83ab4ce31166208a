/**
 * The mailbox an e-mail address delivers to, as a key for counting what is sent to it: the address
 * lower-cased, without a `+tag` (sub-addressing: Gmail, Outlook, iCloud, Fastmail and most hosts
 * deliver `ana+x@` to `ana@`), and for Gmail without the dots of its local part (`a.na@gmail.com` is
 * `ana@gmail.com`; googlemail.com is gmail.com). Only for counting: the address itself is what is
 * stored and mailed.
 */
export function mailboxKey(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf("@");
  if (at <= 0) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1);
  const plus = local.indexOf("+");
  if (plus > 0) local = local.slice(0, plus);
  if (domain === "googlemail.com") domain = "gmail.com";
  if (domain === "gmail.com") local = local.replace(/\./g, "");
  return `${local}@${domain}`;
}
