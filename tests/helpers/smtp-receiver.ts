/**
 * A real SMTP server on 127.0.0.1 (the smtp-server package) that keeps what it receives, for tests
 * of the e-mails Arara sends. No mail leaves the machine.
 */
import { SMTPServer } from "smtp-server";

export type ReceivedMail = { from: string; to: string[]; raw: string };
export type SmtpReceiver = { url: string; mails: ReceivedMail[]; close: () => Promise<void> };

export async function startSmtpReceiver(port = 0): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const address = server.server.address();
  const bound = typeof address === "object" && address ? address.port : port;
  return {
    url: `smtp://127.0.0.1:${bound}`,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
