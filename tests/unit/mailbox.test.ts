import { describe, expect, it } from "vitest";
import { mailboxKey } from "@/lib/domain/mailbox";

describe("mailboxKey: the mailbox an address delivers to, for counting what is sent to it", () => {
  it.each([
    ["Ana@Example.com", "ana@example.com"],
    ["  ana@example.com ", "ana@example.com"],
    ["ana+loja@example.com", "ana@example.com"],
    ["ana+a+b@outlook.com", "ana@outlook.com"],
    ["a.n.a@gmail.com", "ana@gmail.com"],
    ["A.Na+Convite@GoogleMail.com", "ana@gmail.com"],
    // Dots are part of the mailbox everywhere else.
    ["a.na@example.com", "a.na@example.com"],
    // A local part that is only a tag, or no @: left as the address (nothing to strip safely).
    ["+tag@example.com", "+tag@example.com"],
    ["not-an-address", "not-an-address"],
    // The last @ splits (a quoted local part may hold one).
    ['"a@b"+x@example.com', '"a@b"@example.com'],
  ])("%s → %s", (email, key) => {
    expect(mailboxKey(email)).toBe(key);
  });
});
