/**
 * The SMTP transport of the payer's e-mails, from SMTP_URL. Unset: null, and nothing is sent
 * (development and tests point SMTP_URL at a local SMTP server; no mail leaves the machine).
 */
import nodemailer, { type Transporter } from "nodemailer";
import { getEnv } from "@/lib/env";

let cached: { url: string; transport: Transporter } | undefined;

export function getMailTransport(): Transporter | null {
  const url = getEnv().smtpUrl;
  if (!url) return null;
  if (cached?.url !== url) cached = { url, transport: nodemailer.createTransport(url) };
  return cached.transport;
}

export type Mail = { to: string; subject: string; text: string; html: string };

/** Hands a message to the SMTP server; false when no SMTP server is configured. */
export async function sendMail(mail: Mail): Promise<boolean> {
  const transport = getMailTransport();
  if (!transport) return false;
  await transport.sendMail({ from: getEnv().mailFrom, ...mail });
  return true;
}
